package combat_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fixture"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// A combat compiled ExactOnly (no flat table, as the planner compiles its
// thousands of forces) has the very same exact weights, bit for bit, as
// the one compiled with its table, for every example and benchmark-sized
// scenario; and sampling it still works.
func TestExactOnlyWeighsAsTheFlatTable(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.yaml")
	seen := 0
	for _, f := range files {
		s, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if s.Kind == scenario.Bombardment || s.IsPlan() {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			tb, err := crt.Open(s.CRT, filepath.Dir(f))
			if err != nil {
				t.Fatal(err)
			}
			air := fixture.Air(t, s)
			withTable, err := combat.CompileWith(s, tb, air, combat.Options{})
			if err != nil {
				t.Fatal(err)
			}
			only, err := combat.CompileWith(s, tb, air, combat.Options{ExactOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if withTable.Flat() == nil {
				t.Skip("no flat table to compare with")
			}
			if only.Flat() != nil {
				t.Fatal("ExactOnly built a flat table")
			}
			a, b := exact(t, withTable), exact(t, only)
			for i := range a.Weights {
				if math.Float64bits(a.Weights[i]) != math.Float64bits(b.Weights[i]) {
					t.Errorf("outcome %d: %v with the table, %v without", i, a.Weights[i], b.Weights[i])
				}
			}
			if _, run, err := sim.Sample(context.Background(), only, sim.Config{Trials: 1000, Seed: 1, Workers: 1}); err != nil || run.Trials != 1000 {
				t.Errorf("sampling an ExactOnly combat: %v, %d trials", err, run.Trials)
			}
		})
		seen++
	}
	if seen < 6 {
		t.Fatalf("only %d examples compared", seen)
	}
}
