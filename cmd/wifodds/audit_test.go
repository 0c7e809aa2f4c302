package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Audit item 8: a sweep over totals past any real stack is refused, not
// printed as hundreds of identical rows.
func TestSweepRangeBounded(t *testing.T) {
	for _, r := range []string{"9223372036854775000..9223372036854775300", "0..5000", "5..900"} {
		_, stderr, code := wifodds(t, "sweep", "../../examples/wild-results-3to1.yaml", "--attack", r)
		if code != exitUsage {
			t.Errorf("--attack %s: exit %d, %s", r, code, stderr)
		}
	}
}

// Audit item 8: --precision with --exact is refused; with --auto choosing
// exact it is said to have no effect.
func TestPrecisionWithExact(t *testing.T) {
	_, stderr, code := wifodds(t, "run", "--exact", "--precision", "0.01", "../../examples/wild-results-3to1.yaml")
	if code != exitUsage || !strings.Contains(stderr, "--exact needs no precision") {
		t.Errorf("exit %d, %s", code, stderr)
	}
	out, _, code := wifodds(t, "run", "--auto", "--precision", "0.01", "../../examples/wild-results-3to1.yaml")
	if code != 0 || !strings.Contains(out, "--precision does not apply: the answer is exact") {
		t.Errorf("exit %d, %s", code, out)
	}
}

// Audit item 8: a precision target not reached within --max-trials is said
// so in text and JSON.
func TestPrecisionNotReached(t *testing.T) {
	args := []string{"run", "--mc", "--precision", "0.0001", "--max-trials", "65536", "-w", "2", "../../examples/fractional-odds-16to3.yaml"}
	out, stderr, code := wifodds(t, append(args, "-f", "json")...)
	if code != 0 {
		t.Fatalf("exit %d, %s", code, stderr)
	}
	var got struct {
		Precision *struct {
			Target   float64 `json:"target"`
			Reached  bool    `json:"reached"`
			Achieved float64 `json:"achieved"`
		} `json:"precision"`
		Trials uint64 `json:"trials"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if p := got.Precision; p == nil || p.Reached || p.Target != 0.0001 || p.Achieved <= 0.0001 || got.Trials != 65536 {
		t.Errorf("precision %+v after %d trials", got.Precision, got.Trials)
	}
	out, _, _ = wifodds(t, args...)
	if !strings.Contains(out, "PRECISION NOT REACHED") {
		t.Errorf("the text report does not say the target was missed:\n%s", out)
	}
	// Reached: said too.
	out, _, _ = wifodds(t, "run", "--mc", "--precision", "0.01", "-w", "2", "-f", "json", "../../examples/fractional-odds-16to3.yaml")
	if !strings.Contains(out, `"reached": true`) {
		t.Errorf("reached target not reported:\n%s", out)
	}
}

// Audit item 10: outputs are checked before any work and never replace
// what they should not.
func TestOutputsChecked(t *testing.T) {
	dir := t.TempDir()
	scen := filepath.Join(dir, "scen.yaml")
	src, err := os.ReadFile("../../examples/wild-results-3to1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(scen, src, 0o644)
	x := filepath.Join(dir, "x.png")
	f := filepath.Join(dir, "f.html")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "-o", scen, scen}, "that is an input of this command"},
		{[]string{"compare", scen, "-v", "a=crt=2d6", "--html", scen}, "that is an input of this command"},
		{[]string{"compare", scen, "-v", "a=crt=2d6", "--chart", x, "--loss-chart", x}, "--chart writes that file too"},
		{[]string{"compare", scen, "-v", "a=crt=2d6", "--html", f, "-o", f}, "writes that file too"},
		{[]string{"run", "-o", dir, scen}, "is a folder; give the path of a file to write"},
		{[]string{"sweep", scen, "--attack", "8..12", "--chart", x, "--heatmap", filepath.Join(dir, "h.png"), "--html", f}, "--heatmap needs --modifier"},
	}
	for _, c := range cases {
		_, stderr, code := wifodds(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %s", c.args, code, stderr)
		}
	}
	if data, _ := os.ReadFile(scen); string(data) != string(src) {
		t.Error("the scenario was changed")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left behind: %d entries", len(entries))
	}
	// -o /dev/null writes through and leaves the device a device.
	if _, stderr, code := wifodds(t, "run", "--exact", "-o", "/dev/null", scen); code != 0 {
		t.Fatalf("-o /dev/null: exit %d, %s", code, stderr)
	}
	if st, err := os.Stat("/dev/null"); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("/dev/null is no longer a device: %v", st.Mode())
	}
}

// Issue 15: a run is exact by default when the dice tree fits the budget,
// and says so; over the budget it samples and says why.
func TestExactByDefault(t *testing.T) {
	out, _, code := wifodds(t, "run", "../../examples/wild-results-3to1.yaml")
	if code != 0 || !strings.Contains(out, "method: exact (") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	out, _, code = wifodds(t, "run", "--budget", "1000", "-n", "65536", "-w", "2", "testdata/huge-tree.yaml")
	if code != 0 || !strings.Contains(out, "method: Monte Carlo") || !strings.Contains(out, "sampled (Monte Carlo): the dice tree has more than 1000 paths") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if _, stderr, code := wifodds(t, "run", "--exact", "--mc", "../../examples/wild-results-3to1.yaml"); code != exitUsage || !strings.Contains(stderr, "choose one of --exact or --mc") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	// Counted, not walked: billions of dice paths fit any budget, by
	// default and with --exact (docs/performance.md).
	for _, args := range [][]string{{"run", "testdata/six-strikes.yaml"}, {"run", "--exact", "--budget", "1k", "testdata/six-strikes.yaml"}} {
		out, stderr, code := wifodds(t, args...)
		if code != 0 || !strings.Contains(out, "method: exact (2,176,782,336 dice paths)") {
			t.Errorf("%v: exit %d:\n%s%s", args, code, out, stderr)
		}
	}
}

// --budget reads counts as --trials does, and refuses what it cannot take
// with the range it can.
func TestBudgetCounts(t *testing.T) {
	for _, b := range []string{"1e6", "2M", "2_097_152", "1099511627776"} {
		if out, stderr, code := wifodds(t, "run", "--budget", b, "../../examples/wild-results-3to1.yaml"); code != 0 || !strings.Contains(out, "method: exact") {
			t.Errorf("--budget %s: exit %d, %s", b, code, stderr)
		}
	}
	for b, want := range map[string]string{
		"1e13": "--budget 1e13: want 1 to 1099511627776 paths",
		"0":    `--budget: "0": want a whole number of paths, at least 1`,
		"lots": `--budget: "lots" is not a number of paths`,
	} {
		if _, stderr, code := wifodds(t, "sweep", "--attack", "10..12", "--budget", b, "../../examples/wild-results-3to1.yaml"); code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("--budget %s: exit %d, %s", b, code, stderr)
		}
	}
}

// Issue 15: --version, shell completion and help that shows examples.
func TestCLIConventions(t *testing.T) {
	out, _, code := wifodds(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "wifodds version ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		out, stderr, code := wifodds(t, "completion", sh)
		if code != 0 || !strings.Contains(out, "wifodds") || len(out) < 200 {
			t.Errorf("completion %s: exit %d, %s%s", sh, code, out, stderr)
		}
	}
	if _, _, code := wifodds(t, "completion", "tcsh"); code != exitUsage {
		t.Errorf("completion tcsh: exit %d", code)
	}
	// urfave/cli reads the word being completed from os.Args.
	saved := os.Args
	os.Args = []string{"wifodds", "run", "--e", "--generate-bash-completion"}
	out, _, _ = wifodds(t, os.Args[1:]...)
	os.Args = saved
	if !strings.Contains(out, "--exact") || !strings.Contains(out, "--explain") {
		t.Errorf("flag completion: %q", out)
	}
	for _, cmd := range []string{"run", "compare", "sweep"} {
		out, _, _ := wifodds(t, "help", cmd)
		if !strings.Contains(out, "Examples:") || !strings.Contains(out, "docs/scenario-format.md") {
			t.Errorf("help %s has no examples or format pointer:\n%s", cmd, out)
		}
	}
}
