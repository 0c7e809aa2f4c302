package sim

import (
	"math/bits"
)

// Factored is a dice tree too large for one flat table laid out in two
// levels (docs/performance.md): a flat table of the dice rolled before the
// model's last step, whose outcomes are branches, and a flat table per
// branch of the dice rolled after it, whose outcomes are the model's. A
// trial draws a branch, then an outcome of that branch: the same
// distribution as the whole tree, for a fraction of its size.
type Factored struct {
	counts  []uint64 // by branch: how many sequences of the dice before the last step lead there
	preSize uint64   // how many sequences there are
	reduced []uint64 // by branch: counts over their greatest common divisor
	post    []*Flat  // by branch: the last step's table; nil for a branch never reached
	// The branches are drawn from an exact integer alias table, small
	// enough to stay in cache where the pre table would not: slot i keeps
	// its branch for residues below keep[i] (of the pre table's size) and
	// gives alias[i] above.
	// Its unit is size, the pre table's size divided by the greatest
	// common divisor of the counts, which keeps a draw's range small.
	branch []int32
	keep   []uint64
	alias  []int32
	size   uint64 // the alias table's unit: the pre table's size over the counts' gcd
	span   uint64 // len(branch) * size: one draw is a slot and a residue
	reject uint64 // 2^64 mod span: a draw whose low product falls below it is redrawn

	// The packed layout, when it fits (results is nil otherwise): every
	// branch's last-step table repeated to stride indices and laid end to
	// end in results. The branch comes from direct, one entry per residue
	// of the unit holding its branch's offset in results, when the unit is
	// small; otherwise from slots, the alias table with offsets. One word
	// then gives per trials, each a few multiplies and two reads.
	direct  []uint32
	slots   []factoredSlot
	results []uint16
	stride  uint64
	digits  uint64 // the range of one trial's draw: [slot,] residue and index
	per     int    // trials per word
	span1   uint64 // digits^per
	reject1 uint64 // 2^64 mod span1
}

// factoredSlot is one slot of the alias table in the packed layout:
// residues below keep read the results at own, the others at alias.
type factoredSlot struct {
	keep       uint64
	own, alias uint32
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
	f := &Factored{counts: counts, preSize: size, post: post}
	g := uint64(0)
	for _, c := range counts {
		g = gcd(g, c)
	}
	reduced := make([]uint64, len(counts))
	for b, c := range counts {
		reduced[b] = c / g
	}
	f.reduced = reduced
	if !f.buildAlias(reduced, size/g) {
		return nil
	}
	f.layOut()
	return f
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// maxPacked bounds the range one word of the packed layout covers: a
// word is then redrawn with probability below 2^-8.
const maxPacked = 1 << 56

// maxDirect is the largest unit the packed layout indexes directly rather
// than through the alias table: 256 KiB of offsets, in the second-level
// cache.
const maxDirect = 1 << 16

// layOut builds the packed layout when the last-step tables share a small
// common multiple of their sizes, their outcomes fit 16 bits and one
// trial's digits fit a word.
func (f *Factored) layOut() {
	stride := uint64(1)
	for _, b := range f.branch {
		m := uint64(f.post[b].Paths())
		if stride = stride / gcd(stride, m) * m; stride > 1<<16 {
			return
		}
	}
	digits := f.size * stride
	if f.size > maxDirect {
		digits *= uint64(len(f.branch))
	}
	if f.size > maxPacked/stride || digits > maxPacked {
		return
	}
	offset := make(map[int32]uint32, len(f.branch))
	var results []uint16
	for _, b := range f.branch {
		offset[b] = uint32(len(results))
		p := f.post[b]
		for i := range stride {
			o := p.outcome[i%uint64(p.Paths())]
			if o < 0 || o > 1<<16-1 {
				return
			}
			results = append(results, uint16(o))
		}
	}
	if f.size <= maxDirect {
		// Residue r of slot i stands for the same mass as slot i's kept
		// or aliased branch: lay out, in the alias table's own order, the
		// residues of the unit each branch owns: counts[b] of them.
		f.direct = make([]uint32, 0, f.size)
		for _, b := range f.branch {
			for range f.reduced[b] {
				f.direct = append(f.direct, offset[b])
			}
		}
	} else {
		f.slots = make([]factoredSlot, len(f.branch))
		for i, b := range f.branch {
			f.slots[i] = factoredSlot{keep: f.keep[i], own: offset[b], alias: offset[f.alias[i]]}
		}
	}
	f.results, f.stride, f.digits = results, stride, digits
	f.per, f.span1 = 1, digits
	for f.span1 <= maxPacked/digits {
		f.span1 *= digits
		f.per++
	}
	f.reject1 = -f.span1 % f.span1
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
// branch, the residues it keeps, its alias, and the unit of its residues
// (a divisor of the pre table's size).
func (f *Factored) Alias() (branch []int32, keep []uint64, alias []int32, size uint64) {
	return f.branch, f.keep, f.alias, f.size
}

// Branches is how many sequences of the dice before the last step lead to
// each branch, and how many there are: for checking a factored tree
// against its model.
func (f *Factored) Branches() (counts []uint64, size int) { return f.counts, int(f.preSize) }

// Post is the flat table of a branch's last step, or nil.
func (f *Factored) Post(branch int) *Flat { return f.post[branch] }

// FactoredModel is a Model whose tree, too large for one flat table, can
// be laid out in two levels; Monte Carlo samples it that way.
type FactoredModel interface {
	Model
	// Factored is the two-level layout, or nil when the model has none.
	Factored() *Factored
}

// sample runs size trials: a branch from the alias table, then an outcome
// of the branch, counted into four interleaved histograms. The trials are
// fill's, a block at a time, so Sample and SampleJoint see the same ones.
func (f *Factored) sample(p *pcg, h []uint64, size int) {
	n := len(h) / 4
	d := factoredDraw{g: *p}
	var buf [512]int32
	for done := 0; done < size; {
		m := min(len(buf), size-done)
		f.fill(&d, buf[:m])
		for j, o := range buf[:m] {
			h[(j&3)*n+int(o)]++
		}
		done += m
	}
	*p = d.g
}

// factoredDraw is where a run of fills stands in its stream: the
// generator, and in the packed layout the word being used and how many
// trials it has left.
type factoredDraw struct {
	g    pcg
	word uint64
	left int
}

// fill writes the outcomes of len(out) trials. In the packed layout one
// word gives per trials, each the mixed-radix digits of one exactly uniform
// number below digits: [a slot of the alias table,] a residue of the unit,
// and an index into the branch's results. Otherwise a word gives a slot
// and a residue and a second draw the branch's outcome.
func (f *Factored) fill(d *factoredDraw, out []int32) {
	g, word, left := d.g, d.word, d.left
	if f.results != nil {
		results, direct, slots := f.results, f.direct, f.slots
		k, unit, stride, digits := uint64(len(slots)), f.size, f.stride, f.digits
		for j := range out {
			if left == 0 {
				for {
					g, word = g.step()
					if _, lo := bits.Mul64(word, f.span1); lo >= f.reject1 {
						break
					}
				}
				left = f.per
			}
			left--
			var at uint32
			var lo uint64
			if direct != nil {
				var residue uint64
				residue, lo = bits.Mul64(word, unit)
				at = direct[residue]
			} else {
				var slot, residue uint64
				slot, lo = bits.Mul64(word, k)
				residue, lo = bits.Mul64(lo, unit)
				// Without a branch: which of the two a slot gives is a
				// coin toss the processor cannot predict. residue and keep
				// are below 2^62, so the difference's sign says which is
				// larger.
				s := &slots[slot]
				own := uint32(int64(residue-s.keep) >> 63) // all ones when residue < keep
				at = s.alias ^ (s.alias^s.own)&own
			}
			i, _ := bits.Mul64(lo, stride)
			out[j] = int32(results[uint64(at)+i])
			// The next trial's digits: this one's number taken off the word.
			_, word = bits.Mul64(word, digits)
		}
		d.g, d.word, d.left = g, word, left
		return
	}
	k := uint64(len(f.branch))
	for j := range out {
		for {
			g, word = g.step()
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
		var i uint64
		g, i = post.one(g)
		out[j] = post.outcome[i]
	}
	d.g = g
}

// one draws one exactly uniform index into f, and returns the generator
// past it.
func (f *Flat) one(g pcg) (pcg, uint64) {
	m := uint64(len(f.outcome))
	if m == 1 {
		return g, 0
	}
	for {
		var x uint64
		g, x = g.step()
		if hi, lo := bits.Mul64(x, m); lo >= f.reject1 {
			return g, hi
		}
	}
}
