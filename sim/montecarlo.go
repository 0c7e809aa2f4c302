package sim

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wifodds/wifodds/stats"
)

// ChunkSize is the number of trials in a chunk. Chunk i of a run draws from
// the stream seeded with (seed, i), so the chunk size is part of what a seed
// means: changing it changes every result.
const ChunkSize = 1 << 16

// MaxTrials is the most trials one run may ask for; counters are uint64
// and far from overflowing there.
const MaxTrials = uint64(1) << 50

// MaxWorkers is the most workers a run may ask for.
const MaxWorkers = 1024

// MaxElapsed bounds the seconds a run's record may claim (about 31
// years): a merged part claiming more was not written by a shard.
const MaxElapsed = 1e9

// Config says how to sample.
type Config struct {
	Trials    uint64  // trials to run; with Precision, the most to run (0: MaxTrials)
	Seed      uint64  // seed of the run
	Workers   int     // goroutines; <= 0 means one per CPU
	Precision float64 // > 0: stop once HalfWidth of the tally so far is below it
	// HalfWidth is the largest 95% half-width of the headline
	// probabilities of a tally; the caller, who knows what the outcomes
	// mean, gives it with Precision.
	HalfWidth func(t *stats.Tally) float64
	// Progress, when set, is called after each chunk with the trials done so
	// far and the trials planned. It is called from worker goroutines.
	Progress func(done, planned uint64)
	// Shard runs only part of the run: the chunks whose index is
	// Shard.Index-1 modulo Shard.Count. Chunk k's stream depends only on
	// (Seed, k), so the shards' tallies sum to the whole run's. The zero
	// Shard is the whole run.
	Shard Shard
}

// Shard is one of Count disjoint slices of a run's chunks, Index from 1.
type Shard struct{ Index, Count uint64 }

// whole reports whether the shard is the whole run.
func (s Shard) whole() bool { return s.Count <= 1 }

// Sample runs Monte Carlo trials of m and returns their tally and the run
// record. The result depends only on the model, Seed, Trials and
// Precision, never on Workers or scheduling: each chunk has its own stream
// and the merge is an integer sum. Cancelling ctx stops at the next chunk
// boundary and returns the chunks completed, marked Partial, with no error.
func Sample(ctx context.Context, m Model, cfg Config) (*stats.Tally, Run, error) {
	start := time.Now()
	p, err := newPool(cfg)
	if err != nil {
		return nil, Run{}, err
	}
	n := m.NumOutcomes()
	counts := make([]uint64, n)
	var mu sync.Mutex
	newWorker := func() chunkWorker {
		return &denseWorker{m: m, h: make([]uint64, 4*n), d: NewStream(0, 0), pcg: new(pcg), merge: func(h []uint64) {
			mu.Lock()
			defer mu.Unlock()
			for o := 0; o < n; o++ {
				counts[o] += h[o] + h[n+o] + h[2*n+o] + h[3*n+o]
			}
		}}
	}
	halfWidth := func() float64 {
		if p.trials == 0 {
			return 1
		}
		return cfg.HalfWidth(&stats.Tally{Counts: counts, N: p.trials})
	}
	partial := !p.rounds(ctx, newWorker, func() bool { return halfWidth() < cfg.Precision })
	run := p.record(cfg, partial, start)
	if cfg.Precision > 0 {
		hw := halfWidth()
		run.Precision = &Precision{Target: cfg.Precision, Reached: hw < cfg.Precision, Achieved: hw}
	}
	return &stats.Tally{Counts: counts, N: p.trials}, run, nil
}

// record is the run record of a pool's run.
func (p *pool) record(cfg Config, partial bool, start time.Time) Run {
	seed := cfg.Seed
	return Run{Method: MethodMonteCarlo, Trials: p.trials, Seed: &seed, Workers: p.workers, Chunk: ChunkSize,
		Partial: partial, Elapsed: time.Since(start).Seconds()}
}

// denseWorker tallies outcome indices into four interleaved histograms,
// which break the store-to-load dependency on a hot counter
// (docs/performance.md).
type denseWorker struct {
	m     Model
	h     []uint64
	d     Stream
	pcg   *pcg
	block []int32 // a Batcher's outcomes, a block at a time
	merge func([]uint64)
}

func (w *denseWorker) run(seed, chunk uint64, size int) {
	if f := w.m.Flat(); f != nil {
		seedChunk(w.pcg, seed, chunk)
		f.sample(w.pcg, w.h, size)
		return
	}
	if fm, ok := w.m.(FactoredModel); ok {
		if f := fm.Factored(); f != nil {
			seedChunk(w.pcg, seed, chunk)
			f.sample(w.pcg, w.h, size)
			return
		}
	}
	w.d.Reset(seed, chunk)
	n := len(w.h) / 4
	if b, ok := w.m.(Batcher); ok {
		// A block of trials a call: one dispatch per block, not per trial.
		if w.block == nil {
			w.block = make([]int32, trialBlock)
		}
		for j := 0; j < size; j += trialBlock {
			block := w.block[:min(trialBlock, size-j)]
			b.Trials(w.d, block)
			for k, o := range block {
				w.h[(k&3)*n+int(o)]++
			}
		}
		return
	}
	for j := 0; j < size; j++ {
		w.h[(j&3)*n+w.m.Trial(w.d)]++
	}
}

// Batcher is a Model that runs trials a block at a time: Trials fills out
// with the outcomes of len(out) trials on d, what as many calls of Trial
// would return, in order. The engine uses it when a model has no table.
type Batcher interface {
	Model
	Trials(d Stream, out []int32)
}

// trialBlock is how many trials a Batcher runs a call.
const trialBlock = 256

func (w *denseWorker) done() { w.merge(w.h) }

// SampleKeys runs Monte Carlo trials that each return an outcome key, for
// models whose outcomes are too many to list in advance (a campaign of
// raids). newTrial is called once per worker, so a trial may keep scratch
// state. The tally is exact and as deterministic as Sample's: per-worker
// maps merged by summing.
func SampleKeys(ctx context.Context, newTrial func() func(d Stream) uint64, cfg Config) (map[uint64]uint64, Run, error) {
	if cfg.Precision != 0 {
		return nil, Run{}, errors.New("sim: precision is not supported for this kind of run; give a number of trials")
	}
	p, err := newPool(cfg)
	if err != nil {
		return nil, Run{}, err
	}
	start := time.Now()
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
	partial := !p.rounds(ctx, newWorker, nil)
	return total, p.record(cfg, partial, start), nil
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
	if cfg.Precision > 0 && cfg.HalfWidth == nil {
		return nil, errors.New("sim: a precision target needs a HalfWidth")
	}
	if cfg.Trials == 0 && cfg.Precision == 0 {
		return nil, errors.New("sim: trials must be positive")
	}
	if !cfg.Shard.whole() && (cfg.Shard.Index < 1 || cfg.Shard.Index > cfg.Shard.Count) {
		return nil, fmt.Errorf("sim: shard %d of %d", cfg.Shard.Index, cfg.Shard.Count)
	}
	if !cfg.Shard.whole() && cfg.Precision > 0 {
		return nil, errors.New("sim: a precision target decides when a whole run stops; it cannot be sharded")
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
	if sh := p.cfg.Shard; !sh.whole() {
		// Local chunk i is the run's chunk Index-1 + i*Count.
		mine := uint64(0)
		if sh.Index-1 < nChunks {
			mine = (nChunks - (sh.Index - 1) + sh.Count - 1) / sh.Count
		}
		return p.run(ctx, 0, mine, newWorker)
	}
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

// chunk is the run's index of the shard's i-th chunk.
func (p *pool) chunk(i uint64) uint64 {
	if sh := p.cfg.Shard; !sh.whole() {
		return sh.Index - 1 + i*sh.Count
	}
	return i
}

// size is the trials of the run's chunk k: ChunkSize, or what is left.
func (p *pool) size(k uint64) uint64 { return min(ChunkSize, p.total-k*ChunkSize) }

// run runs the shard's chunks [from, to).
func (p *pool) run(ctx context.Context, from, to uint64, newWorker func() chunkWorker) bool {
	var next atomic.Uint64
	next.Store(from)
	var done atomic.Uint64
	done.Store(p.trials)
	planned := min(to*ChunkSize, p.total)
	if !p.cfg.Shard.whole() {
		planned = 0
		for i := from; i < to; i++ {
			planned += p.size(p.chunk(i))
		}
	}
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
				k := p.chunk(i)
				size := p.size(k)
				wk.run(p.cfg.Seed, k, int(size))
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
