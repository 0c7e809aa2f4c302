package sim_test

import (
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/sim"
)

// The hot loops do not allocate: flat tables (tuples and bytes),
// per-trial resolution, pre-combat steps, raids and two-level tables.
// AllocsPerRun's warm-up run builds the lazy tables.
func TestHotLoopsDoNotAllocate(t *testing.T) {
	var models []sim.Model
	names := []string{}
	for _, path := range []string{"../testdata/bench-plain-2d6.yaml", "../combat/testdata/wild-2d6-fractional.yaml"} {
		c := load(t, path)
		models = append(models, c, combat.PerTrial(c))
		names = append(names, path, path+" per trial")
	}
	models = append(models, combat.PerTrial(load(t, "../examples/artillery-support.yaml")), loadRaid(t, "../examples/dusseldorf-bombardment.yaml"),
		load(t, "../examples/artillery-support.yaml"), load(t, "../benchmarks/scenarios/strikes-3.yaml"))
	names = append(names, "pre-combat steps", "raid", "a byte table", "two levels (factored)")
	for i, m := range models {
		w := sim.NewChunkRunner(m)
		if n := testing.AllocsPerRun(5, func() { w.Run(1, 0, 4096) }); n != 0 {
			t.Errorf("%s: %v allocations per chunk", names[i], n)
		}
	}
}
