package sim

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/stats"
)

// Any scenario the loader accepts compiles, resolves and summarises
// without panicking, and its exact distribution sums to 1.
func FuzzScenarioToSummary(f *testing.F) {
	files, _ := filepath.Glob("../examples/*.yaml")
	more, _ := filepath.Glob("testdata/*.yaml")
	for _, p := range append(files, more...) {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := scenario.Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		var w []float64
		if s.Kind == scenario.Bombardment {
			if s.Raid.AirTables != "strategic" {
				return
			}
			tb, _ := crt.BuiltinAir("strategic")
			r, err := CompileRaid(s, tb)
			if err != nil {
				return
			}
			w = ExactRaid(r)
			SummarizeRaid(r, &stats.Tally{Weights: w})
		} else {
			if s.CRT != "standard" && s.CRT != "2d6" {
				return
			}
			tb, _ := crt.Builtin(s.CRT)
			c, err := Compile(s, tb)
			if err != nil {
				return
			}
			if w, _, err = Exact(context.Background(), c, 1<<16, nil); err != nil {
				return
			}
			Summarize(c, &stats.Tally{Weights: w})
		}
		total := 0.0
		for _, x := range w {
			total += x
		}
		if math.Abs(total-1) > 1e-9 {
			t.Fatalf("distribution sums to %v", total)
		}
	})
}
