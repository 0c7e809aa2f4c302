package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/reports"
)

// hostileName is OSC 52 (set the clipboard) and a one-character CSI, in
// YAML's double-quoted escapes.
const hostileName = `"\e]52;c;aGk=\a\u009b31m"`

// withName copies an example with its top-level name replaced.
func withName(t *testing.T, dir, example, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", example))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^name: .*$`)
	if !re.Match(data) {
		t.Fatalf("%s has no top-level name", example)
	}
	path := filepath.Join(dir, example)
	if err := os.WriteFile(path, re.ReplaceAll(data, []byte("name: "+name)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Issue 23 item 14: a scenario named "\e]52;c;…\a" was printed raw. No
// text, CSV, Markdown or JSON report, and no error message, lets a control
// character through; each shows the escapes instead.
func TestControlCharactersEscaped(t *testing.T) {
	dir := t.TempDir()
	land := withName(t, dir, "wild-results-3to1.yaml", hostileName)
	raid := withName(t, dir, "dusseldorf-bombardment.yaml", hostileName)
	planFile := withName(t, dir, "plan-one-hex.yaml", hostileName)
	opFile := withName(t, dir, "beachhead.yaml", hostileName)
	badKey := filepath.Join(dir, "bad.yaml")
	os.WriteFile(badKey, []byte("kind: land\n\"\\e[2J\\e]52;c;x\\a\": 1\n"), 0o644)
	evil := "\x1b[31mred\u009b=modifier=1"
	// named: the output names the scenario, plan or variant (plan's CSV
	// and JSON do not), so the escapes must show.
	type hostileCase struct {
		args  []string
		named bool
	}
	var cases []hostileCase
	for _, f := range []string{"text", "json"} {
		cases = append(cases, hostileCase{[]string{"run", "--exact", "-f", f, land}, true}, hostileCase{[]string{"run", "--exact", "-f", f, raid}, true},
			hostileCase{[]string{"run", "--exact", "-f", f, opFile}, true})
	}
	for _, f := range []string{"text", "csv", "markdown", "json"} {
		cases = append(cases,
			hostileCase{[]string{"compare", "--exact", "-f", f, "-v", "base=modifier=0", "-v", evil, land}, true},
			hostileCase{[]string{"sweep", "--attack", "20..21", "-f", f, land}, true},
			hostileCase{[]string{"plan", "-f", f, planFile}, f == "text" || f == "markdown"},
			hostileCase{[]string{"battery", "--generate", "--axis", "attack=20..21", "--exact", "-f", f, "-v", "base=modifier=0", "-v", evil, land}, true})
	}
	cases = append(cases, hostileCase{[]string{"run", "--exact", "--explain", land}, true})
	for _, c := range cases {
		stdout, stderr, code := wifodds(t, c.args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", c.args[:len(c.args)-1], code, stderr)
			continue
		}
		checkEscaped(t, c.args, stdout+stderr, c.named)
	}
	_, stderr, code := wifodds(t, "run", badKey)
	if code != exitError {
		t.Errorf("bad key: exit %d: %s", code, stderr)
	}
	checkEscaped(t, []string{"run", "bad key"}, stderr, true)
}

// checkEscaped fails the test if out holds a control character a terminal
// acts on, or, when it names the hostile string, does not show the
// escaped ESC.
func checkEscaped(t *testing.T, args []string, out string, named bool) {
	t.Helper()
	if clean := reports.Sanitise(out); clean != out {
		i := 0
		for i < len(out) && out[i] == clean[i] {
			i++
		}
		t.Errorf("%v: a raw control character reached the output at byte %d: %q", args[:len(args)-1], i, out[max(0, i-20):min(len(out), i+20)])
	}
	if named && !strings.Contains(out, `\x1b`) && !strings.Contains(out, `\u001b`) {
		t.Errorf("%v: the hostile name is not shown escaped:\n%s", args[:len(args)-1], out)
	}
}
