package plan

import (
	"sync"
	"sync/atomic"
)

// The front's bound checks, on more than one worker, run in batches
// (docs/planner.md, "Pruning by a bound"). Checking an assignment against
// the bound is most of a large front's search, and what each check reads
// (the hexes' tables and the points known) changes only when a point
// offered improves the points known, which late in a search is rare. So
// the search collects a batch of assignments as the single-worker search
// would offer them, the workers check each against the points known when
// the batch began, and the batch is then replayed in order on one
// goroutine exactly as the single-worker search goes: each assignment
// found in the next layer or preferred there, its point added to the
// points known, and, while those are still the batch's first, the
// worker's verdict taken; once a point has changed them, each further
// assignment of the batch is checked again against them. Every decision
// is therefore the single-worker search's, whatever the workers and the
// batch's size (TestPrunedFrontWorkerInvariant, with small batches).

// boundBatchSize is how many assignments a batch holds; tests make it
// small so batches end mid-layer and the points known change within one.
var boundBatchSize = 4096

// boundBatch holds the assignments offered and not yet placed, and what
// the workers worked out of each.
type boundBatch struct {
	fs       *frontSearch
	checkers []*frontBound // one a worker but the placing one: the bound's tables, own scratch
	words    int
	width    int // an assignment's bytes
	keys     []uint64
	xs       []uint8
	bps      []float64
	parents  []int32
	pts      []boundPoint
	beaten   []bool
	children []int32
	errs     []error
	state    []atomic.Int32 // by run of checkRun assignments
	// The points known when the batch began, which the workers check
	// against.
	known, knownChance []bpoint
}

// newBoundBatch batches fs's bound checks over workers (at least two).
func newBoundBatch(fs *frontSearch, workers int) *boundBatch {
	fb := fs.bound
	b := &boundBatch{fs: fs, words: fs.l.words, width: len(fs.x)}
	for range workers - 1 {
		b.checkers = append(b.checkers, fb.checker())
	}
	return b
}

// checker is a copy of the bound sharing its tables, with its own
// scratch, for one worker's checks.
func (fb *frontBound) checker() *frontBound {
	nt, nc := len(fb.hexes), len(fb.fs.p.classes)
	c := &frontBound{pl: fb.pl, fs: fb.fs, hexes: fb.hexes, lossCost: fb.lossCost,
		values: fb.values, rest: fb.rest}
	if fb.obj != nil {
		o := *fb.obj
		o.dp = make([]float64, len(fb.obj.dp))
		c.obj = &o
	}
	c.scratch(nt, nc)
	return c
}

// len is the assignments waiting.
func (b *boundBatch) len() int { return len(b.bps) }

// add queues the assignment being grown, costing bp, from the current
// layer's state parent.
func (b *boundBatch) add(parent int, bp float64) {
	fs := b.fs
	b.keys = append(b.keys, fs.buf...)
	b.xs = append(b.xs, fs.x...)
	b.bps = append(b.bps, bp)
	b.parents = append(b.parents, int32(parent))
}

// flush places the waiting assignments in the next layer in order, as
// one worker offers them. The other workers check runs of them from the
// batch's end backwards against the points known at its start, while
// this goroutine places them from its start, checking itself each run no
// worker has taken, so it never waits on a worker the host holds back:
// they meet in the middle.
func (b *boundBatch) flush() error {
	n := b.len()
	if n == 0 {
		return nil
	}
	fs, fb := b.fs, b.fs.bound
	nt := len(fb.hexes)
	runs := (n + checkRun - 1) / checkRun
	b.pts = append(b.pts[:0], make([]boundPoint, n)...)
	b.beaten = append(b.beaten[:0], make([]bool, n)...)
	b.children = append(b.children[:0], make([]int32, n*nt)...)
	b.errs = append(b.errs[:0], make([]error, n)...)
	b.state = append(b.state[:0], make([]atomic.Int32, runs)...)
	// The workers' copy of the points known: this goroutine changes its
	// own as it places.
	b.known = append(b.known[:0], fb.known.pts...)
	b.knownChance = append(b.knownChance[:0], fb.knownChance.pts...)
	var wg sync.WaitGroup
	var back atomic.Int64
	back.Store(int64(runs))
	for _, ch := range b.checkers {
		wg.Go(func() { b.check(ch, &back) })
	}
	if batchWaits {
		wg.Wait()
	}
	changed := false
	for r := range runs {
		mine := b.state[r].CompareAndSwap(runFree, runMine)
		// A run a worker has taken and not finished is checked here too.
		if !mine && b.state[r].Load() != runDone {
			mine = true
		}
		for i := r * checkRun; i < min((r+1)*checkRun, n); i++ {
			key, x := b.keys[i*b.words:(i+1)*b.words], b.xs[i*b.width:(i+1)*b.width]
			next := fs.next
			j, slot := next.find(key)
			if j >= 0 {
				if fs.prefer(x, b.bps[i], next.bps[j], next.force(j)) {
					next.bps[j] = b.bps[i]
					copy(next.force(j), x)
				}
				continue
			}
			var beaten bool
			if mine || changed || b.errs[i] != nil {
				if !mine && b.errs[i] == nil {
					// The points known are no longer those checked
					// against.
					fb.rechecked++
				}
				fb.from(int(b.parents[i]))
				pt, err := fb.point(key, x, fs.layer)
				if err != nil {
					wg.Wait()
					return err
				}
				if fb.offerPoint(pt) {
					changed = true
				}
				beaten = fb.verdict(fs.layer)
			} else {
				if fb.offerPoint(b.pts[i]) {
					changed = true
				}
				beaten = b.beaten[i]
				if changed {
					fb.rechecked++
					fb.from(int(b.parents[i]))
					if _, err := fb.point(key, x, fs.layer); err != nil {
						wg.Wait()
						return err
					}
					beaten = fb.verdict(fs.layer)
				} else {
					copy(fb.child, b.children[i*nt:(i+1)*nt])
				}
			}
			if beaten {
				fb.pruned++
				continue
			}
			if next.len() >= fs.maxStates {
				wg.Wait()
				return errTooManyStates
			}
			grow(next, fs.maxStates)
			next.insert(slot, key, x, b.bps[i])
			fb.keep()
		}
	}
	// No worker writes into the batch once it is reused.
	wg.Wait()
	b.keys, b.xs, b.bps, b.parents = b.keys[:0], b.xs[:0], b.bps[:0], b.parents[:0]
	return nil
}

// A run's state: free, taken by a worker, checked by it, or taken by the
// goroutine placing the batch.
const (
	runFree int32 = iota
	runTaken
	runDone
	runMine
)

// batchWaits, set by tests, has the workers check every run before the
// batch is placed, so each placing reads a worker's check.
var batchWaits bool

// checkRun is how many waiting assignments a run holds.
var checkRun = 64

// check works out, on checker ch, the points and verdicts of the waiting
// assignments, taking runs from the end backwards until it meets one
// already taken.
func (b *boundBatch) check(ch *frontBound, back *atomic.Int64) {
	fs, fb := b.fs, b.fs.bound
	nt := len(fb.hexes)
	ch.known.pts, ch.knownChance.pts = b.known, b.knownChance
	for {
		r := int(back.Add(-1))
		if r < 0 || !b.state[r].CompareAndSwap(runFree, runTaken) {
			return
		}
		for i := r * checkRun; i < min((r+1)*checkRun, b.len()); i++ {
			p := int(b.parents[i])
			ch.parent = fb.cur[p*nt : (p+1)*nt]
			pt, err := ch.point(b.keys[i*b.words:(i+1)*b.words], b.xs[i*b.width:(i+1)*b.width], fs.layer)
			if err != nil {
				b.errs[i] = err
				continue
			}
			b.pts[i] = pt
			b.beaten[i] = ch.verdict(fs.layer)
			copy(b.children[i*nt:(i+1)*nt], ch.child)
		}
		b.state[r].Store(runDone)
	}
}
