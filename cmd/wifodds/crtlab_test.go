package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
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
		{[]string{"crt", "design", "standard", "--generate", "../../examples/wild-results-3to1.yaml", "--axis", "attack=14..500", "--axis", "modifier=-5..5", "--goal", "hex_taken>=0.5"}, "at most 5000"},
	} {
		out, errs, code := wifodds(t, c.args...)
		if code == 0 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want an error naming %q", c.args, code, out, errs, c.want)
		}
	}
}

// A cell= variant answers what the same table edited in a CRT file does,
// in battery and compare, and is reported as edited; so does sweep --cell.
func TestCellOverrideEqualsEditedFile(t *testing.T) {
	src, errs, code := wifodds(t, "crt", "export", "standard")
	if code != 0 {
		t.Fatal(errs)
	}
	// assault 3:1 roll 4 is 1/2 and blitz 4:1 roll 2 is 1/1R in the built-in file.
	edited := strings.Replace(src, `{roll: 4, cells: ["2/-", "2/1", "1/1", "1/2",`, `{roll: 4, cells: ["2/-", "2/1", "1/1", "*/1",`, 1)
	edited = strings.Replace(edited, `{roll: 2, cells: ["3/-", "2/-", "1/-", "1/1", "1/1R",`, `{roll: 2, cells: ["3/-", "2/-", "1/-", "1/1", "-/2S",`, 1)
	if strings.Count(edited, `"*/1"`) != 1 || strings.Count(edited, `"1/1", "-/2S"`) != 1 {
		t.Fatalf("the built-in table's rows moved: edit this test's text")
	}
	file := filepath.Join(t.TempDir(), "edited.yaml")
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	cells := "crt=standard,cell=assault/3:1/4:*/1,cell=blitz/4:1/2:-/2S"
	for _, cmd := range [][]string{
		{"battery", "-q", "--generate", "../../examples/wild-results-3to1.yaml", "--axis", "attack=8..20", "--axis", "terrain=clear,forest", "-v", "base=crt=standard,table=auto"},
		{"compare", "../../examples/port-moresby-invasion.yaml", "-v", "base=crt=standard"},
	} {
		run := func(variant string) map[string]any {
			out, errs, code := wifodds(t, append(slices.Clone(cmd), "-v", variant, "-f", "json")...)
			if code != 0 {
				t.Fatal(errs)
			}
			var v map[string]any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatal(err)
			}
			return v
		}
		table := ""
		if cmd[0] == "battery" {
			table = ",table=auto"
		}
		a, b := run("e="+cells+table), run("e=crt="+file+table)
		ma, mb := metricsOf(t, a), metricsOf(t, b)
		// battery answers cell= by reweighting: the exact count over the
		// dice sequences, rounded once, where the compiled answer adds
		// rounded probabilities: they agree to the last bits.
		if len(ma) == 0 || len(ma) != len(mb) || !closeNumbers(ma, mb) {
			t.Errorf("%s: cell= gives %.300v, the edited file %.300v", cmd[0], ma, mb)
		}
		if out, _ := json.Marshal(a); !strings.Contains(string(out), `"crt":"standard (edited)"`) {
			t.Errorf("%s: the edited variant is not marked edited: %.400s", cmd[0], out)
		}
	}
	// sweep --cell sweeps the edited table beside the table.
	sweep := func(args ...string) []any {
		out, errs, code := wifodds(t, append([]string{"sweep", "../../examples/port-moresby-invasion.yaml", "--attack", "8..30", "--modifier", "-1..1", "-f", "json"}, args...)...)
		if code != 0 {
			t.Fatal(errs)
		}
		var v struct {
			CRTs  []string         `json:"crts"`
			Steps []map[string]any `json:"steps"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		var steps []any
		for _, st := range v.Steps {
			if st["crt"] == v.CRTs[len(v.CRTs)-1] {
				delete(st, "crt")
				steps = append(steps, st)
			}
		}
		return steps
	}
	a, b := sweep("--crt", "standard", "--cell", "assault/3:1/4:*/1", "--cell", "blitz/4:1/2:-/2S"), sweep("--crt", file)
	if len(a) == 0 || !closeNumbers(a, b) {
		t.Errorf("sweep --cell gives %.300v, the edited file %.300v", a, b)
	}
	_, errs, code = wifodds(t, "sweep", "../../examples/port-moresby-invasion.yaml", "--attack", "8..30", "--cell", "assault/3:1/4")
	if code == 0 || !strings.Contains(errs, "--cell: cell edit \"assault/3:1/4\": want TABLE/ODDS/ROLL:RESULT") {
		t.Errorf("sweep, a bad --cell: code %d, %s", code, errs)
	}
	_, errs, code = wifodds(t, "compare", "../../examples/port-moresby-invasion.yaml", "-v", "e=crt=standard,cell=assault/3:2/4:*/1")
	if code == 0 || !strings.Contains(errs, `no odds level "3:2"`) {
		t.Errorf("a bad cell: code %d, %s", code, errs)
	}
}

// metricsOf collects every variant's metrics named e from a battery's
// or a comparison's JSON, in order.
func metricsOf(t *testing.T, v any) []any {
	t.Helper()
	var out []any
	var walk func(x any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			if x["name"] == "e" && x["metrics"] != nil {
				out = append(out, x["metrics"])
			}
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	return out
}

// crt design answers in text and JSON, with the edits as a variant; a
// bad goal or none is a usage error.
func TestCRTDesignCommand(t *testing.T) {
	args := []string{"crt", "design", "standard", "--generate", "../../examples/wild-results-3to1.yaml", "--axis", "attack=8..20", "--axis", "terrain=clear,forest",
		"--goal", "hex_taken@3:1,clear>=0.8", "--goal", "att_losses_per_hex<=1.2", "--keep-monotone"}
	out, errs, code := wifodds(t, append(slices.Clone(args), "-f", "json")...)
	if code != 0 {
		t.Fatal(errs)
	}
	var d struct {
		Met   bool
		Edits []struct{ Cell, From, To string }
		Goals []struct {
			Goal          string
			Before, After float64
			Shortfall     float64
		}
		Search string
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if !d.Met || len(d.Edits) == 0 || len(d.Goals) != 2 || d.Goals[0].After < 0.8 || d.Goals[0].Before >= 0.8 {
		t.Fatalf("design: %+v", d)
	}
	text, errs, code := wifodds(t, args...)
	if code != 0 || !strings.Contains(text, "every goal is met with") || !strings.Contains(text, "as a variant: -v 'edited=crt=standard,cell=") {
		t.Fatalf("text: code %d, %s, %s", code, errs, text)
	}
	_, errs, code = wifodds(t, append(labArgs("design", "standard"), "--goal", "hex_taken@3:2>=0.5")...)
	if code == 0 || !strings.Contains(errs, `selector "3:2" is no odds level of table standard`) {
		t.Errorf("a bad goal: code %d, %s", code, errs)
	}
	_, errs, code = wifodds(t, labArgs("design", "standard")...)
	if code == 0 || !strings.Contains(errs, "give at least one --goal") {
		t.Errorf("no goal: code %d, %s", code, errs)
	}
}

// closeNumbers reports whether two decoded JSON values have the same
// shape and numbers within 1e-12.
func closeNumbers(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			if !closeNumbers(v, bm[k]) {
				return false
			}
		}
		return true
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !closeNumbers(a[i], bs[i]) {
				return false
			}
		}
		return true
	case float64:
		bf, ok := b.(float64)
		return ok && math.Abs(a-bf) <= 1e-12
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}
