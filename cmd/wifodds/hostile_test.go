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

// Red-team finding F1: a newline (or CR, tab, U+2028, a bidi override) in
// a name, id or key was printed raw, so a scenario could forge report
// lines ("x\nP(hex taken)  99.99%"). Each is refused where it is written,
// with its position, in one line of error; nothing reaches standard output.
func TestLineBreakersRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	forged := write("nl.yaml", "name: \"x\\nP(hex taken)  99.99%\"\nkind: land\nhex: {terrain: clear}\nattacker:\n  units:\n"+
		"    - {type: ARM, size: corps, factors: 6, nation: GE}\ndefender:\n  units:\n    - {type: INF, size: corps, factors: 2, nation: FR}\n")
	unit := write("unit.yaml", "kind: land\nhex: {terrain: clear}\nattacker:\n  units:\n"+
		"    - {type: ARM, size: corps, factors: 6, nation: GE, name: \"Pz\\n  odds 99:1\"}\ndefender:\n  units:\n    - {type: INF, size: corps, factors: 2, nation: FR}\n")
	key := write("key.yaml", "kind: land\n\"a\\nb\": 1\n")
	bidi := write("bidi.yaml", "name: \"\\u202Egnp.exe\"\nkind: land\n")
	land := filepath.Join("..", "..", "examples", "wild-results-3to1.yaml")
	planData, err := os.ReadFile(filepath.Join("..", "..", "examples", "plan-one-hex.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	planFile := write("plan.yaml", strings.Replace(string(planData), "{id: Stuka,", `{id: "Stuka\r\nforged",`, 1))
	fromFile := write("x\nP(hex taken) 99%.yaml", "kind: land\n")
	for _, c := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"run", forged}, `nl.yaml:1:7: "x\nP(hex taken)  99.99%" holds the character U+000A`, exitError},
		{[]string{"run", "--explain", unit}, `unit.yaml:5:62: "Pz\n  odds 99:1" holds`, exitError},
		{[]string{"run", key}, `key.yaml:2:1: "a\nb" holds`, exitError},
		{[]string{"run", bidi}, `U+202E`, exitError},
		{[]string{"plan", planFile}, `"Stuka\r\nforged" holds the character U+000D`, exitError},
		{[]string{"run", fromFile}, `name: the file's name is the scenario's name`, exitError},
		{[]string{"compare", land, "-v", "a\nforged=crt=2d6"}, `wifodds: variant: "a\nforged=crt=2d6" holds`, exitUsage},
		{[]string{"compare", land, "-v", "a\tb=crt=2d6"}, `U+0009`, exitUsage},
		{[]string{"battery", "--generate", "--axis", "attack=13..14", "-v", "std=crt=standard", "-v", "x\u2028y=crt=2d6", land}, `U+2028`, exitUsage},
	} {
		stdout, stderr, code := wifodds(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %s", c.args, code, stderr, c.code, c.want)
		}
		if stdout != "" {
			t.Errorf("%q: printed %q", c.args, stdout)
		}
		if first, _, _ := strings.Cut(stderr, "\n"); strings.Contains(first, "forged") == false && strings.Contains(c.want, "forged") {
			t.Errorf("%q: the error breaks its line: %q", c.args, stderr)
		}
	}
}
