package sim

import (
	"math/bits"
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
	// small is outcome a byte each, when every outcome fits one (nil
	// otherwise): a quarter of the cache. tuples, for tables of up to 64
	// paths, lists the outcomes of every tuple of indices read at once
	// (tuple of them, a byte each, the first lowest).
	small  []uint8
	tuples []uint32
	tuple  int
	sides  []int // the dice plan, in the order rolled
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
	// As many indices per draw as keep size^per within 2^56: one multiply
	// and compare per draw makes them exactly uniform, and the rejection
	// probability stays below 2^-8. (Up to this round the bound was 2^48:
	// large tables such as a strike combat's drew a third more words than
	// they need; docs/performance.md.)
	// Compare by division: span*size can wrap to 0 past 2^64 (at 2^8
	// paths, 2^56 * 2^8), which would make span 0 and the modulus below
	// divide by zero.
	for f.per < 16 && f.span <= (1<<56)/uint64(len(out)) {
		f.span *= uint64(len(out))
		f.per++
	}
	f.reject = -f.span % f.span
	f.reject1 = -uint64(len(out)) % uint64(len(out))
	f.packSmall()
	return f
}

// Paths is the number of equally likely dice paths the table lays out.
func (f *Flat) Paths() int { return len(f.outcome) }

// Dice is the dice plan: the sides of each die the longest path rolls, in
// order. Path i's rolls are the digits of i in that mixed radix.
func (f *Flat) Dice() []int { return f.sides }

// Outcome is the outcome of path i.
func (f *Flat) Outcome(i int) int { return int(f.outcome[i]) }

// sample runs size trials, drawing uniform indices from pcg: per indices
// from each accepted word, in order, the last word cut short. Only the
// histogram is kept, so the order in which a word's indices are counted is
// free, and the fast paths below count the same indices of the same words
// as one index at a time would (a test checks it on every table shape):
// a seeded run is the same to the bit whichever path counts it.
func (f *Flat) sample(p *pcg, h []uint64, size int) {
	words, rem := size/f.per, size%f.per
	if f.small == nil {
		f.sampleWide(p, h, words*f.per)
	} else {
		// Byte outcomes count into four histograms of 256, indexed by
		// the byte itself so no count is bounds-checked, then added in.
		var hist [4][256]uint64
		if f.tuple > 1 {
			f.sampleTuples(p, &hist, words)
		} else {
			f.sampleBytes(p, &hist, words)
		}
		// The model may list more outcomes than the table reaches.
		n := len(h) / 4
		for k := range hist {
			for o, c := range hist[k][:min(n, 256)] {
				h[k*n+o] += c
			}
		}
	}
	if rem > 0 {
		m := uint64(len(f.outcome))
		var word uint64
		*p, word = f.draw(*p)
		for range rem {
			hi, lo := bits.Mul64(word, m)
			word = lo
			h[int(f.outcome[hi])]++
		}
	}
}

// sampleWide counts trials (a whole number of words) one index at a time:
// the path for tables whose outcomes do not fit a byte. The word and its
// count stay in local variables so they live in registers, and four
// interleaved histograms break the dependency on a hot counter
// (docs/performance.md).
func (f *Flat) sampleWide(p *pcg, h []uint64, trials int) {
	g := *p
	n := len(h) / 4
	out := f.outcome
	m := uint64(len(out))
	var word uint64
	left := 0
	for j := 0; j < trials; j++ {
		if left == 0 {
			g, word = f.draw(g)
			left = f.per
		}
		hi, lo := bits.Mul64(word, m)
		word = lo
		left--
		h[(j&3)*n+int(out[hi])]++
	}
	*p = g
}

// sampleBytes counts words whole words of indices, two words in flight so
// the multiplies and table reads of one overlap the other's.
func (f *Flat) sampleBytes(p *pcg, hist *[4][256]uint64, words int) {
	g := *p
	out := f.small
	m := uint64(len(out))
	per := f.per
	var a, b uint64
	for ; words >= 2; words -= 2 {
		g, a = f.draw(g)
		g, b = f.draw(g)
		for k := 0; k < per; k++ {
			ha, la := bits.Mul64(a, m)
			hb, lb := bits.Mul64(b, m)
			a, b = la, lb
			hist[k&1][out[ha]]++
			hist[2+k&1][out[hb]]++
		}
	}
	if words == 1 {
		g, a = f.draw(g)
		for k := 0; k < per; k++ {
			ha, la := bits.Mul64(a, m)
			a = la
			hist[k&3][out[ha]]++
		}
	}
	*p = g
}

// sampleTuples counts whole words of indices from a small table, several
// indices per lookup: the top digits of word·m^t are t consecutive indices
// (the same ones t multiplies by m would give), and tuples[d] holds their
// outcomes a byte each. Two words are in flight; the indices a word has
// left past its last whole tuple are counted one at a time.
func (f *Flat) sampleTuples(p *pcg, hist *[4][256]uint64, words int) {
	g := *p
	tup := f.tuples
	small := f.small
	m, mt := uint64(len(small)), uint64(len(tup))
	t := f.tuple
	q, r := f.per/t, f.per%t
	count := func(x uint32) {
		hist[0][uint8(x)]++
		hist[1][uint8(x>>8)]++
		if t > 2 {
			hist[2][uint8(x>>16)]++
			if t > 3 {
				hist[3][uint8(x>>24)]++
			}
		}
	}
	var a, b uint64
	for ; words >= 2; words -= 2 {
		g, a = f.draw(g)
		g, b = f.draw(g)
		for range q {
			ha, la := bits.Mul64(a, mt)
			hb, lb := bits.Mul64(b, mt)
			a, b = la, lb
			count(tup[ha])
			count(tup[hb])
		}
		for k := 0; k < r; k++ {
			ha, la := bits.Mul64(a, m)
			hb, lb := bits.Mul64(b, m)
			a, b = la, lb
			hist[k&3][small[ha]]++
			hist[3-k&3][small[hb]]++
		}
	}
	if words == 1 {
		g, a = f.draw(g)
		for range q {
			ha, la := bits.Mul64(a, mt)
			a = la
			count(tup[ha])
		}
		for k := 0; k < r; k++ {
			ha, la := bits.Mul64(a, m)
			a = la
			hist[k&3][small[ha]]++
		}
	}
	*p = g
}

// draw returns a 64-bit word that yields f.per exactly uniform indices,
// and the generator past it: words whose word*span mod 2^64 falls below
// 2^64 mod span are redrawn.
func (f *Flat) draw(g pcg) (pcg, uint64) {
	for {
		var word uint64
		g, word = g.step()
		if _, lo := bits.Mul64(word, f.span); lo >= f.reject {
			return g, word
		}
	}
}

// fill draws len(out) uniform indices from pcg like sample, writing each
// trial's outcome instead of counting it.
func (f *Flat) fill(p *pcg, out []int32) {
	g := *p
	m := uint64(len(f.outcome))
	var word uint64
	left := 0
	for j := range out {
		if left == 0 {
			g, word = f.draw(g)
			left = f.per
		}
		hi, lo := bits.Mul64(word, m)
		word = lo
		left--
		out[j] = f.outcome[hi]
	}
	*p = g
}

// maxTuples bounds a tuple table: 4096 entries of four bytes stay in the
// first-level cache beside the histograms.
const maxTuples = 4096

// packSmall lays out the byte table and, for small tables, the tuple
// table: as many indices per lookup (up to four) as keep m^t within
// maxTuples and no more than a word yields.
func (f *Flat) packSmall() {
	for _, o := range f.outcome {
		if o < 0 || o > 255 {
			return
		}
	}
	m := len(f.outcome)
	f.small = make([]uint8, m)
	for i, o := range f.outcome {
		f.small[i] = uint8(o)
	}
	t, mt := 1, m
	for t < 4 && t < f.per && mt*m <= maxTuples {
		t, mt = t+1, mt*m
	}
	if t < 2 {
		return
	}
	f.tuple = t
	f.tuples = make([]uint32, mt)
	for d := range f.tuples {
		// d's base-m digits, most significant first, are the tuple's
		// indices in the order drawn; the first goes in the low byte.
		var x uint32
		rest := d
		for k := t - 1; k >= 0; k-- {
			x |= uint32(f.small[rest%m]) << (8 * k)
			rest /= m
		}
		f.tuples[d] = x
	}
}
