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
	// Precision is what a run with a precision target achieved; nil
	// without one.
	Precision *Precision
}

// Precision reports a precision target: whether the largest headline 95%
// half-width fell below it within the trials allowed, and what it was.
type Precision struct {
	Target   float64 `json:"target"`
	Reached  bool    `json:"reached"`
	Achieved float64 `json:"achieved"`
}

// Model is a compiled scenario Sample can run: a combat, an invasion or a
// raid. Its trials return dense outcome indices.
type Model interface {
	numOutcomes() int
	flatTable() *flatTable
	trial(d Stream) int
	// halfWidth is the largest 95% half-width of the model's headline
	// probabilities, for --precision.
	halfWidth(counts []uint64, trials uint64) float64
}

// Sample runs Monte Carlo trials of m. The result depends only on the
// model, Seed, Trials and Precision, never on Workers or scheduling: each
// chunk has its own stream and the merge is an integer sum. Cancelling ctx
// stops at the next chunk boundary and returns the chunks completed, marked
// Partial, with no error.
func Sample(ctx context.Context, m Model, cfg Config) (*Sampled, error) {
	p, err := newPool(cfg)
	if err != nil {
		return nil, err
	}
	n := m.numOutcomes()
	res := &Sampled{Counts: make([]uint64, n), Workers: p.workers}
	var mu sync.Mutex
	newWorker := func() chunkWorker {
		return &denseWorker{m: m, h: make([]uint64, 4*n), d: NewStream(0, 0), pcg: new(rand.PCG), merge: func(h []uint64) {
			mu.Lock()
			defer mu.Unlock()
			for o := 0; o < n; o++ {
				res.Counts[o] += h[o] + h[n+o] + h[2*n+o] + h[3*n+o]
			}
		}}
	}
	res.Partial = !p.rounds(ctx, newWorker, func() bool { return m.halfWidth(res.Counts, p.trials) < cfg.Precision })
	res.Trials, res.Chunks = p.trials, p.chunks
	if cfg.Precision > 0 {
		hw := m.halfWidth(res.Counts, res.Trials)
		res.Precision = &Precision{Target: cfg.Precision, Reached: hw < cfg.Precision, Achieved: hw}
	}
	return res, nil
}

// denseWorker tallies outcome indices into four interleaved histograms,
// which break the store-to-load dependency on a hot counter
// (docs/performance.md).
type denseWorker struct {
	m     Model
	h     []uint64
	d     Stream
	pcg   *rand.PCG
	merge func([]uint64)
}

func (w *denseWorker) run(seed, chunk uint64, size int) {
	if f := w.m.flatTable(); f != nil {
		seedChunk(w.pcg, seed, chunk)
		f.sample(w.pcg, w.h, size)
		return
	}
	w.d.Reset(seed, chunk)
	n := len(w.h) / 4
	for j := 0; j < size; j++ {
		w.h[(j&3)*n+w.m.trial(w.d)]++
	}
}

func (w *denseWorker) done() { w.merge(w.h) }

// SampleKeys runs Monte Carlo trials that each return an outcome key, for
// models whose outcomes are too many to list in advance (a campaign of
// raids). newTrial is called once per worker, so a trial may keep scratch
// state. The tally is exact and as deterministic as Sample's: per-worker
// maps merged by summing.
func SampleKeys(ctx context.Context, newTrial func() func(d Stream) uint64, cfg Config) (map[uint64]uint64, *Sampled, error) {
	if cfg.Precision != 0 {
		return nil, nil, errors.New("sim: precision is not supported for this kind of run; give a number of trials")
	}
	p, err := newPool(cfg)
	if err != nil {
		return nil, nil, err
	}
	total := map[uint64]uint64{}
	var mu sync.Mutex
	newWorker := func() chunkWorker {
		return &keyWorker{trial: newTrial(), counts: map[uint64]uint64{}, d: NewStream(0, 0), merge: func(c map[uint64]uint64) {
			mu.Lock()
			defer mu.Unlock()
			for k, v := range c {
				total[k] += v
			}
		}}
	}
	res := &Sampled{Workers: p.workers}
	res.Partial = !p.rounds(ctx, newWorker, nil)
	res.Trials, res.Chunks = p.trials, p.chunks
	return total, res, nil
}

type keyWorker struct {
	trial  func(d Stream) uint64
	counts map[uint64]uint64
	d      Stream
	merge  func(map[uint64]uint64)
}

func (w *keyWorker) run(seed, chunk uint64, size int) {
	w.d.Reset(seed, chunk)
	for j := 0; j < size; j++ {
		w.counts[w.trial(w.d)]++
	}
}

func (w *keyWorker) done() { w.merge(w.counts) }

// chunkWorker runs chunks on one goroutine; done hands over its tally.
type chunkWorker interface {
	run(seed, chunk uint64, size int)
	done()
}

// pool runs chunks of a run on worker goroutines that claim chunk indices
// through an atomic counter.
type pool struct {
	cfg     Config
	workers int
	total   uint64 // trials planned (the cap with Precision)
	chunks  uint64 // chunks completed
	trials  uint64 // trials completed
}

func newPool(cfg Config) (*pool, error) {
	if cfg.Trials > MaxTrials {
		return nil, fmt.Errorf("sim: %d trials is more than the limit of %d", cfg.Trials, MaxTrials)
	}
	if cfg.Precision < 0 || cfg.Precision >= 1 {
		return nil, errors.New("sim: precision must be between 0 and 1")
	}
	if cfg.Trials == 0 && cfg.Precision == 0 {
		return nil, errors.New("sim: trials must be positive")
	}
	p := &pool{cfg: cfg, workers: cfg.Workers, total: cfg.Trials}
	if p.workers <= 0 {
		p.workers = runtime.NumCPU()
	}
	if p.total == 0 {
		p.total = MaxTrials
	}
	return p, nil
}

// rounds runs every chunk, or with Precision rounds of whole chunks,
// doubling, until converged reports true; the checks fall at fixed points
// so where a run stops depends only on the seed. It reports false when ctx
// was cancelled first.
func (p *pool) rounds(ctx context.Context, newWorker func() chunkWorker, converged func() bool) bool {
	nChunks := (p.total + ChunkSize - 1) / ChunkSize
	if p.cfg.Precision == 0 {
		return p.run(ctx, 0, nChunks, newWorker)
	}
	from, to := uint64(0), min(uint64(16), nChunks)
	for {
		if !p.run(ctx, from, to, newWorker) {
			return false
		}
		if converged() || to == nChunks {
			return true
		}
		from, to = to, min(2*to, nChunks)
	}
}

// run runs chunks [from, to).
func (p *pool) run(ctx context.Context, from, to uint64, newWorker func() chunkWorker) bool {
	var next atomic.Uint64
	next.Store(from)
	var done atomic.Uint64
	done.Store(p.trials)
	planned := min(to*ChunkSize, p.total)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < p.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk := newWorker()
			var trials, chunks uint64
			for {
				i := next.Add(1) - 1
				if i >= to || ctx.Err() != nil {
					break
				}
				size := min(ChunkSize, p.total-i*ChunkSize)
				wk.run(p.cfg.Seed, i, int(size))
				trials += size
				chunks++
				if p.cfg.Progress != nil {
					p.cfg.Progress(done.Add(size), planned)
				}
			}
			wk.done()
			mu.Lock()
			p.trials += trials
			p.chunks += chunks
			mu.Unlock()
		}()
	}
	wg.Wait()
	return ctx.Err() == nil || p.chunks == to
}

func (c *Combat) numOutcomes() int      { return len(c.Outcomes) }
func (c *Combat) flatTable() *flatTable { return c.flat }
func (c *Combat) trial(d Stream) int    { return Resolve(c, d) }

func (c *Combat) halfWidth(counts []uint64, trials uint64) float64 {
	return HalfWidth(c, counts, trials)
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
