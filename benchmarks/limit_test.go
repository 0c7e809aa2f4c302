package benchmarks

import (
	"context"
	"encoding/json"
	"math/bits"
	"slices"
	"testing"

	"github.com/wifodds/wifodds/crt"
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

// The exact limit kernel does the engine's work: its summary of the plain
// example is the engine's, every figure to the bit (the JSON, with the
// run's time left out) and the results in the same order for reports.
func TestExactLimitGivesTheEnginesSummary(t *testing.T) {
	s, err := Scenario("plain-2d6")
	if err != nil {
		t.Fatal(err)
	}
	want, err := exactSummary(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := crt.Open(s.CRT, "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlainExact(s, tb)
	if err != nil {
		t.Fatal(err)
	}
	got := p.answer()
	got.Elapsed, want.Elapsed = 0, 0
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if string(gj) != string(wj) {
		t.Errorf("the limit kernel's summary\n%s\nthe engine's\n%s", gj, wj)
	}
	if !slices.Equal(got.ResultOrder, want.ResultOrder) {
		t.Errorf("result order %q, the engine's %q", got.ResultOrder, want.ResultOrder)
	}
	// It refuses what it does not know.
	s2, _ := Scenario("wild-fractional-2d6")
	if _, err := newPlainExact(s2, tb); err == nil {
		t.Error("the kernel took a combat with options")
	}
}
