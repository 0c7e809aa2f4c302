package sim

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkFlat(b *testing.B) {
	c := load(b, "../testdata/bench-plain-2d6.yaml")
	h := make([]uint64, 4*len(c.Outcomes))
	b.ResetTimer()
	c.flat.sample(rand.NewPCG(1, 2), h, b.N)
}

// The whole-engine benchmarks, with the limit kernel, are in ../benchmarks;
// these isolate the two sampling kernels.

func BenchmarkResolve(b *testing.B) {
	c := load(b, "../testdata/bench-plain-2d6.yaml")
	w := &denseWorker{m: PerTrial(c), h: make([]uint64, 4*len(c.Outcomes)), d: NewStream(1, 0)}
	b.ResetTimer()
	w.run(1, 0, b.N)
}
