package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An operation's text answer is short (issue 28 item 6: at most 25 lines),
// and its JSON has every combat's summary and the joint figures.
func TestRunOperationShort(t *testing.T) {
	for _, f := range []string{"../../examples/pocket-fixed.yaml", "../../examples/beachhead.yaml", "../../operation/testdata/chain.yaml"} {
		out, errs, code := wifodds(t, "run", f)
		if code != 0 {
			t.Fatalf("%s: %s", f, errs)
		}
		if n := strings.Count(out, "\n"); n > 25 {
			t.Errorf("%s: %d lines:\n%s", f, n, out)
		}
		out, errs, code = wifodds(t, "run", "-f", "json", f)
		if code != 0 {
			t.Fatalf("%s: %s", f, errs)
		}
		var r struct {
			Combats []struct {
				Summary struct {
					Probabilities struct {
						HexTaken struct{ P float64 } `json:"hex_taken"`
					} `json:"probabilities"`
				} `json:"summary"`
				POwn float64 `json:"p_taken_if_attacked"`
			} `json:"combats"`
			Joint struct {
				Exactly []float64 `json:"exactly"`
				All     float64   `json:"all"`
			} `json:"joint"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Combats) < 2 || len(r.Joint.Exactly) != len(r.Combats)+1 || r.Joint.All <= 0 {
			t.Fatalf("%s: %+v", f, r)
		}
		for _, c := range r.Combats {
			if c.POwn != c.Summary.Probabilities.HexTaken.P {
				t.Errorf("%s: own P %v, summary %v", f, c.POwn, c.Summary.Probabilities.HexTaken.P)
			}
		}
	}
}

// A bad operation names the file, line and key, exits 1 and writes no
// output file.
func TestRunOperationBadInput(t *testing.T) {
	src, err := os.ReadFile("../../examples/beachhead.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "cycle.yaml")
	text := strings.Replace(string(src), "  - id: Lae\n", "  - id: Lae\n    requires: [Salamanca]\n", 1)
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	outFile := filepath.Join(dir, "out.json")
	_, errs, code := wifodds(t, "run", "-o", outFile, bad)
	if code != 1 || !strings.Contains(errs, "cycle.yaml:") || !strings.Contains(errs, `targets[0].requires[0]: unknown target "Salamanca" (did you mean "Salamaua"?)`) {
		t.Errorf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(outFile); err == nil {
		t.Error("wrote an output file for a refused operation")
	}
}
