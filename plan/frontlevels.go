package plan

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/wifodds/wifodds/scenario"
)

// A measured prototype for issue 25 (a front of 4 hexes x 24 units): the
// front's frontier VALUES and COSTS found by "deciding hexes", off unless
// its own tests call it; the planner does not use it.
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
// far tighter than the front search's over all targets at once).
//
// Not covered: chance objectives, costs in expected losses, requires,
// a shared support pool, max_units and committed units (each refused
// with an error), and the frontier's forces: the tie-break among the
// assignments of a point (least expected factors lost, then fewer
// units, then the walk's order) is not sought, so only the frontier's
// costs and values are the planner's.

// levelPoint is a frontier point: its cost and value, and the assignment
// the branch and bound found for it (target-major counts, not the
// planner's tie-broken force).
type levelPoint struct {
	cost, value float64
	x           []uint8
}

// levelStats says what the prototype did.
type levelStats struct {
	Levels []int // by target: its distinct P levels, 0 included
	Combos int   // combinations of levels worth more than nothing
	Skip   int   // skipped by their lower bound
	Solved int   // searched by branch and bound
	Nodes  int64 // the branch and bound's nodes
	States int   // the hexes' one-hex states, every layer
}

// levelTrace, when set (by tests), sees each combination searched: its
// value, lower bound, the least cost known after it, the nodes its search
// visited and whether it found a cheaper assignment.
var levelTrace func(value, lb, m float64, nodes int64, found bool)

// maxLevelCombos bounds the combinations the prototype lists.
const maxLevelCombos = 1 << 24

// frontLevels is the frontier of pl's front by deciding hexes, cheapest
// first.
func (pl *planner) frontLevels() ([]levelPoint, levelStats, error) {
	var st levelStats
	s := pl.s
	switch {
	case s.Plan.Cost == scenario.ExpectedFactorsLost || s.Plan.Cost == scenario.ExpectedUnitsLost:
		return nil, st, errors.New("plan: deciding hexes takes a committed cost only")
	case s.Plan.IsChance():
		return nil, st, errors.New("plan: deciding hexes takes the expected hexes only")
	case hasRequires(s.Targets):
		return nil, st, errors.New("plan: deciding hexes takes no requires")
	case s.Plan.MaxUnits > 0:
		return nil, st, errors.New("plan: deciding hexes takes no max_units")
	case len(pl.e.commit) > 0:
		return nil, st, errors.New("plan: deciding hexes takes no committed units")
	}
	p := pl.e.pool
	for _, it := range p.items {
		if it.Unit == nil {
			return nil, st, errors.New("plan: deciding hexes takes no support pool")
		}
	}
	fs, _, values, _, err := pl.newFrontSearch()
	if err != nil {
		return nil, st, err
	}
	nt, nc := len(fs.sps), len(p.classes)
	fb := &frontBound{pl: pl, fs: fs, values: values}
	fb.scratch(nt, nc)
	add, err := fb.hexBounds()
	if err != nil {
		return nil, st, err
	}
	ls := &levelSearch{fs: fs, hexes: fb.hexes, add: add, nt: nt, nc: nc}
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
		least[t] = make([]float64, len(lv))
		for i, l := range lv {
			least[t][i] = ls.need(t, 0, 0, l)
		}
		st.Levels = append(st.Levels, len(lv))
		if combos *= len(lv); combos > maxLevelCombos {
			return nil, st, fmt.Errorf("plan: deciding hexes: more than %d combinations of levels", maxLevelCombos)
		}
	}
	// Every combination worth something, by value (highest first), then
	// by its lower bound.
	type combo struct {
		value, lb float64
		code      int
	}
	list := make([]combo, 0, combos)
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
			list = append(list, combo{value, lb, code})
		}
	}
	slices.SortFunc(list, func(a, b combo) int {
		switch {
		case a.value > b.value:
			return -1
		case a.value < b.value:
			return 1
		case a.lb < b.lb:
			return -1
		case a.lb > b.lb:
			return 1
		}
		return a.code - b.code
	})
	st.Combos = len(list)
	// m starts above what every unit sent costs: any reachable
	// combination is cheaper.
	total := 0.0
	for c := range nc {
		total += add[c][len(add[c])-1]
	}
	ls.m = total + 1
	ls.init()
	var pts []levelPoint
	for n, cb := range list {
		if n%4096 == 0 {
			if err := fs.ctx.Err(); err != nil {
				return nil, st, err
			}
		}
		if cb.lb >= ls.m-costTol {
			st.Skip++
			continue
		}
		st.Solved++
		r := cb.code
		for t := range nt {
			ls.lv[t] = levels[t][r%len(levels[t])]
			r /= len(levels[t])
		}
		before := ls.nodes
		ok := ls.solve()
		if levelTrace != nil {
			levelTrace(cb.value, cb.lb, ls.m, ls.nodes-before, ok)
		}
		if !ok {
			continue
		}
		pt := levelPoint{cost: ls.m, value: cb.value, x: slices.Clone(ls.best)}
		// A cheaper point worth as much takes the last one's place.
		if k := len(pts) - 1; k >= 0 && near(pts[k].value, pt.value, valueTol) {
			pts[k] = pt
		} else {
			pts = append(pts, pt)
		}
	}
	st.Nodes = ls.nodes
	slices.Reverse(pts)
	return pts, st, nil
}

// levelSearch is the branch and bound for one combination's least cost:
// the classes taken in the front search's order, each class's items
// split among the hexes it can attack; a hex's state is its index in its
// one-hex search's layer.
type levelSearch struct {
	fs     *frontSearch
	hexes  []*hexBound
	add    [][]float64 // add[c][k]: what k items of class c cost
	nt, nc int
	lv     []float64 // by hex: the level to reach
	m      float64   // the least cost known: only a cheaper one counts
	found  bool
	idx    [][]int32 // by layer: the hexes' states
	x      []uint8   // the assignment grown (target-major)
	best   []uint8   // the assignment of the last cost found
	rest   []float64 // by layer: the most the classes to come cost
	done   []bool    // by hex: at its level sending nothing more
	doneAt [][]bool  // by layer: done, as the layer's node found it
	nodes  int64
}

func (ls *levelSearch) init() {
	ls.lv = make([]float64, ls.nt)
	ls.idx = make([][]int32, ls.nc+1)
	for i := range ls.idx {
		ls.idx[i] = make([]int32, ls.nt) // layer 0: every hex at its base, state 0
	}
	ls.x = make([]uint8, ls.nt*ls.nc)
	ls.done = make([]bool, ls.nt)
	ls.doneAt = make([][]bool, ls.nc+1)
	for i := range ls.doneAt {
		ls.doneAt[i] = make([]bool, ls.nt)
	}
	ls.rest = make([]float64, ls.nc+1)
	for pos := ls.nc - 1; pos >= 0; pos-- {
		c := ls.fs.order[pos]
		ls.rest[pos] = ls.rest[pos+1] + ls.add[c][len(ls.add[c])-1]
	}
	ls.best = make([]uint8, ls.nt*ls.nc)
}

// need is the least cost the classes from layer pos on add to hex t's
// state j so it reaches P >= l: the first point of its staircase (cost
// and P rising) reaching l, or +Inf.
func (ls *levelSearch) need(t, pos int, j int32, l float64) float64 {
	st := ls.hexes[t].stairs[pos].at(int(j))
	i := sort.Search(len(st), func(i int) bool { return st[i].p >= l })
	if i == len(st) {
		return math.Inf(1)
	}
	return st[i].cost
}

// solve looks for an assignment reaching every hex's level for less than
// m (by more than costTol), lowering m to the least such cost; it
// reports whether it found one.
func (ls *levelSearch) solve() bool {
	ls.found = false
	clear(ls.x)
	ls.node(0, 0)
	return ls.found
}

// node is the search at layer pos, the assignment so far costing cost.
func (ls *levelSearch) node(pos int, cost float64) {
	ls.nodes++
	cur := ls.idx[pos]
	lb, done := cost, true
	for t := range ls.nt {
		n := ls.need(t, pos, cur[t], ls.lv[t])
		ls.done[t] = n == 0
		lb += n
		// The hexes' needs are met by disjoint items of the classes to
		// come, which cost at most rest[pos] in all.
		if lb >= ls.m-costTol || lb-cost > ls.rest[pos]+costTol {
			return
		}
		if n > 0 {
			done = false
		}
	}
	if done {
		// Every hex at its level already: sending more costs no less.
		ls.m, ls.found = cost, true
		copy(ls.best, ls.x)
		return
	}
	if pos == ls.nc {
		return // unreachable: a last layer's need is 0 or +Inf
	}
	copy(ls.doneAt[pos], ls.done)
	c := ls.fs.order[pos]
	next := ls.idx[pos+1]
	for t, h := range ls.hexes {
		next[t] = h.trans[pos][h.start[pos][cur[t]]] // sending nothing
	}
	ls.split(pos, c, 0, len(ls.fs.p.classes[c].items), 0, cost)
}

// split sends class c's items to the hexes it can attack from the j-th
// on, at most left more, sent already sent to those before.
func (ls *levelSearch) split(pos, c, j, left, sent int, cost float64) {
	ts := ls.fs.allowed[c]
	if j == len(ts) {
		ls.node(pos+1, cost+ls.add[c][sent])
		return
	}
	t := ts[j]
	if ls.doneAt[pos][t] {
		// The hex is at its level sending nothing more: an item sent
		// there could be kept instead, for no more cost.
		ls.split(pos, c, j+1, left, sent, cost)
		return
	}
	h := ls.hexes[t]
	base := h.start[pos][ls.idx[pos][t]]
	next := ls.idx[pos+1]
	xi := t*ls.nc + c
	for k := range left + 1 {
		next[t] = h.trans[pos][base+int32(k)]
		ls.x[xi] = uint8(k)
		ls.split(pos, c, j+1, left-k, sent+k, cost)
	}
	ls.x[xi] = 0
	next[t] = h.trans[pos][base]
}
