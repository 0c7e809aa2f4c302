package sim

import (
	"fmt"
	"math/bits"
)

// Dice is the source of every roll resolution makes.
type Dice interface {
	// Roll returns a roll of a fair die with sides faces: 1..sides.
	Roll(sides int) int
}

// pow6 is 6^10: ten d6 come from one 64-bit draw.
const pow6 = 60466176

// rejectBelow is 2^64 mod 6^10: a draw x whose x·6^10 mod 2^64 falls below
// it is redrawn, which makes the ten dice exactly uniform (Lemire's method
// on the range 6^10; docs/performance.md).
var rejectBelow = func() uint64 { n := uint64(pow6); return -n % n }()

// Stream is the fast random Dice of the Monte Carlo engine. It takes ten d6
// from each 64-bit draw of a PCG generator. A Stream is a small value that
// refers to its state, so generic code instantiated with it calls Roll
// directly; copies share the state. It belongs to one goroutine at a time.
type Stream struct{ s *streamState }

type streamState struct {
	word uint64 // remaining dice, as a fraction of 2^64
	left int    // d6 left in word
	pcg  pcg
}

// NewStream returns a Stream for chunk of the run seeded with seed.
func NewStream(seed, chunk uint64) Stream {
	d := Stream{&streamState{}}
	d.Reset(seed, chunk)
	return d
}

// Reset reseeds the stream for chunk of the run seeded with seed. Streams
// for different chunks are independent, which is what makes a run's result
// independent of how chunks are spread over workers.
func (d Stream) Reset(seed, chunk uint64) {
	seedChunk(&d.s.pcg, seed, chunk)
	d.s.word, d.s.left = 0, 0
}

// seedChunk seeds pcg for chunk of the run seeded with seed.
func seedChunk(pcg *pcg, seed, chunk uint64) {
	a := splitmix(seed ^ 0x5eed5eed5eed5eed)
	pcg.Seed(a, splitmix(a^splitmix(chunk+1)))
}

// Roll returns a fair roll of 1..sides.
func (d Stream) Roll(sides int) int {
	s := d.s
	if sides == 6 && s.left > 0 {
		hi, lo := bits.Mul64(s.word, 6)
		s.word = lo
		s.left--
		return int(hi) + 1
	}
	return s.roll(sides)
}

func (s *streamState) roll(sides int) int {
	if sides == 6 {
		for {
			x := s.pcg.Uint64()
			if _, lo := bits.Mul64(x, pow6); lo >= rejectBelow {
				s.word, s.left = x, 10
				break
			}
		}
		hi, lo := bits.Mul64(s.word, 6)
		s.word = lo
		s.left--
		return int(hi) + 1
	}
	// Other dice (the d10 of fractional odds) are rare: one unbiased draw each.
	n := uint64(sides)
	thresh := -n % n
	for {
		hi, lo := bits.Mul64(s.pcg.Uint64(), n)
		if lo >= thresh {
			return int(hi) + 1
		}
	}
}

// IndependentSeed derives from seed the seed of the k-th of several runs
// whose streams must not share random numbers (k > 0).
func IndependentSeed(seed, k uint64) uint64 { return splitmix(seed ^ k*0x9e3779b97f4a7c15) }

// splitmix is SplitMix64's finaliser: it spreads nearby seeds apart.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Forced gives the listed rolls in order, then rolls of Then. A listed roll
// outside the die asked for is recorded in Err and replaced by the die's
// highest face, so resolution can finish and the caller report the error.
type Forced struct {
	Rolls []int
	Then  Dice
	Used  int   // how many listed rolls were consumed
	Drawn int   // how many rolls came from Then
	Err   error // the first out-of-range listed roll
	Bad   int   // its index in Rolls
}

// Roll returns the next listed roll, or one from Then.
func (f *Forced) Roll(sides int) int {
	if f.Used < len(f.Rolls) {
		v := f.Rolls[f.Used]
		f.Used++
		if v < 1 || v > sides {
			if f.Err == nil {
				f.Err = fmt.Errorf("dice[%d]: %d is not a roll of the d%d the rules roll there", f.Used-1, v, sides)
				f.Bad = f.Used - 1
			}
			return sides
		}
		return v
	}
	f.Drawn++
	return f.Then.Roll(sides)
}

// enumerator walks a dice tree depth first: each run of the resolution
// routine follows one path, and next moves to the following one.
type enumerator struct {
	path  []choice
	depth int
}

type choice struct{ value, sides int }

func (e *enumerator) Roll(sides int) int {
	if e.depth < len(e.path) {
		c := e.path[e.depth]
		e.depth++
		return c.value
	}
	e.path = append(e.path, choice{1, sides})
	e.depth++
	return 1
}

// weight is the probability of the path just run.
func (e *enumerator) weight() float64 {
	w := 1.0
	for _, c := range e.path[:e.depth] {
		w /= float64(c.sides)
	}
	return w
}

// next moves to the next path; false when every path has been run.
func (e *enumerator) next() bool {
	e.path = e.path[:e.depth]
	e.depth = 0
	for len(e.path) > 0 {
		last := &e.path[len(e.path)-1]
		if last.value < last.sides {
			last.value++
			return true
		}
		e.path = e.path[:len(e.path)-1]
	}
	return false
}
