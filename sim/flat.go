package sim

import (
	"math/bits"
	"math/rand/v2"
)

// MaxFlat is the largest dice space compiled to a flat outcome table.
const MaxFlat = 1 << 21

// Flat is a whole dice tree laid out as one array. The dice plan is
// the sequence of dice the longest path rolls; every path must roll a
// prefix of it (a combat rolls the same dice every time; a raid stops early
// when nothing is left to bomb). Index Σ (ri-1)·Π_{j>i} sides_j stands for
// the rolls (r1, ..., rk) and outcome[index] is what the resolution routine
// returns when fed them in order, ignoring the rolls it does not need. A
// uniform index is therefore the same as independent uniform dice, so
// sampling the table is sampling the routine (docs/performance.md: compile the
// combat to "which outcome" before the loop).
type Flat struct {
	outcome []int32
	sides   []int // the dice plan, in the order rolled
	// per is how many indices one accepted 64-bit draw yields; reject is
	// 2^64 mod size^per, below which a draw is redrawn so the indices are
	// exactly uniform.
	per    int
	span   uint64 // size^per
	reject uint64
	// reject1 is 2^64 mod size: a single draw below it is redrawn.
	reject1 uint64
}

// BuildFlat lays out the dice tree of resolve, or returns nil when it is
// larger than MaxFlat or its paths are not prefixes of one plan. It runs
// resolve once per path of the tree: each path's outcome fills the block of
// indices that share its rolls (a path that stops early stands for every
// roll of the dice it did not need).
func BuildFlat(resolve func(d Dice) int) *Flat {
	e := &enumerator{}
	var plan []int
	// The enumerator runs paths in index order (an odometer whose last die
	// turns fastest), so each path's block follows the one before: a
	// path's length and outcome are all the table needs.
	type pathEnd struct{ depth, outcome int32 }
	ends := make([]pathEnd, 0, 1024)
	size := 1
	for {
		o := resolve(e)
		path := e.path[:e.depth]
		for i, ch := range path {
			if i < len(plan) {
				if plan[i] != ch.sides {
					return nil
				}
				continue
			}
			plan = append(plan, ch.sides)
			if size *= ch.sides; size > MaxFlat {
				return nil
			}
		}
		ends = append(ends, pathEnd{int32(len(path)), int32(o)})
		if !e.next() {
			break
		}
	}
	// stride[k] is how many indices share the first k rolls.
	stride := make([]int, len(plan)+1)
	stride[len(plan)] = 1
	for k := len(plan) - 1; k >= 0; k-- {
		stride[k] = stride[k+1] * plan[k]
	}
	out := make([]int32, 0, size)
	for _, p := range ends {
		for range stride[p.depth] {
			out = append(out, p.outcome)
		}
	}
	f := &Flat{outcome: out, sides: plan, per: 1, span: uint64(len(out))}
	// As many indices per draw as keep size^per within 2^48: one multiply
	// and compare per draw makes them exactly uniform, and the rejection
	// probability stays below 2^-16.
	// Compare by division: span*size can wrap to 0 past 2^64 (at 2^16
	// paths, 2^48 * 2^16), which made span 0 and the modulus below divide
	// by zero.
	for f.per < 16 && f.span <= (1<<48)/uint64(len(out)) {
		f.span *= uint64(len(out))
		f.per++
	}
	f.reject = -f.span % f.span
	f.reject1 = -uint64(len(out)) % uint64(len(out))
	return f
}

// Paths is the number of equally likely dice paths the table lays out.
func (f *Flat) Paths() int { return len(f.outcome) }

// Outcome is the outcome of path i.
func (f *Flat) Outcome(i int) int { return int(f.outcome[i]) }

// sample runs size trials, drawing uniform indices from pcg. The word and
// its count stay in local variables so they live in registers, and four
// interleaved histograms break the dependency on a hot counter
// (docs/performance.md).
func (f *Flat) sample(pcg *rand.PCG, h []uint64, size int) {
	n := len(h) / 4
	out := f.outcome
	m := uint64(len(out))
	var word uint64
	left := 0
	for j := 0; j < size; j++ {
		if left == 0 {
			word, left = f.draw(pcg), f.per
		}
		hi, lo := bits.Mul64(word, m)
		word = lo
		left--
		h[(j&3)*n+int(out[hi])]++
	}
}

// draw returns a 64-bit word that yields f.per exactly uniform indices:
// words whose word*span mod 2^64 falls below 2^64 mod span are redrawn.
func (f *Flat) draw(pcg *rand.PCG) uint64 {
	for {
		word := pcg.Uint64()
		if _, lo := bits.Mul64(word, f.span); lo >= f.reject {
			return word
		}
	}
}

// fill draws len(out) uniform indices from pcg like sample, writing each
// trial's outcome instead of counting it.
func (f *Flat) fill(pcg *rand.PCG, out []int32) {
	m := uint64(len(f.outcome))
	var word uint64
	left := 0
	for j := range out {
		if left == 0 {
			word, left = f.draw(pcg), f.per
		}
		hi, lo := bits.Mul64(word, m)
		word = lo
		left--
		out[j] = f.outcome[hi]
	}
}
