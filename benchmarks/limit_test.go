package benchmarks

import (
	"math/bits"
	"testing"

	"github.com/wifodds/wifodds/sim"
)

// The tuple kernel counts what counting one index at a time counts: the
// top digits of word·m^t are the t indices that t multiplies by m give,
// so a reference drawing the same words and multiplying by m once a trial
// must reach the same histogram, on every table of at most 36 paths the
// workloads use and for chunk sizes that leave single indices over.
func TestTupleKernelCountsEachTrial(t *testing.T) {
	for _, name := range []string{"plain-2d6", "plain-standard", "invasion-port-moresby"} {
		c, err := Combat(name)
		if err != nil {
			t.Fatal(err)
		}
		f := c.Flat()
		if f == nil || f.Paths() > 36 {
			t.Fatalf("%s: want a flat table of at most 36 paths", name)
		}
		tt, err := newTupleTable(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{0, 1, 2*tt.perWord*tt.t - 1, 1000, sim.ChunkSize} {
			got := tt.counter()
			got.chunk(sim.NewPCG(7, uint64(size)), size)
			got.flush()
			var want [256]uint64
			g, m := sim.NewPCG(7, uint64(size)), tt.m
			per := tt.perWord * tt.t
			done := 0
			for ; done+2*per <= size; done += 2 * per {
				var a, b uint64
				g, a = accept(g, tt.span, tt.reject)
				g, b = accept(g, tt.span, tt.reject)
				for range per {
					var ia, ib uint64
					ia, a = bits.Mul64(a, m)
					ib, b = bits.Mul64(b, m)
					want[tt.out[ia]]++
					want[tt.out[ib]]++
				}
			}
			for ; done < size; done++ {
				var w uint64
				g, w = accept(g, m, -m%m)
				i, _ := bits.Mul64(w, m)
				want[tt.out[i]]++
			}
			if got.h != want {
				t.Errorf("%s, %d trials: tuple counts differ from one index at a time", name, size)
			}
			if n := sum(got.h[:]); n != uint64(size) {
				t.Errorf("%s: %d trials tallied of %d", name, n, size)
			}
		}
	}
}
