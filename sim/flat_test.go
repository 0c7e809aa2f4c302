package sim

import (
	"math/rand/v2"
	"testing"
)

// coins is a model of k two-sided dice whose outcome is the number of
// heads: a table of 2^k paths.
type coins int

func (k coins) resolve(d Dice) int {
	n := 0
	for range int(k) {
		if d.Roll(2) == 2 {
			n++
		}
	}
	return n
}

// Flat tables of every power-of-two size up to MaxFlat build without
// overflow (2^16 paths once divided by zero), list Resolve's outcome on
// every path, and sample every outcome.
func TestFlatPowerOfTwoSizes(t *testing.T) {
	for k := 1; 1<<k <= MaxFlat; k++ {
		m := coins(k)
		f := BuildFlat(m.resolve)
		if f == nil {
			t.Fatalf("2^%d paths: no table", k)
		}
		if f.Paths() != 1<<k || f.span == 0 || f.per < 1 {
			t.Fatalf("2^%d paths: %d paths, span %d, %d per draw", k, f.Paths(), f.span, f.per)
		}
		if k <= 12 {
			e := &enumerator{}
			for i := 0; ; i++ {
				if got, want := f.Outcome(i), m.resolve(e); got != want {
					t.Fatalf("2^%d: path %d: table %d, resolve %d", k, i, got, want)
				}
				if !e.next() {
					break
				}
			}
		}
		h := make([]uint64, 4*(k+1))
		f.sample(rand.NewPCG(1, uint64(k)), h, 4096)
		total := uint64(0)
		for _, c := range h {
			total += c
		}
		if total != 4096 {
			t.Fatalf("2^%d: sampled %d trials, want 4096", k, total)
		}
	}
	if BuildFlat(coins(22).resolve) != nil {
		t.Error("a tree over MaxFlat was tabulated")
	}
}
