package sim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/wifodds/wifodds/stats"
)

// ChunkSize is the number of trials in a chunk. Chunk i of a run draws from
// the stream seeded with (seed, i), so the chunk size is part of what a seed
// means: changing it changes every result.
const ChunkSize = 1 << 16

// MaxTrials is the most trials one run may ask for; counters are uint64
// and far from overflowing there.
const MaxTrials = uint64(1) << 50

// Config says how to sample.
type Config struct {
	Trials    uint64  // trials to run; with Precision, the most to run (0: MaxTrials)
	Seed      uint64  // seed of the run
	Workers   int     // goroutines; <= 0 means one per CPU
	Precision float64 // > 0: stop once every headline 95% interval's half-width is below it
	// Progress, when set, is called after each chunk with the trials done so
	// far and the trials planned. It is called from worker goroutines.
	Progress func(done, planned uint64)
}

// Sampled is the tally of a Monte Carlo run.
type Sampled struct {
	Counts  []uint64 // trials per outcome
	Trials  uint64   // sum of Counts
	Chunks  uint64
	Workers int
	Partial bool // cancelled before the planned trials were run
}

// Sample runs Monte Carlo trials of c. The result depends only on the
// combat, Seed, Trials and Precision, never on Workers or scheduling: each
// chunk has its own stream and the merge is an integer sum. Cancelling ctx
// stops at the next chunk boundary and returns the chunks completed, marked
// Partial, with no error.
func Sample(ctx context.Context, c *Combat, cfg Config) (*Sampled, error) {
	if cfg.Trials > MaxTrials {
		return nil, fmt.Errorf("sim: %d trials is more than the limit of %d", cfg.Trials, MaxTrials)
	}
	if cfg.Precision < 0 || cfg.Precision >= 1 {
		return nil, errors.New("sim: precision must be between 0 and 1")
	}
	if cfg.Trials == 0 && cfg.Precision == 0 {
		return nil, errors.New("sim: trials must be positive")
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	total := cfg.Trials
	if total == 0 {
		total = MaxTrials
	}
	nChunks := (total + ChunkSize - 1) / ChunkSize
	res := &Sampled{Counts: make([]uint64, len(c.Outcomes)), Workers: workers}
	run := func(from, to uint64) bool {
		done := runChunks(ctx, c, cfg.Seed, from, to, total, workers, res, cfg.Progress, total)
		return done
	}
	if cfg.Precision == 0 {
		res.Partial = !run(0, nChunks)
		return res, nil
	}
	// Precision mode: rounds of whole chunks, doubling, checked at fixed
	// points so the stopping round depends only on the seed.
	to := min(uint64(16), nChunks)
	from := uint64(0)
	for {
		if !run(from, to) {
			res.Partial = true
			return res, nil
		}
		if HalfWidth(c, res.Counts, res.Trials) < cfg.Precision || to == nChunks {
			return res, nil
		}
		from, to = to, min(2*to, nChunks)
	}
}

// runChunks runs chunks [from, to) on workers goroutines and adds their
// counts to res. It reports false if ctx was cancelled first.
func runChunks(ctx context.Context, c *Combat, seed, from, to, total uint64, workers int, res *Sampled, progress func(uint64, uint64), planned uint64) bool {
	var next atomic.Uint64
	next.Store(from)
	var mu sync.Mutex
	var wg sync.WaitGroup
	done := atomic.Uint64{}
	done.Store(res.Trials)
	if planned > to*ChunkSize {
		planned = min(to*ChunkSize, total)
	}
	n := len(c.Outcomes)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Four interleaved histograms break the store-to-load
			// dependency on a hot counter (PERFORMANCE.md).
			h := make([]uint64, 4*n)
			var trials, chunks uint64
			d := NewStream(seed, 0)
			pcg := new(rand.PCG)
			for {
				i := next.Add(1) - 1
				if i >= to || ctx.Err() != nil {
					break
				}
				size := min(ChunkSize, total-i*ChunkSize)
				if c.flat != nil {
					seedChunk(pcg, seed, i)
					c.flat.sample(pcg, h, int(size))
				} else {
					d.Reset(seed, i)
					sampleChunk(c, d, h, int(size))
				}
				trials += size
				chunks++
				if progress != nil {
					progress(done.Add(size), planned)
				}
			}
			mu.Lock()
			for o := 0; o < n; o++ {
				res.Counts[o] += h[o] + h[n+o] + h[2*n+o] + h[3*n+o]
			}
			res.Trials += trials
			res.Chunks += chunks
			mu.Unlock()
		}()
	}
	wg.Wait()
	return ctx.Err() == nil || res.Chunks == to
}

// sampleChunk runs size trials of Resolve, for combats whose dice tree is
// too large or too irregular for a flat table.
func sampleChunk(c *Combat, d Stream, h []uint64, size int) {
	n := len(c.Outcomes)
	for j := 0; j < size; j++ {
		h[(j&3)*n+Resolve(c, d)]++
	}
}

// HalfWidth is the largest half-width of the 95% Wilson intervals of the
// headline probabilities (hex taken, breakthrough, attackers face-up and
// each CRT result) after trials trials.
func HalfWidth(c *Combat, counts []uint64, trials uint64) float64 {
	if trials == 0 {
		return 1
	}
	t := &stats.Tally{Counts: counts, N: trials}
	worst := 0.0
	check := func(e stats.Estimate) { worst = max(worst, e.HalfWidth()) }
	check(t.Event(func(i int) bool { return c.Outcomes[i].HexTaken }))
	check(t.Event(func(i int) bool { return c.Outcomes[i].Breakthrough }))
	check(t.Event(func(i int) bool { return c.Outcomes[i].AttackerFaceUp }))
	seen := map[string]bool{}
	for _, o := range c.Outcomes {
		r := o.Result.String()
		if seen[r] {
			continue
		}
		seen[r] = true
		check(t.Event(func(i int) bool { return c.Outcomes[i].Result.String() == r }))
	}
	return worst
}

// PerTrial returns a copy of c that Monte Carlo samples by calling Resolve
// for every trial, even when a flat table exists: for benchmarks and for
// checking the two sampling paths against each other.
func PerTrial(c *Combat) *Combat {
	d := *c
	d.flat = nil
	return &d
}
