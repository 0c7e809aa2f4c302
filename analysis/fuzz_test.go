package analysis

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// Any scenario the loader accepts compiles, resolves and summarises
// without panicking, and its exact distribution sums to 1.
func FuzzScenarioToSummary(f *testing.F) {
	files, _ := filepath.Glob("../examples/*.yaml")
	more, _ := filepath.Glob("../combat/testdata/*.yaml")
	for _, p := range append(files, more...) {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := scenario.Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		var tally *stats.Tally
		if s.Kind == scenario.Bombardment {
			if s.Raid.AirTables != "strategic" {
				return
			}
			tb, _ := crt.BuiltinAir("strategic")
			r, err := combat.CompileRaid(s, tb)
			if err != nil {
				return
			}
			var run sim.Run
			if tally, run, err = sim.Exact(context.Background(), r, 0, nil); err != nil {
				t.Fatal(err)
			}
			SummarizeRaid(r, tally, run)
		} else {
			if s.CRT != "standard" && s.CRT != "2d6" {
				return
			}
			tb, _ := crt.Builtin(s.CRT)
			c, err := combat.Compile(s, tb, nil)
			if err != nil {
				return
			}
			var run sim.Run
			if tally, run, err = sim.Exact(context.Background(), c, 1<<16, nil); err != nil {
				return
			}
			Summarize(c, tally, run)
		}
		total := 0.0
		for _, x := range tally.Weights {
			total += x
		}
		if math.Abs(total-1) > 1e-9 {
			t.Fatalf("distribution sums to %v", total)
		}
	})
}
