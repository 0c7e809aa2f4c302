package sim

import (
	"math/rand/v2"
	"testing"
)

// pcg is math/rand/v2's PCG output for output, so seeded runs did not
// change when the engine took its own copy of the generator.
func TestPCGIsRandPCG(t *testing.T) {
	for _, seed := range [][2]uint64{{0, 0}, {1, 2}, {^uint64(0), 12345}, {0x5eed, 1 << 63}} {
		want := rand.NewPCG(seed[0], seed[1])
		var got pcg
		got.Seed(seed[0], seed[1])
		g := got
		e := NewPCG(seed[0], seed[1])
		for i := range 10000 {
			w := want.Uint64()
			if x := got.Uint64(); x != w {
				t.Fatalf("seed %v, draw %d: %#x, want %#x", seed, i, x, w)
			}
			var x uint64
			if g, x = g.step(); x != w {
				t.Fatalf("seed %v, draw %d by value: %#x, want %#x", seed, i, x, w)
			}
			if e, x = e.Next(); x != w {
				t.Fatalf("seed %v, draw %d exported: %#x, want %#x", seed, i, x, w)
			}
		}
	}
}
