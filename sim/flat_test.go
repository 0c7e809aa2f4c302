package sim

import (
	"math/bits"
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
		f.sample(&pcg{1, uint64(k)}, h, 4096)
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

// referenceSample is the one-index-at-a-time sampler the fast paths of
// Flat.sample must agree with to the count: per indices from each accepted
// word, in order, the last word cut short.
func referenceSample(f *Flat, p *pcg, h []uint64, size int) {
	m := uint64(len(f.outcome))
	var word uint64
	left := 0
	for range size {
		if left == 0 {
			var g pcg
			g, word = f.draw(*p)
			*p, left = g, f.per
		}
		hi, lo := bits.Mul64(word, m)
		word = lo
		left--
		h[int(f.outcome[hi])]++
	}
}

// faces is a model of one die of n sides whose outcome is its roll mod
// outcomes: a table of n paths and a given number of outcomes.
type faces struct{ n, outcomes int }

func (m faces) resolve(d Dice) int { return (d.Roll(m.n) - 1) % m.outcomes }

// Every table shape (tuples of 2, 3 and 4, byte tables, wide outcomes)
// counts exactly the indices the reference sampler counts, for chunk
// sizes that cut the last word anywhere, so seeded runs are unchanged.
func TestFlatSampleMatchesReference(t *testing.T) {
	var shapes []faces
	for _, n := range []int{1, 2, 3, 5, 6, 7, 8, 9, 16, 17, 36, 63, 64, 65, 216, 1296, 7776, 100000} {
		shapes = append(shapes, faces{n, min(n, 7)}, faces{n, min(n, 256)})
	}
	shapes = append(shapes, faces{300, 300}, faces{1000, 257})
	for _, m := range shapes {
		f := BuildFlat(m.resolve)
		if f == nil {
			t.Fatalf("%+v: no table", m)
		}
		if (f.small != nil) != (m.outcomes <= 256) {
			t.Errorf("%+v: byte table %v", m, f.small != nil)
		}
		for _, size := range []int{0, 1, 2, 3, f.per - 1, f.per, f.per + 1, 2*f.per + 1, 3 * f.per, 1000, 4099} {
			if size < 0 {
				continue
			}
			// A model may list more outcomes than its table reaches.
			n := m.outcomes + size%300
			got := make([]uint64, 4*n)
			f.sample(&pcg{7, uint64(size)}, got, size)
			want := make([]uint64, n)
			referenceSample(f, &pcg{7, uint64(size)}, want, size)
			for o := range want {
				if sum := got[o] + got[n+o] + got[2*n+o] + got[3*n+o]; sum != want[o] {
					t.Fatalf("%+v (tuple %d, %d per word), %d trials: outcome %d counted %d, reference %d", m, f.tuple, f.per, size, o, sum, want[o])
				}
			}
		}
	}
}
