package sim

import (
	"math/bits"
	"math/rand/v2"
)

// MaxFlat is the largest dice space compiled to a flat outcome table.
const MaxFlat = 1 << 16

// flatTable is a combat's whole dice tree laid out as one array: when every
// path rolls the same dice in the same order (a static dice plan), path
// (r1, ..., rk) has index Σ (ri-1)·Π_{j>i} sides_j and outcome[index] is what
// Resolve returns on it. The table is built by running Resolve over every
// path, so sampling it is sampling Resolve: a uniform index is the same as
// independent uniform dice (PERFORMANCE.md: compile the combat to "which
// outcome" before the loop).
type flatTable struct {
	outcome []int32
	sides   []int // the dice plan, in the order rolled
	// per is how many indices one accepted 64-bit draw yields; reject is
	// 2^64 mod size^per, below which a draw is redrawn so the indices are
	// exactly uniform.
	per    int
	span   uint64 // size^per
	reject uint64
}

// buildFlat enumerates Resolve over c's dice tree and returns the flat
// table, or nil when the tree is too large or its dice plan is not static.
func buildFlat(c *Combat) *flatTable {
	e := &enumerator{}
	var plan []int
	var out []int32
	for {
		o := Resolve(c, e)
		if plan == nil {
			plan = make([]int, e.depth)
			size := 1
			for i, ch := range e.path[:e.depth] {
				plan[i] = ch.sides
				size *= ch.sides
				if size > MaxFlat {
					return nil
				}
			}
			out = make([]int32, 0, size)
		} else if !samePlan(plan, e.path[:e.depth]) {
			return nil
		}
		out = append(out, int32(o))
		if !e.next() {
			break
		}
	}
	f := &flatTable{outcome: out, sides: plan, per: 1, span: uint64(len(out))}
	// As many indices per draw as keep size^per within 2^48: one multiply
	// and compare per draw makes them exactly uniform, and the rejection
	// probability stays below 2^-16.
	for f.per < 16 && f.span*uint64(len(out)) <= 1<<48 {
		f.span *= uint64(len(out))
		f.per++
	}
	f.reject = -f.span % f.span
	return f
}

func samePlan(plan []int, path []choice) bool {
	if len(plan) != len(path) {
		return false
	}
	for i := range plan {
		if plan[i] != path[i].sides {
			return false
		}
	}
	return true
}

// index is the flat index of a roll sequence.
func (f *flatTable) index(rolls []int) int {
	i := 0
	for k, s := range f.sides {
		i = i*s + rolls[k] - 1
	}
	return i
}

// sample runs size trials, drawing uniform indices from pcg. The word and
// its count stay in local variables so they live in registers, and four
// interleaved histograms break the dependency on a hot counter
// (PERFORMANCE.md).
func (f *flatTable) sample(pcg *rand.PCG, h []uint64, size int) {
	n := len(h) / 4
	out := f.outcome
	m := uint64(len(out))
	var word uint64
	left := 0
	for j := 0; j < size; j++ {
		if left == 0 {
			for {
				word = pcg.Uint64()
				if _, lo := bits.Mul64(word, f.span); lo >= f.reject {
					break
				}
			}
			left = f.per
		}
		hi, lo := bits.Mul64(word, m)
		word = lo
		left--
		h[(j&3)*n+int(out[hi])]++
	}
}
