package plan

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/wifodds/wifodds/scenario"
)

// Deciding hexes (docs/planner.md): how the planner searches a front of
// the expected hexes against a committed cost (frontdecide.go says which
// fronts). This file finds the frontier's values and costs.
//
// For the expected hexes with a committed cost, the frontier at cost C is
// worth V*(C) = max, over combinations l of one P(hex taken) level per
// hex (0: not attacked) with MC(l) <= C, of sum_h value_h x l_h, where
// MC(l) is the least cost of an assignment (each unit to one hex at
// most) reaching P_h >= l_h at every hex. (The best assignment at C has
// its own levels, whose MC is at most C; any combination with MC <= C
// has an assignment worth at least its sum.) A hex's levels are the
// distinct P of its own one-hex search's final states (hexBound), a few
// dozen on the 2d6 table.
//
// The combinations are taken by value, highest first; m is the least MC
// found so far. A combination whose lower bound (the sum of each hex's
// own least cost to reach its level, from its one-hex staircase) is at
// least m is skipped; otherwise a branch and bound over the classes
// (levelSearch) looks for an assignment cheaper than m, and each one
// found is a frontier point. The bound at a node is its cost plus, for
// each hex, the least its staircase adds to reach the hex's level from
// its current state with the classes still to come (every hex using
// every unit to come: a relaxation, but of a fixed target at each hex,
// far tighter than the front search's over all targets at once); a node
// whose hexes need more than the classes to come cost in all is
// infeasible (the needs are met by disjoint items). Children are tried
// by bound, least first; a hex at its level gets nothing more; a node
// reached again in the same search for no less is not searched again
// (levelMemo).
//
// With forces, each point's assignment is then the front search's
// (frontlevelforces.go): the tie-break among the assignments of the
// point's cost and value (least expected factors lost, then fewer items,
// then the walk's order).
//
// Not covered (levelScope): chance objectives, costs in expected losses,
// requires, a shared support pool, max_units and committed units.

// levelPoint is a frontier point: its cost and value, and its assignment
// (target-major counts): the first the branch and bound found, or with
// forces the front search's.
type levelPoint struct {
	cost, value float64
	x           []uint8
	code        int // the combination whose search found the cost
}

// levelCombo is a combination of levels: its value, lower bound and code
// (the hexes' level indices, mixed radix, hex 0 the lowest digit).
type levelCombo struct {
	value, lb float64
	code      int
}

// levelStats says what deciding hexes did.
type levelStats struct {
	Levels []int // by target: its distinct P levels, 0 included
	Combos int   // combinations of levels worth more than nothing
	Skip   int   // skipped by their lower bound
	Solved int   // searched by branch and bound
	Nodes  int64 // the branch and bound's nodes (the forces' not counted)
	// AheadNodes: of them, searched ahead by idle workers (frontlevelahead.go),
	// the nodes of the combinations the scan took.
	AheadNodes int64
	// With the forces: the searches for them, their nodes and the
	// assignments of a point's cost and value met.
	TieSearches int
	Joined      int // of the TieSearches, the combinations joined (frontjoin.go)
	Stairs      int // of the others, those bounded by cost too (frontlevelstairs.go)
	TieNodes    int64
	TieLeaves   int64
	States      int  // the hexes' one-hex states, every layer
	Priced      bool // the bound priced the contested factors (frontlevelprice.go)
}

// levelTrace, when set (by tests), sees each combination searched: its
// value, lower bound, the least cost known after it, the nodes its search
// visited and whether it found a cheaper assignment.
var levelTrace func(value, lb, m float64, nodes int64, found bool)

// maxLevelCombos bounds the combinations deciding hexes lists.
const maxLevelCombos = 1 << 22

// frontLevels is the frontier of pl's front by deciding hexes (r.pts,
// cheapest first); with forces, each point's assignment is the one the
// front search reports (levelForces), else the first the branch and
// bound found.
func (pl *planner) frontLevels(forces bool) (*levelRun, error) {
	if err := pl.levelScope(); err != nil {
		return nil, err
	}
	fs, ids, values, allowed, err := pl.newFrontSearch()
	if err != nil {
		return nil, err
	}
	r, err := pl.levelPrepare(fs, values)
	r.ids, r.allowed = ids, allowed
	if err != nil {
		return r, err
	}
	if forces {
		return r, r.ls.levelForces(pl, r)
	}
	pts, err := r.scan(nil)
	r.setPoints(pts)
	return r, err
}

// levelScope refuses a front deciding hexes does not cover.
func (pl *planner) levelScope() error {
	s := pl.s
	switch {
	case s.Plan.Cost == scenario.ExpectedFactorsLost || s.Plan.Cost == scenario.ExpectedUnitsLost:
		return errors.New("plan: deciding hexes takes a committed cost only")
	case s.Plan.IsChance():
		return errors.New("plan: deciding hexes takes the expected hexes only")
	case hasRequires(s.Targets):
		return errors.New("plan: deciding hexes takes no requires")
	case s.Plan.MaxUnits > 0:
		return errors.New("plan: deciding hexes takes no max_units")
	case len(pl.e.commit) > 0:
		return errors.New("plan: deciding hexes takes no committed units")
	}
	for _, it := range pl.e.pool.items {
		if it.Unit == nil {
			return errors.New("plan: deciding hexes takes no support pool")
		}
	}
	return nil
}

// levelRun is what deciding hexes found: the one-hex searches (fb's
// hexes), the search, the frontier, every combination by value and each
// hex's levels; with the targets' ids and allowed[t][c], whether class c
// can attack target t (newFrontSearch).
type levelRun struct {
	ids     []string
	allowed [][]bool
	fb      *frontBound
	ls      *levelSearch
	pts     []levelPoint
	list    []levelCombo
	levels  [][]float64
	st      levelStats
}

// levelPrepare readies the search of the frontier's costs and values
// over fs's states: each hex's one-hex search, levels and least costs,
// and every combination of levels by value.
func (pl *planner) levelPrepare(fs *frontSearch, values []float64) (*levelRun, error) {
	r := &levelRun{}
	st := &r.st
	p := pl.e.pool
	nt, nc := len(fs.sps), len(p.classes)
	fb := &frontBound{pl: pl, fs: fs, values: values}
	fb.scratch(nt, nc)
	add, err := fb.hexBounds()
	if err != nil {
		return r, err
	}
	ls := &levelSearch{fs: fs, hexes: fb.hexes, add: add, nt: nt, nc: nc}
	ls.init()
	// Each hex's levels and the least it costs alone to reach each.
	levels := make([][]float64, nt)
	least := make([][]float64, nt)
	combos := 1
	for t, h := range fb.hexes {
		for _, lay := range h.layers {
			st.States += lay.len()
		}
		lv := append([]float64{0}, h.finP...)
		slices.Sort(lv)
		lv = slices.Compact(lv)
		levels[t] = lv
		ls.needs(t, lv)
		least[t] = ls.tab[t][:len(lv)] // layer 0's one state: the base
		st.Levels = append(st.Levels, len(lv))
		if combos *= len(lv); combos > maxLevelCombos {
			return r, fmt.Errorf("%w: more than %d", errTooManyCombos, maxLevelCombos)
		}
	}
	// Every combination worth something, by value (highest first), then
	// by its lower bound.
	list := make([]levelCombo, 0, combos)
	digit := make([]int, nt)
	for code := range combos {
		r := code
		value, lb := 0.0, 0.0
		for t := range nt {
			digit[t] = r % len(levels[t])
			r /= len(levels[t])
			value += values[t] * levels[t][digit[t]]
			lb += least[t][digit[t]]
		}
		if value > 0 {
			list = append(list, levelCombo{value, lb, code})
		}
	}
	// (sort.Slice: once a plan, and no sort's code of its own in the
	// browser build.)
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		return cmp.Or(cmp.Compare(b.value, a.value), cmp.Compare(a.lb, b.lb), a.code-b.code) < 0
	})
	st.Combos = len(list)
	r.fb, r.ls, r.list, r.levels = fb, ls, list, levels
	if err := ls.price(fb, levels, list); err != nil {
		return r, err
	}
	st.Priced = ls.priced != nil
	return r, nil
}

// scan finds the frontier's points, dearest first: the combinations by
// value, each searched when its lower bound is below the least cost
// found so far. With fp (levelForces' workers), each point is handed to
// fp once no cheaper point worth as much can take its place (its
// assignment then written by fp's workers only), a combination an idle
// worker searched ahead is taken from it, and the scan stops early when
// finding some point's forces failed.
func (r *levelRun) scan(fp *forcePipe) ([]*levelPoint, error) {
	ls, st := r.ls, &r.st
	fs, list, levels := ls.fs, r.list, r.levels
	ls.m = ls.above()
	var pts []*levelPoint
	handed := false // the last point was handed to fp
	for n, cb := range list {
		if n%4096 == 0 {
			if err := fs.ctx.Err(); err != nil {
				return pts, err
			}
		}
		// (parallelBuild: the browser's engine leaves the workers out.)
		if parallelBuild && fp != nil && fp.failed() {
			return pts, errScanStopped
		}
		// Past the last point's value: no cheaper point worth as much
		// is to come (the combinations are by value).
		if k := len(pts) - 1; parallelBuild && k >= 0 && fp != nil && !handed && !near(pts[k].value, cb.value, valueTol) {
			fp.hand(pts[k])
			handed = true
		}
		if cb.lb >= ls.m-costTol {
			st.Skip++
			continue
		}
		st.Solved++
		before := ls.nodes
		var ok bool
		if a := claim(fp, ls, n); a != nil {
			// Searched ahead against a least cost no lower than m: it
			// found this one's least cost if below that (frontlevelahead.go).
			if a.stopped {
				return pts, fs.ctx.Err()
			}
			if ok = a.found && a.cost < ls.m-costTol; ok {
				ls.m = a.cost
				copy(ls.best, a.x)
			}
			st.AheadNodes += a.nodes
		} else {
			ok = ls.solve(cb.code, levels, ls.m)
		}
		if ls.stopped {
			return pts, fs.ctx.Err()
		}
		if levelTrace != nil {
			levelTrace(cb.value, cb.lb, ls.m, ls.nodes-before, ok)
		}
		if !ok {
			continue
		}
		pt := &levelPoint{cost: ls.m, value: cb.value, x: slices.Clone(ls.best), code: cb.code}
		// A cheaper point worth as much takes the last one's place; the
		// one before a point worth less is final.
		if k := len(pts) - 1; k >= 0 && near(pts[k].value, pt.value, valueTol) {
			pts[k] = pt
		} else {
			pts = append(pts, pt)
		}
		handed = false
	}
	if k := len(pts) - 1; parallelBuild && k >= 0 && fp != nil && !handed {
		fp.hand(pts[k])
	}
	st.Nodes = ls.nodes + st.AheadNodes
	return pts, nil
}

// errScanStopped: the scan stopped for the forces' error.
var errScanStopped = errors.New("plan: deciding hexes: stopped")

// setPoints sets r.pts to the points the scan found, cheapest first.
func (r *levelRun) setPoints(pts []*levelPoint) {
	r.pts = r.pts[:0]
	for i := len(pts) - 1; i >= 0; i-- {
		r.pts = append(r.pts, *pts[i])
	}
}

// levelSearch is the branch and bound for one combination's least cost:
// the classes taken in the front search's order, each class's items
// split among the hexes it can attack; a hex's state is its index in its
// one-hex search's layer. A node's children are tried by their bound,
// least first, and a node reached again (the same layer and hexes'
// states) for no less than before is not searched again (levelMemo).
type levelSearch struct {
	fs     *frontSearch
	hexes  []*hexBound
	add    [][]float64 // add[c][k]: what k items of class c cost
	nt, nc int
	lv     []int   // by hex: the level to reach (its index)
	m      float64 // the least cost known: only a cheaper one counts
	found  bool
	rest   []float64 // by layer: the most the classes to come cost
	x      []uint8   // the assignment grown (target-major)
	best   []uint8   // the assignment of the last cost found
	nodes  int64
	// By layer: the children of the node searched there, their hexes'
	// states and items sent to each hex (nt each).
	kids   [][]levelKid
	kidIdx [][]int32
	kidX   [][]uint8
	idx    []int32 // scratch: a child's hexes' states
	ks     []uint8 // scratch: a child's items by hex
	root   []int32 // every hex at its base: state 0 of layer 0
	memo   levelMemo
	// tie, when set, makes the search list every assignment reaching the
	// levels for at most m (levelForces) instead of a cheaper one.
	tie *levelTie
	// tab[t][(off[t][pos]+j)*nl[t]+i]: the least cost the classes from
	// layer pos on add to hex t's state j so it reaches its level i.
	tab [][]float64
	off [][]int
	nl  []int
	// priced, laid out as tab: the least the classes from layer pos on add
	// to the cost plus lambda times the contested factors they send; and
	// pricedRest[pos], lambda times the contested factors of those
	// classes. Nil when the front is not priced (frontlevelprice.go).
	priced     [][]float64
	pricedRest []float64
	// stopped: the context was cancelled during a search, which ended
	// short; its caller returns the context's error.
	stopped bool
}

// cancelled counts a node and reports whether the search must stop: the
// context is read every 65,536 nodes, so a long search stops within a few
// milliseconds of Ctrl-C or a server's deadline.
func (ls *levelSearch) cancelled() bool {
	ls.nodes++
	if ls.nodes&(1<<16-1) == 0 && ls.fs.ctx.Err() != nil {
		ls.stopped = true
	}
	return ls.stopped
}

// levelKid is a child of a node: its bound, cost, the hexes at their
// level (a bit each) and where its states and items are.
type levelKid struct {
	lb, cost float64
	lost     float64 // in the search for forces: lostBound, else 0
	done     uint64
	n        int
}

func (ls *levelSearch) init() {
	ls.scratch()
	ls.rest = make([]float64, ls.nc+1)
	for pos := ls.nc - 1; pos >= 0; pos-- {
		c := ls.fs.order[pos]
		ls.rest[pos] = ls.rest[pos+1] + ls.add[c][len(ls.add[c])-1]
	}
	ls.root = make([]int32, ls.nt)
	ls.tab = make([][]float64, ls.nt)
	ls.off = make([][]int, ls.nt)
	ls.nl = make([]int, ls.nt)
}

// scratch gives ls what one worker's searches write: the levels, the
// assignments, the children by layer and the table of nodes.
func (ls *levelSearch) scratch() {
	ls.lv = make([]int, ls.nt)
	ls.x = make([]uint8, ls.nt*ls.nc)
	ls.best = make([]uint8, ls.nt*ls.nc)
	ls.kids = make([][]levelKid, ls.nc)
	ls.kidIdx = make([][]int32, ls.nc)
	ls.kidX = make([][]uint8, ls.nc)
	ls.idx = make([]int32, ls.nt)
	ls.ks = make([]uint8, ls.nt)
	ls.memo = newLevelMemo(ls.nt, levelMemoSlots)
}

// needs fills hex t's part of tab for its levels lv (ascending): the
// first point of each state's staircase (cost and P rising) reaching each
// level, or +Inf.
func (ls *levelSearch) needs(t int, lv []float64) {
	h := ls.hexes[t]
	ls.nl[t] = len(lv)
	ls.off[t] = make([]int, len(h.stairs)+1)
	for pos, f := range h.stairs {
		ls.off[t][pos+1] = ls.off[t][pos] + len(f.off) - 1
	}
	ls.tab[t] = ls.needTable(t, h.stairs, lv)
}

// needTable is hex t's part of tab (or of a priced bound's table,
// frontlevelprice.go) from its staircases by layer.
func (ls *levelSearch) needTable(t int, stairs []flat, lv []float64) []float64 {
	tab := make([]float64, 0, ls.off[t][len(stairs)]*len(lv))
	for _, f := range stairs {
		for j := range len(f.off) - 1 {
			st := f.at(j)
			k := 0
			for _, l := range lv {
				for k < len(st) && st[k].p < l {
					k++
				}
				if k == len(st) {
					tab = append(tab, math.Inf(1))
				} else {
					tab = append(tab, st[k].cost)
				}
			}
		}
	}
	return tab
}

// setLevels sets the levels to reach from a combination's code.
func (ls *levelSearch) setLevels(code int, levels [][]float64) {
	for t := range ls.nt {
		ls.lv[t] = code % len(levels[t])
		code /= len(levels[t])
	}
}

// need is the least cost the classes from layer pos on add to hex t's
// state j so it reaches its level.
func (ls *levelSearch) need(t, pos int, j int32) float64 {
	return ls.tab[t][ls.slot(t, pos, j)]
}

// slot is where hex t's state j of layer pos, at its level, sits in tab
// (and in priced, laid out alike).
func (ls *levelSearch) slot(t, pos int, j int32) int {
	return (ls.off[t][pos]+int(j))*ls.nl[t] + ls.lv[t]
}

// above is a cost above what every unit sent costs: any reachable
// combination is cheaper.
func (ls *levelSearch) above() float64 { return ls.rest[0] + 1 }

// bound is the bound of the node at layer pos whose hexes' states are idx,
// costing cost so far: cost plus each hex's need, and the hexes already
// at their level; ok is false when the node cannot beat m, or its hexes'
// needs are more than the classes to come cost in all (they are met by
// disjoint items).
func (ls *levelSearch) bound(pos int, idx []int32, cost float64) (lb float64, done uint64, ok bool) {
	lb = cost
	for t := range ls.nt {
		n := ls.need(t, pos, idx[t])
		// At its level when its state already reaches it: a need of 0
		// alone may be items costing nothing (cost: 0) still to send.
		if n == 0 && ls.need(t, ls.nc, ls.hexes[t].fin[pos][idx[t]]) == 0 {
			done |= 1 << t
		}
		lb += n
		if lb >= ls.m-costTol || lb-cost > ls.rest[pos]+costTol {
			return lb, done, false
		}
	}
	if ls.priced != nil && ls.pricedBound(pos, idx, cost) >= ls.m-costTol {
		return lb, done, false
	}
	return lb, done, true
}

// solve looks for an assignment reaching the levels of combination code
// for less than m (by more than costTol), lowering ls.m from m to the
// least such cost; it reports whether it found one. It is the values'
// search whatever ls is used for: a search for forces (ls.tie) is set
// aside meanwhile.
func (ls *levelSearch) solve(code int, levels [][]float64, m float64) bool {
	tie := ls.tie
	ls.tie = nil
	defer func() { ls.tie = tie }()
	ls.setLevels(code, levels)
	ls.m = m
	ls.found = false
	clear(ls.x)
	ls.memo.next()
	if lb, done, ok := ls.bound(0, ls.root, 0); ok {
		ls.node(0, 0, lb, done, ls.root)
	}
	return ls.found
}

// node is the search at layer pos from the hexes' states idx, the
// assignment so far costing cost, its bound lb and done its hexes at
// their level.
func (ls *levelSearch) node(pos int, cost, lb float64, done uint64, idx []int32) {
	if ls.cancelled() {
		return
	}
	if done == 1<<ls.nt-1 {
		// Every hex at its level already: sending more costs no less.
		ls.m, ls.found = cost, true
		copy(ls.best, ls.x)
		return
	}
	if pos == ls.nc || ls.memo.seen(pos, idx, cost) {
		return
	}
	c := ls.children(pos, idx, cost, done)
	nt := ls.nt
	for _, k := range ls.kids[pos] {
		if k.lb >= ls.m-costTol {
			break // the rest bound no less
		}
		ls.take(pos, c, k)
		ls.node(pos+1, k.cost, k.lb, k.done, ls.kidIdx[pos][k.n*nt:(k.n+1)*nt])
	}
	ls.untake(c)
}

// children lists the children of the node at layer pos (its hexes'
// states idx, cost so far cost, done its hexes at their level) into
// kids[pos], by their bound (in the search for forces, by their losses'
// bound first), and returns the layer's class.
func (ls *levelSearch) children(pos int, idx []int32, cost float64, done uint64) int {
	c := ls.fs.order[pos]
	ls.kids[pos], ls.kidIdx[pos], ls.kidX[pos] = ls.kids[pos][:0], ls.kidIdx[pos][:0], ls.kidX[pos][:0]
	for t, h := range ls.hexes {
		ls.idx[t] = h.trans[pos][h.start[pos][idx[t]]] // sending nothing
	}
	if ls.tie != nil {
		ls.tie.begin(pos)
	}
	clear(ls.ks)
	ls.gather(pos, c, 0, len(ls.fs.p.classes[c].items), 0, idx, cost, done)
	slices.SortFunc(ls.kids[pos], func(a, b levelKid) int {
		// The least bound first; among equals the one spending more now.
		return cmp.Or(cmp.Compare(a.lost, b.lost), cmp.Compare(a.lb, b.lb), cmp.Compare(b.cost, a.cost), a.n-b.n)
	})
	return c
}

// take sets the assignment grown to child k of the node at layer pos
// (class c).
func (ls *levelSearch) take(pos, c int, k levelKid) {
	nt := ls.nt
	for t := range nt {
		ls.x[t*ls.nc+c] = ls.kidX[pos][k.n*nt+t]
	}
	if ls.tie != nil {
		copy(ls.tie.cur[pos+1], ls.tie.kidF[pos][k.n*nt:(k.n+1)*nt])
	}
}

// untake sends none of class c again.
func (ls *levelSearch) untake(c int) {
	for t := range ls.nt {
		ls.x[t*ls.nc+c] = 0
	}
}

// gather lists the children of the node at layer pos (hexes' states idx,
// cost so far cost, done its hexes at their level): class c's items sent
// to the hexes it can attack from the j-th on, at most left more, sent
// already sent to those before. A hex at its level gets nothing: an item
// sent there could be kept instead, for no more cost (in the search for
// forces, for less: only when every item costs something, skipDone).
func (ls *levelSearch) gather(pos, c, j, left, sent int, idx []int32, cost float64, done uint64) {
	ts := ls.fs.allowed[c]
	if j == len(ts) {
		kc := cost + ls.add[c][sent]
		lb, kd, ok := ls.bound(pos+1, ls.idx, kc)
		if !ok {
			return
		}
		k := levelKid{lb: lb, cost: kc, done: kd, n: len(ls.kids[pos])}
		if lt := ls.tie; lt != nil {
			if k.lost = lt.lostBound(ls, pos+1, lt.f, ls.idx, lb); lt.found && k.lost > lt.lost+costTol {
				lt.lostCut = true
				return
			}
		}
		ls.kids[pos] = append(ls.kids[pos], k)
		ls.kidIdx[pos] = append(ls.kidIdx[pos], ls.idx...)
		ls.kidX[pos] = append(ls.kidX[pos], ls.ks...)
		if ls.tie != nil {
			ls.tie.kidF[pos] = append(ls.tie.kidF[pos], ls.tie.f...)
		}
		return
	}
	t := ts[j]
	if done&(1<<t) != 0 && (ls.tie == nil || ls.tie.skipDone) {
		ls.gather(pos, c, j+1, left, sent, idx, cost, done)
		return
	}
	h := ls.hexes[t]
	base := h.start[pos][idx[t]]
	for k := range left + 1 {
		ls.idx[t] = h.trans[pos][base+int32(k)]
		ls.ks[t] = uint8(k)
		if ls.tie != nil {
			ls.tie.send(pos, t, k)
		}
		ls.gather(pos, c, j+1, left-k, sent+k, idx, cost, done)
	}
	ls.idx[t], ls.ks[t] = h.trans[pos][base], 0
	if ls.tie != nil {
		ls.tie.send(pos, t, 0)
	}
}

// has reports whether the node (pos, idx) was remembered in this search
// at cost or less.
func (m *levelMemo) has(pos int, idx []int32, cost float64) bool {
	s, ok := m.find(pos, idx)
	return ok && m.cost[s] <= cost
}

// put remembers the node (pos, idx) at cost, unless it is remembered at
// no more.
func (m *levelMemo) put(pos int, idx []int32, cost float64) {
	if s, ok := m.find(pos, idx); !ok || m.cost[s] > cost {
		m.set(s, pos, idx, cost)
	}
}

// find is the slot of the node (pos, idx) and whether it holds that node
// in this search.
func (m *levelMemo) find(pos int, idx []int32) (int, bool) {
	s := nodeSlot(uint64(pos)*0x9e3779b97f4a7c15, idx, len(m.cost))
	k := m.keys[s*(m.nt+1) : (s+1)*(m.nt+1)]
	return s, m.stamp[s] == m.now && k[0] == int32(pos) && slices.Equal(k[1:], idx)
}

// set writes the node (pos, idx) at cost into slot s.
func (m *levelMemo) set(s, pos int, idx []int32, cost float64) {
	k := m.keys[s*(m.nt+1) : (s+1)*(m.nt+1)]
	m.stamp[s], k[0], m.cost[s] = m.now, int32(pos), cost
	copy(k[1:], idx)
}

// nodeSlot hashes a node's states idx, after seed (its layer and what
// else keys it), to one of slots slots.
func nodeSlot(seed uint64, idx []int32, slots int) int {
	h := seed
	for _, j := range idx {
		h = (h ^ uint64(uint32(j))) * 0xbf58476d1ce4e5b9
	}
	h ^= h >> 31
	return int(h % uint64(slots))
}

// levelMemoSlots is how many nodes levelMemo remembers.
const levelMemoSlots = 1 << 16

// levelMemo remembers, for the nodes of one search, the least cost each
// was reached at: a node reached again for no less is not searched again,
// since what its classes to come can add depends on its layer and hexes'
// states only, and the first visit (its subtree searched whole, against
// an m no lower) found every completion cheaper than m. It forgets: a
// slot holds the last node hashed to it, so it only ever prunes a node it
// has seen.
type levelMemo struct {
	nt    int
	keys  []int32 // by slot: the layer, then the hexes' states
	cost  []float64
	stamp []uint32 // by slot: the search that wrote it
	now   uint32
}

func newLevelMemo(nt, slots int) levelMemo {
	return levelMemo{nt: nt, keys: make([]int32, slots*(nt+1)), cost: make([]float64, slots), stamp: make([]uint32, slots)}
}

// next starts a search: every slot written before is forgotten.
func (m *levelMemo) next() { m.now++ }

// seen reports whether the node (pos, idx) was reached in this search
// for at most cost, and otherwise remembers it at cost.
func (m *levelMemo) seen(pos int, idx []int32, cost float64) bool {
	s, ok := m.find(pos, idx)
	if ok && m.cost[s] <= cost {
		return true
	}
	m.set(s, pos, idx, cost)
	return false
}
