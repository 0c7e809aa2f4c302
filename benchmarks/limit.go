package benchmarks

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/wifodds/wifodds/sim"
)

// pow6 is 6^10: ten d6, or five 2d6 pairs, per accepted 64-bit draw.
const pow6 = 60466176

var rejectBelow = func() uint64 { n := uint64(pow6); return -n % n }()

// limitTable is a 2D6 column padded so every modified roll reads a row
// without a clamp: index 2..12 plus an offset of 4.
var limitTable = func() []uint8 {
	t := make([]uint8, 32)
	for i := range t {
		t[i] = uint8(min(max(i-4, 0), 15))
	}
	return t
}()

// limitChunk is the floor kernel: a 2d6 roll as one base-36 digit of a
// shared word, a padded table lookup, and an increment of one of four
// interleaved histograms.
func limitChunk(pcg *rand.PCG, h *[4][16]uint64, size int) {
	var word uint64
	left := 0
	for j := 0; j < size; j++ {
		if left == 0 {
			for {
				word = pcg.Uint64()
				if _, lo := bits.Mul64(word, pow6); lo >= rejectBelow {
					break
				}
			}
			left = 5
		}
		hi, lo := bits.Mul64(word, 36)
		word = lo
		left--
		d := hi/6 + hi%6 + 2
		h[j&3][limitTable[d+4]]++
	}
}

// Limit runs trials of the floor kernel on workers goroutines in chunks of
// sim.ChunkSize, one generator and one histogram per worker, the way the
// engine runs a combat. It returns the histogram so the work is not dead.
func Limit(ctx context.Context, trials uint64, workers int) [16]uint64 {
	chunks := (trials + sim.ChunkSize - 1) / sim.ChunkSize
	var next atomic.Uint64
	var mu sync.Mutex
	var wg sync.WaitGroup
	var total [16]uint64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var h [4][16]uint64
			pcg := rand.NewPCG(0, 0)
			for {
				i := next.Add(1) - 1
				if i >= chunks || ctx.Err() != nil {
					break
				}
				pcg.Seed(1, i)
				limitChunk(pcg, &h, int(min(sim.ChunkSize, trials-i*sim.ChunkSize)))
			}
			mu.Lock()
			for k := range h {
				for v, c := range h[k] {
					total[v] += c
				}
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total
}
