package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// labArgs are a small generated battery for the CRT lab's commands.
func labArgs(cmd, table string) []string {
	return []string{"crt", cmd, table, "--generate", "../../examples/fractional-odds-16to3.yaml", "--axis", "attack=14..22", "--axis", "terrain=clear,forest"}
}

// crt weights writes JSON whose battery weights sum to 1, a tidy CSV,
// text with the grid, and the heat map, all from one battery.
func TestCRTWeightsCommand(t *testing.T) {
	out, errs, code := wifodds(t, append(labArgs("weights", "2d6"), "-f", "json")...)
	if code != 0 {
		t.Fatal(errs)
	}
	var w struct {
		Table     string
		Scenarios []struct{ Name string }
		Cells     []struct {
			Cell   string
			Weight float64
		}
		Fixed float64
	}
	if err := json.Unmarshal([]byte(out), &w); err != nil {
		t.Fatal(err)
	}
	sum := w.Fixed
	for _, c := range w.Cells {
		sum += c.Weight
	}
	if w.Table != "2d6" || len(w.Scenarios) != 14 || math.Abs(sum-1) > 1e-12 {
		t.Errorf("table %q, %d scenarios, weights sum to %v; want 2d6, 14, 1", w.Table, len(w.Scenarios), sum)
	}
	out, errs, code = wifodds(t, append(labArgs("weights", "2d6"), "-f", "csv")...)
	if code != 0 || !strings.HasPrefix(out, "scenario,cell,result,weight,attacker_roll,defender_roll,alternative,metric,change\n") || !strings.Contains(out, "(battery),assault/-/8,") {
		t.Errorf("csv: code %d, %s, starts %.200q", code, errs, out)
	}
	png := filepath.Join(t.TempDir(), "w.png")
	out, errs, code = wifodds(t, append(labArgs("weights", "standard"), "--heatmap", png)...)
	if code != 0 || !strings.Contains(out, "assault table") || !strings.Contains(out, "moves P(hex taken) most") {
		t.Errorf("text: code %d, %s, %q", code, errs, out)
	}
	if b, err := os.ReadFile(png); err != nil || len(b) < 1000 {
		t.Errorf("heat map: %v, %d bytes", err, len(b))
	}
}

// Bad input to the lab is a usage error naming what is wrong, and writes
// nothing.
func TestCRTLabBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"crt", "weights", "standard"}, "give the battery"},
		{[]string{"crt", "weights", "nosuch", "--battery", "../../examples/wild-results-3to1.yaml"}, "nosuch"},
		{[]string{"crt", "weights", "standard", "--battery", "../../examples/plan-front.yaml"}, "plan file"},
		{[]string{"crt", "weights", "standard", "--battery", "x.yaml", "--generate", "y.yaml"}, "not both"},
		{[]string{"crt", "weights", "standard", "--battery", "../../examples/wild-results-3to1.yaml", "--axis", "attack=1..3"}, "--axis needs --generate"},
	} {
		out, errs, code := wifodds(t, c.args...)
		if code == 0 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want an error naming %q", c.args, code, out, errs, c.want)
		}
	}
}
