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

// stopper rolls a d6; on a 1 it stops, otherwise it rolls a d2 and, on a 2,
// a d3: paths of one, two and three dice under the plan d6, d2, d3.
func stopper(d Dice) int {
	a := d.Roll(6)
	if a == 1 {
		return 100
	}
	b := d.Roll(2)
	if b == 1 {
		return 10 * a
	}
	return 10*a + d.Roll(3)
}

// fixedDice answers rolls from a list, as a flat index spells them.
type fixedDice struct {
	rolls []int
	pos   int
}

func (d *fixedDice) Roll(int) int {
	v := d.rolls[d.pos]
	d.pos++
	return v
}

// A path that stops early stands for every roll of the dice it did not
// need: each index of the table, read as rolls with the first die most
// significant, holds what Resolve gives on those rolls.
func TestFlatEarlyStops(t *testing.T) {
	f := BuildFlat(stopper)
	if f == nil || f.Paths() != 36 {
		t.Fatalf("table %v, want 36 paths", f)
	}
	for i := range f.Paths() {
		d := &fixedDice{rolls: []int{i/6 + 1, i/3%2 + 1, i%3 + 1}}
		if got, want := f.Outcome(i), stopper(d); got != want {
			t.Errorf("index %d (rolls %v): table %d, resolve %d", i, d.rolls, got, want)
		}
	}
}
