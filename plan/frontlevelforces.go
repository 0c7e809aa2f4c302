package plan

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// The forces of deciding hexes' frontier (frontlevels.go). The front
// search reports at each
// frontier point, among the assignments of the point's cost and value,
// the one losing the fewest expected factors (within costTol), then
// sending the fewest items, then the first in the walk's order (its
// counts, target-major, read lexicographically): docs/planner.md, "The
// cost of a force" and "A search over the front's states". At a point of
// cost C and value V no assignment is cheaper for V or worth more for C,
// so these are the assignments of cost at most C reaching the levels of
// a combination worth V. For each such combination (its lower bound at
// most C) the branch and bound lists them (levelSearch with tie set:
// pruned at C) and weighs each one's
// tie-break, its expected factors lost read from its hexes' final states
// with their smallest factors.
//
// Most combinations are joined instead (frontjoin.go); this search takes
// those with cost to spare, and every combination of a front the join
// does not fit. Listing them all is too many on a large front (ties are
// many: units of the same factors change places), so the search also
// tracks each hex's
// full state (its combat, smallest factors and whether it sends anything:
// the one-hex search keyed as for a cost in losses) and remembers, per
// layer, full states and items sent so far, the cheapest assignment met
// and the first of those in the walk's order. Two assignments alike in
// all three have the same completions, worth the same, losing the same
// and sending as many items; the classes still to come are sent by
// neither, so the one first in the walk's order stays first whatever
// completes them (as in the front search). A node met again dearer, or as
// dear and not first, is not searched again.

// levelTie is the best assignment met so far for one frontier point, and
// the search's full states.
type levelTie struct {
	full []*hexBound // by hex: its one-hex search keyed by full state
	// finLost[t][j]: the expected factors hex t loses from its final full
	// state j: 0 when it sends nothing, NaN for an attack with no weighed
	// combat (an error where it is read).
	finLost [][]float64
	found   bool
	lost    float64
	size    int
	x       []uint8
	leaves  int64
	err     error
	// cur[pos]: the hexes' full states of the node searched at layer
	// pos; f: a child's; kidF[pos]: the children's (nt each).
	cur  [][]int32
	f    []int32
	kidF [][]int32
	memo tieMemo
	// plain is the bound on the tie-break, built when first needed
	// (most fronts' forces are joined, or searched with stairs) and
	// shared by every worker's search.
	plain *plainLost
	// stairs, when the combination searched has cost to spare: by hex,
	// the bound by cost (frontlevelstairs.go), kept by level.
	stairs        []*lostStairs
	stairCache    map[stairKey]*stairEntry
	stairKept     int // the pairs stairCache holds
	stairSearches int
	// lostCut: a child was dropped by its losses' bound (gather).
	lostCut bool
	// skipDone: every item costs more than costTol, so no assignment of
	// a point's cost sends an item to a hex at its level already (kept
	// instead, the rest would reach the levels for less than the point).
	skipDone bool
}

// levelForces finds the frontier (r.scan) and sets each point's
// assignment to the front search's. With more than one worker the points'
// forces are found while the scan goes on: the scan hands each point over
// once it is final, dearest first (those take longest: the most
// combinations, and cost to spare), and the other workers take them; the
// scan's worker joins them when it is done. What a point's forces are,
// and the assignments finding them weighs, depend on the point alone, so
// the answer and forces_weighed are the same on any number of workers
// (the nodes searched, TieNodes, which no answer reports, are not).
func (ls *levelSearch) levelForces(pl *planner, r *levelRun) error {
	fp := &forcePipe{pl: pl, ls: ls, r: r}
	fp.cond = sync.NewCond(&fp.mu)
	var pts []*levelPoint
	var err error
	// (A trace sees the combinations in order, on one worker; the
	// browser's build, parallelBuild false, leaves the workers out.)
	if workers := pl.e.workers; !parallelBuild || workers == 1 || levelTrace != nil {
		pts, err = r.scan(nil)
		if err != nil {
			return err
		}
		for _, pt := range pts {
			fp.hand(pt)
		}
		fp.end(nil)
		fp.work(ls)
	} else {
		fp.ahead, fp.spare = map[int]*aheadResult{}, make([]uint8, len(ls.best))
		var wg sync.WaitGroup
		for range workers - 1 {
			wg.Go(func() { fp.work(nil) })
		}
		pts, err = r.scan(fp)
		fp.end(err)
		if err == nil {
			fp.work(ls)
		}
		wg.Wait()
	}
	r.setPoints(pts)
	switch {
	case fp.err != nil:
		return fp.err
	case err != nil:
		return err
	}
	st := &r.st
	st.TieSearches, st.Joined, st.Stairs = fp.searches, fp.joined, fp.stairs
	st.TieNodes, st.TieLeaves = fp.nodes, fp.leaves
	return nil
}

// forcePipe hands the scan's final points to the workers finding their
// forces.
type forcePipe struct {
	pl     *planner
	ls     *levelSearch // the scan's
	r      *levelRun
	once   sync.Once
	lt     *levelTie // the tables every worker's search for forces shares
	tieErr error
	mu     sync.Mutex
	cond   *sync.Cond
	// Under mu: the points handed over and not yet taken, how many were
	// handed over and done, whether the scan ended, the first error and
	// what the points' searches counted.
	queue                    []*levelPoint
	popped, errAt            int // points taken from queue; the error's point
	handed, done             int
	ended                    bool
	err                      error
	searches, joined, stairs int
	nodes, leaves            int64
	failedFlag               atomic.Bool
	// Under mu, the scan's combinations searched ahead (frontlevelahead.go).
	aheadState
}

// hand gives the workers a final point.
func (fp *forcePipe) hand(pt *levelPoint) {
	fp.mu.Lock()
	defer fp.mu.Unlock()
	fp.queue = append(fp.queue, pt)
	fp.handed++
	if p := fp.pl.cfg.Progress; p != nil {
		p(uint64(fp.done), uint64(fp.handed))
	}
	fp.cond.Signal()
}

// end says the scan ended, with its error.
func (fp *forcePipe) end(err error) {
	fp.mu.Lock()
	defer fp.mu.Unlock()
	fp.ended = true
	if err != nil && !errors.Is(err, errScanStopped) {
		fp.fail(err)
	}
	fp.cond.Broadcast()
}

// fail records an error of the scan or the tables (under mu); the scan
// and the workers stop.
func (fp *forcePipe) fail(err error) { fp.failAt(-1, err) }

// failAt records the error of the n-th point handed over (n -1: the scan
// or the tables; under mu). The error kept is the first point's: every
// point before it was taken before it and is finished, so which error
// the plan returns does not depend on the workers.
func (fp *forcePipe) failAt(n int, err error) {
	if fp.err == nil || n < fp.errAt {
		fp.err, fp.errAt = err, n
	}
	fp.failedFlag.Store(true)
	fp.cond.Broadcast()
}

// failed reports whether finding some point's forces failed.
func (fp *forcePipe) failed() bool { return fp.failedFlag.Load() }

// next is the next point to find the forces of and its place in the
// order handed over, or nil when there is none left or work must stop;
// while there is none yet, ls searches the scan's combinations ahead of
// it.
func (fp *forcePipe) next(ls *levelSearch) (*levelPoint, int) {
	fp.mu.Lock()
	defer fp.mu.Unlock()
	for len(fp.queue) == 0 && !fp.ended && fp.err == nil {
		if parallelBuild && fp.help(ls) {
			continue
		}
		fp.cond.Wait()
	}
	if len(fp.queue) == 0 || fp.err != nil {
		return nil, 0
	}
	pt := fp.queue[0]
	fp.queue = fp.queue[1:]
	fp.popped++
	return pt, fp.popped - 1
}

// tie is the search for forces' tables, built once by the first worker
// to need them: each hex's one-hex search keyed by full state (normalised
// with a cost in losses) and its final states weighed; the plain bound
// on losses is built when first needed (readyPlain).
func (fp *forcePipe) tie() (*levelTie, error) {
	fp.once.Do(func() {
		var err error
		defer func() { fp.tieErr = err }()
		ls, pl := fp.ls, fp.pl
		lt := &levelTie{}
		fb := &frontBound{pl: pl, fs: ls.fs, lossCost: true}
		for t := range ls.nt {
			h, e := fb.oneHex(t)
			if e != nil {
				err = e
				return
			}
			lt.full = append(lt.full, h)
		}
		for _, h := range lt.full {
			if err = lt.weighLosses(h); err != nil {
				return
			}
		}
		lt.plain = &plainLost{}
		lt.skipDone = true
		for c := range ls.nc {
			lt.skipDone = lt.skipDone && ls.add[c][1] > costTol
		}
		fp.lt = lt
	})
	return fp.lt, fp.tieErr
}

// work finds the forces of the points handed over until none is left:
// with the scan's search base when the scan is done, else a search of
// its own.
func (fp *forcePipe) work(base *levelSearch) {
	lt, err := fp.tie()
	if err != nil {
		fp.mu.Lock()
		fp.fail(err)
		fp.mu.Unlock()
		return
	}
	ls := base
	if ls == nil {
		ls = fp.ls.fork(lt)
	} else {
		ls.tie = lt.fork(ls)
		defer func() { ls.tie = nil }()
	}
	lt = ls.tie
	nodes, leaves := ls.nodes, lt.leaves
	fj := newForceJoin(ls, lt)
	for {
		pt, at := fp.next(ls)
		if pt == nil {
			break
		}
		var n, joined int
		if joinForces {
			j := fj.joined
			n, err = fj.point(pt, fp.r.list, fp.r.levels)
			joined = fj.joined - j
			if errors.Is(err, errJoinUnfit) {
				n, err = ls.forcePoint(lt, pt, fp.r.list, fp.r.levels)
			}
		} else {
			n, err = ls.forcePoint(lt, pt, fp.r.list, fp.r.levels)
		}
		fp.mu.Lock()
		fp.searches += n
		fp.joined += joined
		if err != nil {
			fp.failAt(at, err)
		}
		fp.done++
		// The forces found so far, of the frontier's: a 4x24 front
		// takes seconds (docs/performance.md).
		if p := fp.pl.cfg.Progress; p != nil && err == nil {
			p(uint64(fp.done), uint64(fp.handed))
		}
		fp.mu.Unlock()
		if err != nil {
			break
		}
	}
	fp.mu.Lock()
	fp.stairs += lt.stairSearches
	fp.nodes += ls.nodes - nodes
	fp.leaves += lt.leaves - leaves
	fp.mu.Unlock()
}

// forcePoint sets the point's assignment to the front search's: every
// combination of the point's value searched for the assignments of its
// cost, the best kept (leaf). It reports how many combinations it
// searched.
func (ls *levelSearch) forcePoint(lt *levelTie, pt *levelPoint, list []levelCombo, levels [][]float64) (int, error) {
	searches := 0
	lt.found = false
	for _, cb := range list {
		if !pt.holds(cb) {
			continue
		}
		searches++
		if err := ls.searchCombo(lt, pt, cb, levels); err != nil {
			return searches, err
		}
	}
	return searches, lt.give(pt)
}

// holds reports whether combination cb can hold assignments of pt's cost
// and value: its value pt's and its lower bound within pt's cost.
func (pt *levelPoint) holds(cb levelCombo) bool {
	return near(cb.value, pt.value, valueTol) && cb.lb <= pt.cost+costTol
}

// give sets pt's assignment to the best met, or says none was.
func (lt *levelTie) give(pt *levelPoint) error {
	if !lt.found {
		return errors.New("plan: deciding hexes: no assignment of a frontier point's cost and value")
	}
	copy(pt.x, lt.x)
	return nil
}

// searchCombo searches combination cb for the assignments of pt's cost,
// weighing each against lt's best.
func (ls *levelSearch) searchCombo(lt *levelTie, pt *levelPoint, cb levelCombo, levels [][]float64) error {
	if err := ls.fs.ctx.Err(); err != nil {
		return err
	}
	ls.setLevels(cb.code, levels)
	// Only assignments costing no more than the point (to within
	// costTol) are listed.
	ls.m = pt.cost + 2*costTol
	// With cost to spare the bound counts the cost too; without (only a
	// front the join does not fit searches those), the plain bound.
	if pt.cost-cb.lb > costTol {
		lt.stairsFor(ls, levels, ls.m-cb.lb)
	}
	defer func() { lt.stairs = lt.stairs[:0] }()
	if len(lt.stairs) > 0 {
		lt.stairSearches++
	} else {
		if err := lt.readyPlain(levels); err != nil {
			return err
		}
	}
	clear(ls.x)
	clear(lt.cur[0]) // every hex at its base
	lt.memo.next()
	before, leaves := ls.nodes, lt.leaves
	ls.memo.next()
	if _, _, ok := ls.bound(0, ls.root, 0); ok {
		lt.node(ls, 0, 0, ls.root)
	}
	if ls.stopped {
		return ls.fs.ctx.Err()
	}
	if levelTrace != nil {
		levelTrace(cb.value, cb.lb, pt.cost, ls.nodes-before, lt.leaves > leaves)
	}
	return lt.err
}

// fork is a search for another worker: the same hexes and tables, read
// only, with scratch, a table of nodes and (lt not nil) a search for
// forces from lt's tables of its own.
func (ls *levelSearch) fork(lt *levelTie) *levelSearch {
	f := &levelSearch{fs: ls.fs, hexes: ls.hexes, add: ls.add, nt: ls.nt, nc: ls.nc, rest: ls.rest, root: ls.root,
		tab: ls.tab, off: ls.off, nl: ls.nl, priced: ls.priced, pricedRest: ls.pricedRest}
	f.scratch()
	if lt != nil {
		f.tie = lt.fork(f)
	}
	return f
}

// fork is a search for forces for ls: lt's tables, read only, with
// scratch of its own.
func (lt *levelTie) fork(ls *levelSearch) *levelTie {
	f := &levelTie{full: lt.full, finLost: lt.finLost, plain: lt.plain, skipDone: lt.skipDone}
	f.scratch(ls.nt, ls.nc)
	return f
}

// scratch gives lt what one worker's searches write: the assignment, the
// full states by layer and the table of nodes.
func (lt *levelTie) scratch(nt, nc int) {
	lt.x, lt.f = make([]uint8, nt*nc), make([]int32, nt)
	lt.cur, lt.kidF = make([][]int32, nc+1), make([][]int32, nc)
	for i := range lt.cur {
		lt.cur[i] = make([]int32, nt)
	}
	lt.memo = newTieMemo(nt, nc, tieMemoSlots)
}

// weighLosses appends to finLost what hex h loses from each of its final
// full states, each weighed once for the bound, the search and the join.
func (lt *levelTie) weighLosses(h *hexBound) error {
	last := h.layers[len(h.layers)-1]
	lost := make([]float64, last.len())
	for j := range lost {
		switch v := h.finEval[j]; {
		case h.lay.size.get(last.key(j)) == 0:
		case v == nil:
			lost[j] = math.NaN()
		default:
			lf, err := h.lay.factorsLost(h.sp, v, last.key(j))
			if err != nil {
				return err
			}
			lost[j] = lf
		}
	}
	lt.finLost = append(lt.finLost, lost)
	return nil
}

// final is what hex t's final full state j loses and P(hex taken) there,
// both 0 when it sends nothing or has no weighed combat: the ends of the
// bounds' tables (plainLost, lostStairs).
func (lt *levelTie) final(t, j int) (lost, p float64) {
	h := lt.full[t]
	if v := h.finEval[j]; v != nil && h.lay.size.get(h.layers[len(h.layers)-1].key(j)) > 0 {
		return lt.finLost[t][j], v.HexTaken.P
	}
	return 0, 0
}

// errNoCombat: an assignment attacks a hex with a force whose combat was
// not weighed (its final full state has no land unit).
var errNoCombat = errors.New("plan: deciding hexes: an attack with no weighed combat")

// plainLost is the plain bound on the tie-break: least[t][(off[t][pos]+
// j)*nl+i] is the fewest expected factors hex t loses from its full state
// j at layer pos once at its level i or above, whatever the classes to
// come send it (the other hexes forgotten), +Inf past what it reaches.
type plainLost struct {
	once  sync.Once
	err   error
	least [][]float64
	off   [][]int
	nl    []int
}

// readyPlain builds lt.plain for levels once, by whichever worker needs
// it first.
func (lt *levelTie) readyPlain(levels [][]float64) error {
	p := lt.plain
	p.once.Do(func() {
		for t, h := range lt.full {
			if p.err = p.leastLost(lt, t, h, levels[t]); p.err != nil {
				return
			}
		}
	})
	return p.err
}

// leastLost fills hex t's part of least, for its levels lv (ascending),
// from its last layer back.
func (p *plainLost) leastLost(lt *levelTie, t int, h *hexBound, lv []float64) error {
	nc, nl := len(h.layers)-1, len(lv)
	off := make([]int, nc+2)
	for pos, lay := range h.layers {
		off[pos+1] = off[pos] + lay.len()
	}
	if off[nc+1]*nl > tieBoundSize {
		return errTieBoundTooLarge
	}
	tab := make([]float64, off[nc+1]*nl)
	last := h.layers[nc]
	for j := range last.len() {
		lost, p := lt.final(t, j)
		for i, l := range lv {
			tab[(off[nc]+j)*nl+i] = lost
			if p < l {
				tab[(off[nc]+j)*nl+i] = math.Inf(1)
			}
		}
	}
	for pos := nc - 1; pos >= 0; pos-- {
		for j := range h.layers[pos].len() {
			row := tab[(off[pos]+j)*nl : (off[pos]+j+1)*nl]
			for i := range row {
				row[i] = math.Inf(1)
			}
			for _, q := range h.trans[pos][h.start[pos][j]:h.start[pos][j+1]] {
				for i, v := range tab[(off[pos+1]+int(q))*nl : (off[pos+1]+int(q)+1)*nl] {
					row[i] = min(row[i], v)
				}
			}
		}
	}
	p.least = append(p.least, tab)
	p.off = append(p.off, off)
	p.nl = append(p.nl, nl)
	return nil
}

// joinForces: the points' forces are found by joining the hexes' forces
// where that fits (frontjoin.go); tests turn it off to find them all by
// the search.
var joinForces = true

// tieBoundSize bounds the entries of a hex's least. A variable so a test
// can lower it.
var tieBoundSize = 8 << 20

var errTieBoundTooLarge = errors.New("plan: deciding hexes: the forces' bound outgrew its memory")

// lostBound is the fewest expected factors the hexes' full states f at
// layer pos lose in all once at their levels, the node's states idx and
// bound lb (with stairs, each hex spends at most its need plus m - lb).
func (lt *levelTie) lostBound(ls *levelSearch, pos int, f, idx []int32, lb float64) float64 {
	b := 0.0
	if len(lt.stairs) > 0 {
		spare := ls.m - lb
		for t := range f {
			b += lt.stairs[t].within(pos, f[t], ls.need(t, pos, idx[t])+spare)
		}
		return b
	}
	for t := range f {
		p := lt.plain
		b += p.least[t][(p.off[t][pos]+int(f[t]))*p.nl[t]+ls.lv[t]]
	}
	return b
}

// beaten reports whether no completion of the node at layer pos (states
// idx, bound lb) can lose as few expected factors as the best assignment
// met (by costTol).
func (lt *levelTie) beaten(ls *levelSearch, pos int, idx []int32, lb float64) bool {
	return lt.found && lt.lostBound(ls, pos, lt.cur[pos], idx, lb) > lt.lost+costTol
}

// node is the search for forces at layer pos from the hexes' states idx
// (their full states lt.cur[pos]), the assignment so far costing cost. It
// reports whether the node is dead: no assignment completing it reaches
// the levels within the point's cost. A dead node is remembered (ls.memo:
// its completions depend on its states and cost only), and one met again
// no cheaper is dead without a search. A node is not known dead when the
// bound on losses or the memo of full states cut some of its subtree.
func (lt *levelTie) node(ls *levelSearch, pos int, cost float64, idx []int32) (dead bool) {
	if ls.cancelled() {
		return false
	}
	if pos == ls.nc {
		lt.leaf(ls, cost)
		return false
	}
	if ls.memo.has(pos, idx, cost) {
		return true
	}
	lb, done, _ := ls.bound(pos, idx, cost)
	if lt.beaten(ls, pos, idx, lb) || lt.seen(ls, pos, cost) {
		return false
	}
	lt.lostCut = false
	c := ls.children(pos, idx, cost, done)
	dead = !lt.lostCut
	nt := ls.nt
	for _, k := range ls.kids[pos] {
		if k.lb >= ls.m-costTol {
			continue // dead: no completion within the cost
		}
		ls.take(pos, c, k)
		if !lt.node(ls, pos+1, k.cost, ls.kidIdx[pos][k.n*nt:(k.n+1)*nt]) {
			dead = false
		}
	}
	ls.untake(c)
	if dead {
		ls.memo.put(pos, idx, cost)
	}
	return dead
}

// begin starts the children of the node at layer pos: each hex sending
// nothing.
func (lt *levelTie) begin(pos int) {
	lt.kidF[pos] = lt.kidF[pos][:0]
	for t := range lt.f {
		lt.send(pos, t, 0)
	}
}

// send sets hex t's full state in the child to its state at the node of
// layer pos with k more items of the layer's class.
func (lt *levelTie) send(pos, t, k int) {
	h := lt.full[t]
	lt.f[t] = h.trans[pos][h.start[pos][lt.cur[pos][t]]+int32(k)]
}

// seen reports whether the node at layer pos (the assignment ls.x,
// costing cost) was met before as cheaply and first in the walk's order,
// and otherwise remembers it.
func (lt *levelTie) seen(ls *levelSearch, pos int, cost float64) bool {
	return lt.memo.seen(pos, counts(ls.x).size(), lt.cur[pos], cost, ls.x)
}

// leaf weighs the assignment ls.x, whose hexes reach the final full
// states lt.cur[nc] for cost, against the best so far.
func (lt *levelTie) leaf(ls *levelSearch, cost float64) {
	if lt.err != nil {
		return
	}
	lt.leaves++
	nc := ls.nc
	lost, size := 0.0, 0
	for t := range lt.full {
		n := counts(ls.x[t*nc : (t+1)*nc]).size()
		if n == 0 {
			continue
		}
		size += n
		lf := lt.finLost[t][lt.cur[nc][t]]
		if math.IsNaN(lf) {
			lt.err = errNoCombat
			return
		}
		lost += lf
	}
	if lt.found {
		switch {
		case !near(lost, lt.lost, costTol):
			if lost > lt.lost {
				return
			}
		case size != lt.size:
			if size > lt.size {
				return
			}
		case bytes.Compare(ls.x, lt.x) >= 0:
			return
		}
	}
	lt.found, lt.lost, lt.size = true, lost, size
	copy(lt.x, ls.x)
}

// tieMemoSlots is how many nodes tieMemo remembers.
const tieMemoSlots = 1 << 16

// tieMemo is levelMemo for the search of forces: keyed also by the items
// sent so far, and keeping the assignment met, so a node met again as
// dear is searched again when it comes first in the walk's order.
type tieMemo struct {
	nt, nc int
	keys   []int32 // by slot: the layer, the items sent, then the hexes' full states
	cost   []float64
	xs     []uint8 // by slot: the assignment
	stamp  []uint32
	now    uint32
}

func newTieMemo(nt, nc, slots int) tieMemo {
	return tieMemo{nt: nt, nc: nc, keys: make([]int32, slots*(nt+2)), cost: make([]float64, slots),
		xs: make([]uint8, slots*nt*nc), stamp: make([]uint32, slots)}
}

// next starts a search: every slot written before is forgotten.
func (m *tieMemo) next() { m.now++ }

// seen reports whether the node (pos, size, f) was met in this search
// more cheaply (by costTol), or as cheaply by an assignment no later in
// the walk's order than x; otherwise it remembers the node at cost and x
// when it is the slot's first, or cheaper or earlier than its own.
func (m *tieMemo) seen(pos, size int, f []int32, cost float64, x []uint8) bool {
	s := nodeSlot(uint64(pos)*0x9e3779b97f4a7c15^uint64(size)*0xd6e8feb86659fd93, f, len(m.cost))
	w := m.nt + 2
	k := m.keys[s*w : (s+1)*w]
	sx := m.xs[s*m.nt*m.nc : (s+1)*m.nt*m.nc]
	if m.stamp[s] == m.now && k[0] == int32(pos) && k[1] == int32(size) && slices.Equal(k[2:], f) {
		switch {
		case m.cost[s] < cost-costTol:
			return true
		case near(m.cost[s], cost, costTol) && bytes.Compare(sx, x) <= 0:
			return true
		}
		m.cost[s] = cost
		copy(sx, x)
		return false
	}
	m.stamp[s], k[0], k[1], m.cost[s] = m.now, int32(pos), int32(size), cost
	copy(k[2:], f)
	copy(sx, x)
	return false
}
