package benchmarks

import (
	"context"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/sim"
)

// The limit kernels: for each sampling workload, the fastest exact method
// we know for the same work, free of the engine's obligations (a seed's
// stream, the Model interface, outcomes of any width, the pool's
// bookkeeping). A workload's ratio to its limit is how much of the
// machine's speed for that work the engine delivers (docs/performance.md).

// sink adds up the trials the kernels tally, so no work is optimised away
// and a test can check each kernel tallies every trial it is asked for.
var sink atomic.Uint64

// tallied is how many trials byte histograms hold.
func tallied(h [][256]uint64) uint64 {
	n := uint64(0)
	for k := range h {
		n += sum(h[k][:])
	}
	return n
}

func sum(h []uint64) uint64 {
	n := uint64(0)
	for _, c := range h {
		n += c
	}
	return n
}

// kernelRun runs trials in chunks of sim.ChunkSize on workers goroutines
// that claim chunks through an atomic counter, as the engine does; each
// worker gets its own chunk function from newWorker and a generator per
// chunk; a chunk function returns the trials it tallied.
func kernelRun(ctx context.Context, trials uint64, workers int, newWorker func() func(g sim.PCG, size int) uint64) {
	kernelRunFinished(ctx, trials, workers, func() (func(g sim.PCG, size int) uint64, func() uint64) {
		return newWorker(), func() uint64 { return 0 }
	})
}

// kernelRunFinished is kernelRun for a worker that keeps counts across
// its chunks: finish, called once the worker claims no more chunks,
// returns the trials it tallied that its chunks did not report.
func kernelRunFinished(ctx context.Context, trials uint64, workers int, newWorker func() (run func(g sim.PCG, size int) uint64, finish func() uint64)) {
	chunks := (trials + sim.ChunkSize - 1) / sim.ChunkSize
	var next atomic.Uint64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run, finish := newWorker()
			var keep uint64
			for {
				i := next.Add(1) - 1
				if i >= chunks || ctx.Err() != nil {
					break
				}
				keep += run(sim.NewPCG(1, i), int(min(sim.ChunkSize, trials-i*sim.ChunkSize)))
			}
			sink.Add(keep + finish())
		}()
	}
	wg.Wait()
}

// KernelFunc is a limit kernel: trials trials on workers goroutines.
type KernelFunc func(ctx context.Context, trials uint64, workers int) error

// fits is the largest power p with m^p within limit, and m^p.
func fits(m, limit uint64) (p int, span uint64) {
	p, span = 1, m
	for span <= limit/m {
		span *= m
		p++
	}
	return p, span
}

// accept draws until a word is exactly uniform over span (Lemire's
// rejection on the low product), and returns it.
func accept(g sim.PCG, span, reject uint64) (sim.PCG, uint64) {
	for {
		var w uint64
		g, w = g.Next()
		if _, lo := bits.Mul64(w, span); lo >= reject {
			return g, w
		}
	}
}

// flatLimit is the limit kernel of a flat table: the tuple kernel for
// tables of at most 36 paths, where counting tuples is faster than
// reading outcomes, the flat kernel otherwise.
func flatLimit(f *sim.Flat) (KernelFunc, error) {
	if p := f.Paths(); p >= 2 && p <= 36 {
		return tupleKernel(f)
	}
	return flatKernel(f)
}

// flatKernel samples a flat table's outcomes the fastest way we know: a
// byte per outcome; for tables of up to 64 paths, tuples of indices per
// lookup with a word holding whole tuples only; otherwise as many indices
// per word as keep its rejection below 2^-8, two words in flight.
func flatKernel(f *sim.Flat) (KernelFunc, error) {
	m := uint64(f.Paths())
	out := make([]uint8, m)
	for i := range out {
		o := f.Outcome(i)
		if o > 255 {
			return nil, fmt.Errorf("the flat kernel needs outcomes below 256, not %d", o)
		}
		out[i] = uint8(o)
	}
	t, mt := 1, m
	for t < 4 && mt*m <= 4096 {
		t, mt = t+1, mt*m
	}
	// Lookups per word: of tuples (each t indices) or of single indices.
	perWord, span := fits(mt, 1<<56)
	var lookup []uint32
	if t > 1 {
		lookup = make([]uint32, mt)
	}
	for d := range lookup {
		rest := uint64(d)
		for k := t - 1; k >= 0; k-- {
			lookup[d] |= uint32(out[rest%m]) << (8 * k)
			rest /= m
		}
	}
	reject := -span % span
	return func(ctx context.Context, trials uint64, workers int) error {
		kernelRun(ctx, trials, workers, func() func(g sim.PCG, size int) uint64 {
			return func(g sim.PCG, size int) uint64 {
				var h [4][256]uint64
				// add counts a tuple of t outcomes, a byte each, starting
				// at histogram k; called directly, so inlined.
				add := func(x uint32, k int) {
					h[k][uint8(x)]++
					if t > 1 {
						h[k^1][uint8(x>>8)]++
						if t > 2 {
							h[k^2][uint8(x>>16)]++
							if t > 3 {
								h[k^3][uint8(x>>24)]++
							}
						}
					}
				}
				per := perWord * t
				done := 0
				for ; done+2*per <= size; done += 2 * per {
					var a, b uint64
					g, a = accept(g, span, reject)
					g, b = accept(g, span, reject)
					for range perWord {
						ha, la := bits.Mul64(a, mt)
						hb, lb := bits.Mul64(b, mt)
						a, b = la, lb
						if t == 1 {
							// A large table: its bytes, a quarter the cache.
							h[0][out[ha]]++
							h[2][out[hb]]++
						} else {
							add(lookup[ha], 0)
							add(lookup[hb], 2)
						}
					}
				}
				for ; done < size; done++ {
					var w uint64
					g, w = accept(g, m, -m%m)
					hi, _ := bits.Mul64(w, m)
					h[0][out[hi]]++
				}
				return tallied(h[:])
			}
		})
		return nil
	}, nil
}

// perTrialKernel rolls a flat table's dice one at a time and reads the
// outcome of the path they name, the loop a per-trial resolution could be
// specialised to: d6 ten to a word, other dice one draw each, the dice
// and the path index in locals.
func perTrialKernel(f *sim.Flat) KernelFunc {
	dice := f.Dice()
	out := make([]int32, f.Paths())
	for i := range out {
		out[i] = int32(f.Outcome(i))
	}
	const pow6 = 60466176                      // 6^10
	var reject6 uint64 = (1<<64 - pow6) % pow6 // 2^64 mod 6^10
	n := 0
	for _, o := range out {
		n = max(n, int(o)+1)
	}
	return func(ctx context.Context, trials uint64, workers int) error {
		kernelRun(ctx, trials, workers, func() func(g sim.PCG, size int) uint64 {
			h := make([]uint64, 4*n)
			return func(g sim.PCG, size int) uint64 {
				clear(h)
				var word uint64
				left := 0
				for j := range size {
					idx := 0
					for _, s := range dice {
						var r uint64
						if s == 6 {
							if left == 0 {
								g, word = accept(g, pow6, reject6)
								left = 10
							}
							r, word = bits.Mul64(word, 6)
							left--
						} else {
							var w uint64
							g, w = accept(g, uint64(s), -uint64(s)%uint64(s))
							r, _ = bits.Mul64(w, uint64(s))
						}
						idx = idx*s + int(r)
					}
					h[(j&3)*n+int(out[idx])]++
				}
				return sum(h)
			}
		})
		return nil
	}
}

// factoredKernel samples a two-level tree from a direct table of its
// pre-combat states over the counts' reduced unit, several trials a word.
func factoredKernel(f *sim.Factored) (KernelFunc, error) {
	counts, size := f.Branches()
	g := uint64(0)
	for _, c := range counts {
		g = gcdU(g, c)
	}
	unit := uint64(size) / g
	if unit > 1<<20 {
		return nil, fmt.Errorf("the factored kernel reads its states directly: %d is too many", unit)
	}
	stride := uint64(1)
	for b, c := range counts {
		if c > 0 {
			m := uint64(f.Post(b).Paths())
			stride = stride / gcdU(stride, m) * m
		}
	}
	var results []uint8
	pre := make([]uint32, 0, unit)
	for b, c := range counts {
		if c == 0 {
			continue
		}
		at := uint32(len(results))
		p := f.Post(b)
		for i := range stride {
			o := p.Outcome(int(i % uint64(p.Paths())))
			if o > 255 {
				return nil, fmt.Errorf("the factored kernel needs outcomes below 256, not %d", o)
			}
			results = append(results, uint8(o))
		}
		for range c / g {
			pre = append(pre, at)
		}
	}
	digits := unit * stride
	per, span := fits(digits, 1<<56)
	reject := -span % span
	return func(ctx context.Context, trials uint64, workers int) error {
		kernelRun(ctx, trials, workers, func() func(g sim.PCG, size int) uint64 {
			return func(g sim.PCG, size int) uint64 {
				var h [4][256]uint64
				var word uint64
				left := 0
				for j := range size {
					if left == 0 {
						g, word = accept(g, span, reject)
						left = per
					}
					left--
					state, lo := bits.Mul64(word, unit)
					i, _ := bits.Mul64(lo, stride)
					h[j&3][results[uint64(pre[state])+i]]++
					_, word = bits.Mul64(word, digits)
				}
				return tallied(h[:])
			}
		})
		return nil
	}, nil
}

func gcdU(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// markovKernel flies a campaign over its Markov chain: a raid is one
// exactly uniform index into its state's table, and the totals are counted
// in an open-addressing table of packed keys rather than a map.
func markovKernel(chain []combat.ChainState, raids int) KernelFunc {
	type link struct {
		m, reject uint64
		out       []int32
		next      []int32
		add       []uint64
	}
	links := make([]link, len(chain))
	for s, cs := range chain {
		if cs.Flat == nil {
			continue
		}
		m := uint64(cs.Flat.Paths())
		l := link{m: m, reject: -m % m, next: cs.Next, add: cs.Add, out: make([]int32, m)}
		for i := range l.out {
			l.out[i] = int32(cs.Flat.Outcome(i))
		}
		links[s] = l
	}
	return func(ctx context.Context, trials uint64, workers int) error {
		kernelRun(ctx, trials, workers, func() func(g sim.PCG, size int) uint64 {
			c := &keyCounter{}
			c.grow(1 << 10)
			return func(g sim.PCG, size int) uint64 {
				for range size {
					var key uint64
					s := int32(0)
					for range raids {
						l := &links[s]
						if l.m == 0 {
							break
						}
						var w uint64
						g, w = accept(g, l.m, l.reject)
						i, _ := bits.Mul64(w, l.m)
						o := l.out[i]
						key += l.add[o]
						s = l.next[o]
					}
					c.add(key)
				}
				n := c.total
				c.total = 0
				return n
			}
		})
		return nil
	}
}

// keyCounter counts uint64 keys in an open-addressing table with linear
// probing; key+1 is stored so 0 marks an empty slot.
type keyCounter struct {
	keys, counts []uint64
	used         int
	total        uint64 // keys added since last read
}

func (c *keyCounter) grow(n int) {
	keys, counts := c.keys, c.counts
	c.keys, c.counts, c.used = make([]uint64, n), make([]uint64, n), 0
	for i, k := range keys {
		if k != 0 {
			c.insert(k, counts[i])
		}
	}
}

func (c *keyCounter) insert(stored, n uint64) {
	mask := uint64(len(c.keys) - 1)
	for i := (stored * 0x9e3779b97f4a7c15) >> 32 & mask; ; i = (i + 1) & mask {
		switch c.keys[i] {
		case stored:
			c.counts[i] += n
			return
		case 0:
			c.keys[i], c.counts[i] = stored, n
			c.used++
			return
		}
	}
}

func (c *keyCounter) add(key uint64) {
	if 2*(c.used+1) > len(c.keys) {
		c.grow(2 * len(c.keys))
	}
	c.insert(key+1, 1)
	c.total++
}

// maxTupleBins is the most bins of tupleKernel's histogram: 36^3, three
// trials of a 2d6 table or six of a d6 table an index.
const maxTupleBins = 36 * 36 * 36

// tupleKernel samples a small flat table (at most 36 paths) by counting
// tuples: t trials are one exactly uniform index below m^t, m the table's
// paths, counted in a single histogram of m^t bins; each worker turns its
// histogram into outcomes once, when it has no more chunks. The base-m
// digits of a uniform index below m^t are t independent uniform indices,
// so the counts are those of counting each trial, and the hot loop is a
// multiply and an increment a tuple, with no table read.
func tupleKernel(f *sim.Flat) (KernelFunc, error) {
	tt, err := newTupleTable(f)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, trials uint64, workers int) error {
		kernelRunFinished(ctx, trials, workers, func() (func(g sim.PCG, size int) uint64, func() uint64) {
			c := tt.counter()
			return func(g sim.PCG, size int) uint64 {
					c.chunk(g, size)
					return 0
				}, func() uint64 {
					c.flush()
					return sum(c.h[:])
				}
		})
		return nil
	}, nil
}

// tupleTable is a small flat table laid out for tupleKernel: t trials an
// index below mt = m^t, perWord indices a word of span mt^perWord.
type tupleTable struct {
	out                 []uint8
	m, mt, span, reject uint64
	t, perWord          int
}

func newTupleTable(f *sim.Flat) (*tupleTable, error) {
	m := uint64(f.Paths())
	if m < 2 || m > 36 {
		return nil, fmt.Errorf("the tuple kernel is for tables of 2 to 36 paths, not %d", m)
	}
	tt := &tupleTable{out: make([]uint8, m), m: m, t: 1, mt: m}
	for i := range tt.out {
		o := f.Outcome(i)
		if o > 255 {
			return nil, fmt.Errorf("the tuple kernel needs outcomes below 256, not %d", o)
		}
		tt.out[i] = uint8(o)
	}
	for tt.mt*m <= maxTupleBins {
		tt.t, tt.mt = tt.t+1, tt.mt*m
	}
	tt.perWord, tt.span = fits(tt.mt, 1<<56)
	tt.reject = -tt.span % tt.span
	return tt, nil
}

// tupleCounter is one worker's counts: tuples in bins, outcomes in h.
type tupleCounter struct {
	*tupleTable
	bins    []uint32
	h       [256]uint64
	counted uint64 // tuples in bins since they were last turned into outcomes
}

func (tt *tupleTable) counter() *tupleCounter {
	return &tupleCounter{tupleTable: tt, bins: make([]uint32, tt.mt)}
}

// flush turns the tuples counted into outcomes: each bin's count goes to
// the index of each of its t digits, read off an odometer rather than by
// division (this runs once a worker and a run, over every bin), then each
// index's count to its outcome.
func (c *tupleCounter) flush() {
	var perIndex [36]uint64
	var digits [16]int // the bin's base-m digits, most significant first (m >= 2, so t < 16)
	m := int(c.m)
	for _, n := range c.bins {
		if n != 0 {
			for _, d := range digits[:c.t] {
				perIndex[d] += uint64(n)
			}
		}
		for k := c.t - 1; k >= 0; k-- {
			if digits[k]++; digits[k] < m {
				break
			}
			digits[k] = 0
		}
	}
	for i, n := range perIndex[:m] {
		c.h[c.out[i]] += n
	}
	clear(c.bins)
	c.counted = 0
}

// chunk counts size trials drawn from g: whole words of tuples, two in
// flight, then single indices.
func (c *tupleCounter) chunk(g sim.PCG, size int) {
	if c.counted+uint64(size) >= 1<<32 {
		c.flush() // no bin can pass 2^32-1
	}
	bins, mt, span, reject, perWord := c.bins, c.mt, c.span, c.reject, c.perWord
	per := perWord * c.t
	done := 0
	for ; done+2*per <= size; done += 2 * per {
		var a, b uint64
		g, a = accept(g, span, reject)
		g, b = accept(g, span, reject)
		for range perWord {
			ha, la := bits.Mul64(a, mt)
			hb, lb := bits.Mul64(b, mt)
			a, b = la, lb
			bins[ha]++
			bins[hb]++
		}
	}
	c.counted += uint64(done / c.t)
	m := c.m
	for ; done < size; done++ {
		var w uint64
		g, w = accept(g, m, -m%m)
		hi, _ := bits.Mul64(w, m)
		c.h[c.out[hi]]++
	}
}
