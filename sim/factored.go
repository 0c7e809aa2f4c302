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
	pre  *Flat
	post []*Flat // by branch; nil for a branch the pre table never gives
}

// NewFactored lays out a factored tree from its tables, or returns nil
// when the pre table is missing (too large).
func NewFactored(pre *Flat, post []*Flat) *Factored {
	if pre == nil {
		return nil
	}
	for _, b := range pre.outcome {
		if int(b) >= len(post) || post[b] == nil {
			return nil
		}
	}
	return &Factored{pre: pre, post: post}
}

// Branches is how many pre-table indices lead to each branch, and the
// pre table's size: for checking a factored tree against its model.
func (f *Factored) Branches() (counts []uint64, size int) {
	counts = make([]uint64, len(f.post))
	for _, b := range f.pre.outcome {
		counts[b]++
	}
	return counts, len(f.pre.outcome)
}

// Post is the flat table of a branch's last step, or nil.
func (f *Factored) Post(branch int) *Flat { return f.post[branch] }

// FactoredModel is a Model whose tree, too large for one flat table, can
// be laid out in two levels; Monte Carlo samples it that way.
type FactoredModel interface {
	Model
	// Factored is the two-level layout, or nil when the model has none.
	Factored() *Factored
}

// sample runs size trials: a branch index from the pre table, drawn
// several to a word as Flat.sample does, then an outcome of the branch
// from one unbiased draw.
func (f *Factored) sample(pcg *rand.PCG, h []uint64, size int) {
	n := len(h) / 4
	pre := f.pre
	m := uint64(len(pre.outcome))
	var word uint64
	left := 0
	for j := 0; j < size; j++ {
		if left == 0 {
			word, left = pre.draw(pcg), pre.per
		}
		hi, lo := bits.Mul64(word, m)
		word = lo
		left--
		post := f.post[pre.outcome[hi]]
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
