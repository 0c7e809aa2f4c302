package plan

import (
	"bytes"
	"errors"
	"slices"
)

// The forces of deciding hexes' frontier (frontlevels.go), a first
// version measured for issue 25. The front search reports at each
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
// Listing them all is too many on a large front (ties are many: units of
// the same factors change places), so the search also tracks each hex's
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
	pl     *planner
	fs     *frontSearch
	full   []*hexBound // by hex: its one-hex search keyed by full state
	found  bool
	lost   float64
	size   int
	x      []uint8
	leaves int64
	err    error
	// cur[pos]: the hexes' full states of the node searched at layer
	// pos; f: a child's; kidF[pos]: the children's (nt each).
	cur  [][]int32
	f    []int32
	kidF [][]int32
	memo tieMemo
	// skipDone: every item costs more than costTol, so no assignment of
	// a point's cost sends an item to a hex at its level already (kept
	// instead, the rest would reach the levels for less than the point).
	skipDone bool
}

// levelForces sets each point's assignment to the front search's, from
// the combinations list (value, lower bound, code) of levels.
func (ls *levelSearch) levelForces(pl *planner, pts []levelPoint, list []levelCombo, levels [][]float64, st *levelStats) error {
	lt := &levelTie{pl: pl, fs: ls.fs, x: make([]uint8, ls.nt*ls.nc), f: make([]int32, ls.nt),
		cur: make([][]int32, ls.nc+1), kidF: make([][]int32, ls.nc)}
	for i := range lt.cur {
		lt.cur[i] = make([]int32, ls.nt)
	}
	// Each hex's one-hex search keyed by full state (normalise with a
	// cost in losses), and its final states weighed.
	fb := &frontBound{pl: pl, fs: ls.fs, lossCost: true}
	for t := range ls.nt {
		h := &hexBound{t: t, sp: ls.fs.sps[t], lay: ls.fs.lays[t]}
		h.kl = &layout{words: h.lay.words}
		if err := fb.forward(h); err != nil {
			return err
		}
		if err := fb.weigh(h); err != nil {
			return err
		}
		lt.full = append(lt.full, h)
	}
	lt.memo = newTieMemo(ls.nt, ls.nc, tieMemoSlots)
	lt.skipDone = true
	for c := range ls.nc {
		lt.skipDone = lt.skipDone && ls.add[c][1] > costTol
	}
	ls.tie = lt
	defer func() { ls.tie = nil }()
	nodes := ls.nodes
	for i := range pts {
		pt := &pts[i]
		lt.found = false
		for _, cb := range list {
			if !near(cb.value, pt.value, valueTol) || cb.lb > pt.cost+costTol {
				continue
			}
			if err := ls.fs.ctx.Err(); err != nil {
				return err
			}
			st.TieSearches++
			ls.setLevels(cb.code, levels)
			// Only assignments costing no more than the point (to
			// within costTol) are listed.
			ls.m = pt.cost + 2*costTol
			clear(ls.x)
			clear(lt.cur[0]) // every hex at its base
			lt.memo.next()
			before, leaves := ls.nodes, lt.leaves
			if lb, done, ok := ls.bound(0, ls.root, 0); ok {
				ls.node(0, 0, lb, done, ls.root)
			}
			if levelTrace != nil {
				levelTrace(cb.value, cb.lb, pt.cost, ls.nodes-before, lt.leaves > leaves)
			}
			if lt.err != nil {
				return lt.err
			}
		}
		if !lt.found {
			return errors.New("plan: deciding hexes: no assignment of a frontier point's cost and value")
		}
		copy(pt.x, lt.x)
	}
	st.TieNodes, st.TieLeaves = ls.nodes-nodes, lt.leaves
	return nil
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
	size := 0
	for _, k := range ls.x {
		size += int(k)
	}
	return lt.memo.seen(pos, size, lt.cur[pos], cost, ls.x)
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
	for t, h := range lt.full {
		n := counts(ls.x[t*nc : (t+1)*nc]).size()
		if n == 0 {
			continue
		}
		size += n
		j := lt.cur[nc][t]
		v := h.finEval[j]
		if v == nil {
			lt.err = errors.New("plan: deciding hexes: an attack with no weighed combat")
			return
		}
		lf, err := h.lay.factorsLost(h.sp, v, h.layers[nc].key(int(j)))
		if err != nil {
			lt.err = err
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
	h := uint64(pos)*0x9e3779b97f4a7c15 ^ uint64(size)*0xd6e8feb86659fd93
	for _, j := range f {
		h = (h ^ uint64(uint32(j))) * 0xbf58476d1ce4e5b9
	}
	h ^= h >> 31
	s := int(h % uint64(len(m.cost)))
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
