package sim

import (
	"math/bits"
	"math/rand/v2"
)

// Factored is a dice tree too large for one flat table laid out in two
// levels (docs/performance.md): a flat table of the dice rolled before the
// model's last step, whose outcomes are branches, and a flat table per
// branch of the dice rolled after it, whose outcomes are the model's. A
// trial draws a branch, then an outcome of that branch: the same
// distribution as the whole tree, for a fraction of its size.
type Factored struct {
	counts []uint64 // by branch: how many sequences of the dice before the last step lead there
	post   []*Flat  // by branch: the last step's table; nil for a branch never reached
	// The branches are drawn from an exact integer alias table, small
	// enough to stay in cache where the pre table would not: slot i keeps
	// its branch for residues below keep[i] (of the pre table's size) and
	// gives alias[i] above.
	branch []int32
	keep   []uint64
	alias  []int32
	size   uint64 // the sequences of the dice before the last step
	span   uint64 // len(branch) * size: one draw is a slot and a residue
	reject uint64 // 2^64 mod span: a draw whose low product falls below it is redrawn
}

// NewFactored lays out a factored tree: counts[b] of the size equally
// likely sequences of the dice before the last step lead to branch b, and
// post[b] is the table of its last step. It returns nil when a reached
// branch has no table or the sizes are too large.
func NewFactored(counts []uint64, size uint64, post []*Flat) *Factored {
	var total uint64
	for b, c := range counts {
		if c > 0 && (b >= len(post) || post[b] == nil) {
			return nil
		}
		total += c
	}
	if total != size {
		return nil
	}
	f := &Factored{counts: counts, post: post}
	if !f.buildAlias(counts, size) {
		return nil
	}
	return f
}

// buildAlias lays out Vose's alias table in integers: with k branches of
// counts c summing to n, each slot holds mass n and branch b's slots and
// aliases hold exactly k*c[b], so a uniform slot and residue give branch b
// with probability c[b]/n exactly.
func (f *Factored) buildAlias(counts []uint64, n uint64) bool {
	for b, c := range counts {
		if c > 0 {
			f.branch = append(f.branch, int32(b))
		}
	}
	k := uint64(len(f.branch))
	if k == 0 || n > (1<<62)/k {
		return false
	}
	f.size, f.span = n, k*n
	f.reject = -f.span % f.span
	f.keep, f.alias = make([]uint64, k), make([]int32, k)
	mass := make([]uint64, k) // what each slot's branch still has to place, in units where a slot holds n
	var small, large []int
	for i, b := range f.branch {
		mass[i] = counts[b] * k
		if mass[i] < n {
			small = append(small, i)
		} else {
			large = append(large, i)
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		f.keep[s], f.alias[s] = mass[s], f.branch[l]
		mass[l] -= n - mass[s]
		if mass[l] < n {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	for _, i := range append(large, small...) {
		// Exactly n left: the slot keeps its branch throughout.
		f.keep[i], f.alias[i] = n, f.branch[i]
	}
	return true
}

// Alias describes the alias table, for checking its masses: each slot's
// branch, the residues it keeps, its alias, and the pre table's size.
func (f *Factored) Alias() (branch []int32, keep []uint64, alias []int32, size uint64) {
	return f.branch, f.keep, f.alias, f.size
}

// Branches is how many sequences of the dice before the last step lead to
// each branch, and how many there are: for checking a factored tree
// against its model.
func (f *Factored) Branches() (counts []uint64, size int) { return f.counts, int(f.size) }

// Post is the flat table of a branch's last step, or nil.
func (f *Factored) Post(branch int) *Flat { return f.post[branch] }

// FactoredModel is a Model whose tree, too large for one flat table, can
// be laid out in two levels; Monte Carlo samples it that way.
type FactoredModel interface {
	Model
	// Factored is the two-level layout, or nil when the model has none.
	Factored() *Factored
}

// sample runs size trials: a branch from the alias table (one word gives
// a slot and a residue, exactly uniform), then an outcome of the branch
// from one unbiased draw.
func (f *Factored) sample(pcg *rand.PCG, h []uint64, size int) {
	n := len(h) / 4
	k := uint64(len(f.branch))
	for j := 0; j < size; j++ {
		var word uint64
		for {
			word = pcg.Uint64()
			if _, lo := bits.Mul64(word, f.span); lo >= f.reject {
				break
			}
		}
		slot, lo := bits.Mul64(word, k)
		residue, _ := bits.Mul64(lo, f.size)
		b := f.branch[slot]
		if residue >= f.keep[slot] {
			b = f.alias[slot]
		}
		post := f.post[b]
		h[(j&3)*n+int(post.outcome[post.one(pcg)])]++
	}
}

// one draws one exactly uniform index into f.
func (f *Flat) one(pcg *rand.PCG) uint64 {
	m := uint64(len(f.outcome))
	if m == 1 {
		return 0
	}
	for {
		hi, lo := bits.Mul64(pcg.Uint64(), m)
		if lo >= f.reject1 {
			return hi
		}
	}
}
