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
	checkers []*frontBound // one a worker: the bound's tables, own scratch
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
}

// newBoundBatch batches fs's bound checks over workers (at least two).
func newBoundBatch(fs *frontSearch, workers int) *boundBatch {
	fb := fs.bound
	b := &boundBatch{fs: fs, words: fs.l.words, width: len(fs.x)}
	for range workers {
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

// flush checks the waiting assignments on the workers and places them in
// the next layer in order.
func (b *boundBatch) flush() error {
	n := b.len()
	if n == 0 {
		return nil
	}
	fs, fb := b.fs, b.fs.bound
	nt := len(fb.hexes)
	b.pts = append(b.pts[:0], make([]boundPoint, n)...)
	b.beaten = append(b.beaten[:0], make([]bool, n)...)
	b.children = append(b.children[:0], make([]int32, n*nt)...)
	b.errs = append(b.errs[:0], make([]error, n)...)
	var wg sync.WaitGroup
	var claimed atomic.Int64
	for _, ch := range b.checkers[1:] {
		wg.Go(func() { b.check(ch, &claimed) })
	}
	b.check(b.checkers[0], &claimed)
	wg.Wait()
	// Placed in order, as one worker offers them.
	changed := false
	for i := range n {
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
		if b.errs[i] != nil {
			return b.errs[i]
		}
		if fb.offerPoint(b.pts[i]) {
			changed = true
		}
		beaten := b.beaten[i]
		if changed {
			// The points known are no longer those checked against.
			fb.rechecked++
			fb.from(int(b.parents[i]))
			if _, err := fb.point(key, x, fs.layer); err != nil {
				return err
			}
			beaten = fb.verdict(fs.layer)
		} else {
			copy(fb.child, b.children[i*nt:(i+1)*nt])
		}
		if beaten {
			fb.pruned++
			continue
		}
		if next.len() >= fs.maxStates {
			return errTooManyStates
		}
		grow(next, fs.maxStates)
		next.insert(slot, key, x, b.bps[i])
		fb.kept()
	}
	b.keys, b.xs, b.bps, b.parents = b.keys[:0], b.xs[:0], b.bps[:0], b.parents[:0]
	return nil
}

// checkRun is how many waiting assignments a checker claims at once: few
// enough that a worker the host holds back leaves little for the others
// to wait on.
const checkRun = 64

// check works out, on checker ch, the points and verdicts of the waiting
// assignments, claiming runs of them from next: which checker takes
// which changes nothing worked out.
func (b *boundBatch) check(ch *frontBound, next *atomic.Int64) {
	fs, fb := b.fs, b.fs.bound
	nt := len(fb.hexes)
	ch.known, ch.knownChance = fb.known, fb.knownChance
	for {
		lo := int(next.Add(checkRun)) - checkRun
		if lo >= b.len() {
			return
		}
		for i := lo; i < min(lo+checkRun, b.len()); i++ {
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
	}
}
