package sim_test

import (
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/sim"
)

// The whole-engine benchmarks, with the limit kernel, are in ../benchmarks;
// these isolate the two sampling kernels.

func BenchmarkFlat(b *testing.B) {
	c := load(b, "../testdata/bench-plain-2d6.yaml")
	h := make([]uint64, 4*len(c.Outcomes))
	b.ResetTimer()
	sim.SampleFlat(c.Flat(), 1, 2, h, b.N)
}

func BenchmarkResolve(b *testing.B) {
	w := sim.NewChunkRunner(combat.PerTrial(load(b, "../testdata/bench-plain-2d6.yaml")))
	b.ResetTimer()
	w.Run(1, 0, b.N)
}
