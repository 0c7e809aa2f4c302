package plan

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/wifodds/wifodds/scenario"
)

// A front's search prunes its states by a bound (docs/planner.md, "A
// search over the front's states"). Each assignment the search grows (the
// classes so far assigned, the classes to come sending nothing) is a point
// the frontier could list. Before it becomes a new state of the next
// layer, the bound asks of it, X: can any completion of X (X plus some
// assignment of the classes to come) still reach the frontier? For each
// target it knows, from the target's own one-hex search over the classes
// to come with every unit that can reach it (disjointness relaxed), the
// most P(hex taken) X's state of that hex can still reach at each cost
// added (or, when the cost is an expected loss, at each loss at that hex).
// A committed cost adds up class by class, and a class's k cheapest items
// sent to each hex cost no more than the items it really sends, so the
// per-hex staircases bound every completion. With them:
//   - expected hexes: the value is a sum over hexes, so what a completion
//     reaches at a cost is at most the best split of that cost among the
//     hexes' upper concave envelopes (a greedy merge by slope), and, when
//     the staircases are short, at most their max-plus sum;
//   - a chance objective: the chance is monotone in each hex's P, so it is
//     at most the chance with each hex at the most it reaches alone within
//     what the cost leaves after the other hexes' cheapest. The front also
//     reports the expected hexes' plan, so X must fail both bounds.
//
// X is dropped when, for every cost its completions can have, a point
// already known (an assignment the search or a seeding beam met, sent as
// it is) costs no more and is worth more than the bound by pruneMargin.
// The margin is a thousand times the tolerance the frontier compares
// values in, so a completion dropped is worse than that point beyond any
// tie: the frontier, whose ties break on losses, units and the walk's
// order, would list it under no order of offering, and nothing it could
// displace survives it either (what it dominates the point dominates too).
//
// Where the bound is the staircases' exact sum (stairsBeaten), a
// completion is also beaten by a known point that is cheaper than it by
// pruneCostMargin and worth no less than the bound, compared exactly: the
// same argument with cost and value exchanged. The bound's sum is the
// frontier's own sum (each hex's value times its P, hex by hex from 0),
// of P's no lower than the completion's, and rounding is monotone, so
// the completion's value as the frontier computes it is no more than the
// bound's; being dearer by a thousand times the frontier's cost
// tolerance, it is dominated by that point beyond any tie, and what it
// dominates (no cheaper than it less the tolerance, worth no more than it
// plus the value tolerance) that point dominates too. These ties are
// most of what a large front keeps at its last layers: assignments
// worth what a cheaper one known is worth, one unit moved between hexes
// at no gain (docs/performance.md).
// Dropping never changes the answer (TestPrunedFrontIsReference,
// TestPrunedFrontIsTupleSearch, TestPrunedFrontObjectiveIsBruteForce).

// pruneMargin is how much better than a completion's bound the known point
// must be. The frontier's ties are within valueTol (1e-12); sums in other
// orders differ by far less than the margin.
const pruneMargin = 1e-9

// pruneCostMargin is how much cheaper than a completion a known point
// worth no less than its bound must be: a thousand times the tolerance
// the frontier compares costs in (costTol), far above what costs summed
// in other orders differ by.
const pruneCostMargin = 1e-6

// pruneTies: known points cheaper by pruneCostMargin and worth no less
// beat a completion (beats). Tests turn it off to see what it drops.
var pruneTies = true

// pruneFrom is the layer size from which the front's search prunes: a
// small front's search is quicker whole than the bound's one-hex searches
// (and its report's counts stay those of the whole search). Tests set it
// to 0 to prune every layer.
var pruneFrom = 1 << 14

// boundBuilt, when set (by tests), is told of each bound built.
var boundBuilt func(*frontBound)

// bpoint is a point of a staircase or envelope: a cost and a value.
type bpoint struct{ cost, p float64 }

// frontBound holds, per target, the states of the target's one-hex search
// after each class and the staircase of each, and the points known.
type frontBound struct {
	pl    *planner
	fs    *frontSearch
	hexes []*hexBound
	// lossCost: the cost is an expected loss, read from each hex's final
	// state; otherwise it is committed and adds up class by class.
	lossCost bool
	values   []float64
	obj      *objective
	pruned   int        // states dropped
	climbed  int        // polish's climbs that found a better assignment
	tops     []climbTop // where the climbs ended (anneal's starts)
	annealed bool       // anneal made the points known better
	// rechecked: batched checks made again after the points known changed
	rechecked int
	bytes     int // the staircases' memory
	// rest[c]: the most the classes from c on add to a committed cost.
	rest []float64
	// Points known: the expected hexes, and the objective's chance.
	known, knownChance incumbent
	// Scratch.
	total counts
	ps    []float64
	norm  []uint64
	// The hexes' states (indices in their layers) of the current layer's
	// states, of the next's, of the parent and of the assignment offered.
	layer         int
	cur, next     []int32
	parent, child []int32
	acc, tmp      []bpoint
	hulls         [][]bpoint
	stairs        [][]bpoint
	ptr           []int
}

// hexBound is one target's part of the bound.
type hexBound struct {
	t      int
	sp     *stateSpace
	lay    *layout
	kl     *layout   // the normalised keys'
	layers []*states // by layer: the target's states after the first c classes
	// trans[c][start[c][i]+k] is the state state i of layer c reaches with
	// k items of class c.
	trans, start [][]int32
	fin          [][]int32 // by layer: the final state the same state is
	finP         []float64 // by final state: P(hex taken), 0 for no attack
	finEval      []*Eval   // by final state, nil for no attack
	stairs       []flat    // by layer, by state
	hulls        []flat    // the upper concave envelopes of value × P
}

// newFrontBound builds the bound for fs's search: each target's one-hex
// search over every class that can reach it (within plan.max_units for the
// hex alone), one weighing per distinct combat, and the staircases.
func newFrontBound(pl *planner, fs *frontSearch, values []float64, obj *objective) (*frontBound, error) {
	m := pl.s.Plan.Cost
	fb := &frontBound{pl: pl, fs: fs, values: values, obj: obj,
		lossCost: m == scenario.ExpectedFactorsLost || m == scenario.ExpectedUnitsLost}
	nt, nc := len(fs.sps), len(fs.p.classes)
	fb.scratch(nt, nc)
	fb.layer = -1
	add, err := fb.hexBounds()
	if err != nil {
		return nil, err
	}
	// The most the classes from c on can add to a committed cost.
	fb.rest = make([]float64, nc+1)
	for pos := nc - 1; pos >= 0; pos-- {
		c := fs.order[pos]
		fb.rest[pos] = fb.rest[pos+1] + add[c][len(add[c])-1]
	}
	fb.norm = make([]uint64, fs.l.words)
	if err := fb.seed(); err != nil {
		return nil, err
	}
	if boundBuilt != nil {
		boundBuilt(fb)
	}
	return fb, nil
}

// hexBounds builds each target's part of the bound: the target's own
// one-hex search over every class that can reach it, one weighing per
// distinct combat, and the staircases. add[c][k] is what k items of class
// c add to a committed cost.
func (fb *frontBound) hexBounds() (add [][]float64, err error) {
	fs, pl := fb.fs, fb.pl
	nt, nc := len(fs.sps), len(fs.p.classes)
	// What k items of class c add to a committed cost: its k cheapest
	// under build points. Summed over the hexes this is at most what the
	// class adds to the whole assignment (prefix sums of ascending costs
	// are superadditive), so each hex's staircase stays an upper bound.
	add = make([][]float64, nc)
	x := make(counts, nc)
	for c := range add {
		add[c] = make([]float64, len(fs.p.classes[c].items)+1)
		for k := range add[c] {
			x[c] = uint8(k)
			add[c][k] = pl.costOf(x, 0, 0)
		}
		x[c] = 0
	}
	for t := range nt {
		if err := fs.ctx.Err(); err != nil {
			return nil, err
		}
		h, err := fb.oneHex(t)
		if err != nil {
			return nil, err
		}
		if err := fb.backward(h, add); err != nil {
			return nil, err
		}
		fb.hexes = append(fb.hexes, h)
	}
	return add, nil
}

// oneHex is target t's one-hex search over every class, its states keyed
// as fb normalises them, and its final states weighed.
func (fb *frontBound) oneHex(t int) (*hexBound, error) {
	fs := fb.fs
	h := &hexBound{t: t, sp: fs.sps[t], lay: fs.lays[t]}
	h.kl = &layout{words: h.lay.words}
	if err := fb.forward(h); err != nil {
		return nil, err
	}
	if err := fb.weigh(h); err != nil {
		return nil, err
	}
	return h, nil
}

// scratch makes the scratch a check of a front of nt targets and nc
// classes works in.
func (fb *frontBound) scratch(nt, nc int) {
	fb.total = make(counts, nc)
	fb.ps = make([]float64, nt)
	fb.hulls = make([][]bpoint, nt)
	fb.stairs = make([][]bpoint, nt)
	fb.ptr = make([]int, nt)
	fb.child = make([]int32, nt)
}

// normalise writes into dst what the bound keys a target's state by: its
// combat when the cost is committed (P depends on nothing else); its
// combat, smallest factors and whether it sends anything when the cost is
// a loss.
func (fb *frontBound) normalise(h *hexBound, dst, key []uint64) {
	if !fb.lossCost {
		masked(dst[:0], key, h.lay.combatBits)
		return
	}
	copy(dst, key)
	if f := h.lay.size; f.width > 0 && f.get(dst) > 1 {
		dst[f.w] &^= (1<<f.width - 1) << f.at
		f.put(dst, 1)
	}
}

// forward runs the target's one-hex search over every class, keeping
// every state (no dominance) and the fewest items reaching it, so the
// states of the front's search at each layer are among its own.
func (fb *frontBound) forward(h *hexBound) error {
	fs := fb.fs
	nc := len(fs.p.classes)
	words := h.lay.words
	buf, nk := make([]uint64, words), make([]uint64, words)
	cur := newStates(h.kl, nc, 1)
	base := h.sp.base
	h.lay.encode(buf, &base)
	fb.normalise(h, nk, buf)
	_, slot := cur.find(nk)
	cur.insert(slot, nk, make([]uint8, nc), 0)
	h.layers = append(h.layers, cur)
	var s stateKey
	x := make([]uint8, nc)
	for _, c := range fs.order {
		if err := fs.ctx.Err(); err != nil {
			return err
		}
		cl := &fs.p.classes[c]
		next := newStates(h.kl, nc, cur.len())
		start := make([]int32, cur.len()+1)
		var trans []int32
		for i := range cur.len() {
			start[i] = int32(len(trans))
			h.lay.decode(cur.key(i), &s)
			copy(x, cur.force(i))
			size := int(cur.bps[i])
			top := 0
			if cl.can[h.t] {
				top = min(len(cl.items), fs.limit-size)
			}
			for k := 0; k <= top; k++ {
				if k > 0 {
					h.sp.add(&s, c, 1)
				}
				x[c] = uint8(k)
				h.lay.encode(buf, &s)
				fb.normalise(h, nk, buf)
				j, slot := next.find(nk)
				switch {
				case j < 0:
					if next.len() >= fs.maxStates {
						return errTooManyStates
					}
					j = next.insert(slot, nk, x, float64(size+k))
				case float64(size+k) < next.bps[j]:
					next.bps[j] = float64(size + k)
					copy(next.force(j), x)
				}
				trans = append(trans, int32(j))
			}
		}
		start[cur.len()] = int32(len(trans))
		h.trans, h.start = append(h.trans, trans), append(h.start, start)
		h.layers = append(h.layers, next)
		cur = next
	}
	// Each layer's state is itself in the final layer (sending nothing
	// more).
	h.fin = make([][]int32, nc+1)
	last := h.layers[nc]
	h.fin[nc] = make([]int32, last.len())
	for i := range h.fin[nc] {
		h.fin[nc][i] = int32(i)
	}
	for c := nc - 1; c >= 0; c-- {
		h.fin[c] = make([]int32, h.layers[c].len())
		for i := range h.fin[c] {
			h.fin[c][i] = h.fin[c+1][h.trans[c][h.start[c][i]]]
		}
	}
	return nil
}

// weigh weighs one force per distinct combat of the target's final
// states. A state of no land unit is no attack: P 0.
func (fb *frontBound) weigh(h *hexBound) error {
	e := fb.pl.e
	last := h.layers[len(h.layers)-1]
	combats := map[string]int{}
	var reps []counts
	which := make([]int, last.len())
	var ck []uint64
	var k string
	for i := range last.len() {
		x := last.force(i)
		if !e.hasUnits(x) {
			which[i] = -1
			continue
		}
		ck, k = h.lay.combatKey(ck, last.key(i))
		j, ok := combats[k]
		if !ok {
			j = len(reps)
			combats[k] = j
			reps = append(reps, x)
		}
		which[i] = j
	}
	evals := make([]*Eval, len(reps))
	const batch = 2048
	for lo := 0; lo < len(reps); lo += batch {
		hi := min(lo+batch, len(reps))
		if err := e.weighAll(h.t, fb.pl.k, reps[lo:hi], evals[lo:hi]); err != nil {
			return err
		}
	}
	h.finP = make([]float64, last.len())
	h.finEval = make([]*Eval, last.len())
	for i, j := range which {
		if j >= 0 {
			h.finEval[i] = evals[j]
			h.finP[i] = evals[j].HexTaken.P
		}
	}
	return nil
}

// backward builds each state's staircase: the most P(hex taken) its
// completions by the classes to come reach, at each cost. The cost is
// what the completion adds when it is committed, or the final state's
// expected loss at this hex.
func (fb *frontBound) backward(h *hexBound, add [][]float64) error {
	stairs, err := fb.staircases(h, add)
	if err != nil {
		return err
	}
	h.stairs = stairs
	h.hulls = make([]flat, len(stairs))
	for c := range h.stairs {
		n := len(h.stairs[c].off) - 1
		f := flat{off: make([]int32, 1, n+1)}
		for i := range n {
			f.pts = envelope(f.pts, h.stairs[c].at(i), fb.values[h.t])
			f.off = append(f.off, int32(len(f.pts)))
		}
		h.hulls[c] = f.clip()
		if fb.bytes += f.size(); fb.bytes > boundMemory {
			return errBoundTooLarge
		}
	}
	return nil
}

// staircases are h's staircases, by layer and state, when k items of
// class c cost add[c][k] (backward; a priced bound's, frontlevelprice.go).
func (fb *frontBound) staircases(h *hexBound, add [][]float64) ([]flat, error) {
	nc := len(fb.fs.p.classes)
	last := h.layers[nc]
	stairs := make([]flat, nc+1)
	f := flat{off: make([]int32, 1, last.len()+1)}
	for i := range last.len() {
		cost, p := 0.0, h.finP[i]
		if fb.lossCost {
			// Sending nothing to the hex is no attack and loses nothing,
			// even with units committed.
			if h.lay.size.get(last.key(i)) == 0 {
				p = 0
			} else {
				var err error
				if cost, err = fb.loss(h, last.key(i), i); err != nil {
					return nil, err
				}
			}
		}
		f.pts = append(f.pts, bpoint{cost, p})
		f.off = append(f.off, int32(len(f.pts)))
	}
	stairs[nc] = f
	var pts, st []bpoint
	for c := nc - 1; c >= 0; c-- {
		lay := h.layers[c]
		f := flat{off: make([]int32, 1, lay.len()+1)}
		for i := range lay.len() {
			pts = pts[:0]
			for k, j := range h.trans[c][h.start[c][i]:h.start[c][i+1]] {
				a := 0.0
				if !fb.lossCost {
					a = add[fb.fs.order[c]][k]
				}
				for _, q := range stairs[c+1].at(int(j)) {
					pts = append(pts, bpoint{q.cost + a, q.p})
				}
			}
			st = staircaseInto(st[:0], pts)
			f.pts = append(f.pts, st...)
			f.off = append(f.off, int32(len(f.pts)))
		}
		stairs[c] = f.clip()
		if fb.bytes += f.size(); fb.bytes > boundMemory {
			return nil, errBoundTooLarge
		}
	}
	return stairs, nil
}

// flat is a list of lists of points: list i is pts[off[i]:off[i+1]].
type flat struct {
	pts []bpoint
	off []int32
}

func (f flat) at(i int) []bpoint { return f.pts[f.off[i]:f.off[i+1]] }
func (f flat) clip() flat        { return flat{slices.Clip(f.pts), slices.Clip(f.off)} }
func (f flat) size() int         { return 16*len(f.pts) + 4*len(f.off) }

// boundMemory bounds what the bound's staircases may hold; past it the
// front's search goes on without the bound (errBoundTooLarge). A
// variable so a test can lower it.
var boundMemory = 64 << 20

var errBoundTooLarge = errors.New("the bound outgrew its memory")

// loss is the expected loss at the hex of final state i (key), as the
// cost counts it; 0 when it is no attack.
func (fb *frontBound) loss(h *hexBound, key []uint64, i int) (float64, error) {
	v := h.finEval[i]
	if v == nil {
		return 0, nil
	}
	if fb.pl.s.Plan.Cost == scenario.ExpectedUnitsLost {
		return v.AttackerUnitsLost, nil
	}
	// The smallest factors are part of the key: the front's own figure.
	return h.lay.factorsLost(h.sp, v, key)
}

// envelope appends to dst the upper concave envelope of staircase st
// with each P times w: at any cost from the first on it is at least the
// staircase's value, and its slopes fall.
func envelope(dst, st []bpoint, w float64) []bpoint {
	n := len(dst)
	hull := dst
	for _, q := range st {
		q.p *= w
		for len(hull)-n >= 2 {
			a, b := hull[len(hull)-2], hull[len(hull)-1]
			// Drop b when it lies on or below the chord from a to q.
			if (b.p-a.p)*(q.cost-a.cost) <= (q.p-a.p)*(b.cost-a.cost) {
				hull = hull[:len(hull)-1]
				continue
			}
			break
		}
		hull = append(hull, q)
	}
	return hull
}

// incumbent is the Pareto set of the points known: cost ascending, value
// strictly rising.
type incumbent struct{ pts []bpoint }

// add offers a point, reporting whether the set changed.
func (in *incumbent) add(cost, value float64) (changed bool) {
	// The first point costing more than cost.
	i, _ := slices.BinarySearchFunc(in.pts, cost, func(q bpoint, c float64) int {
		if q.cost <= c {
			return -1
		}
		return 1
	})
	if i > 0 && in.pts[i-1].p >= value {
		return false
	}
	// Points from i on cost more; drop those worth no more.
	j := i
	for j < len(in.pts) && in.pts[j].p <= value {
		j++
	}
	// A point before i costing the same is worth less: replace it.
	k := i
	if k > 0 && in.pts[k-1].cost == cost {
		k--
	}
	in.pts = slices.Replace(in.pts, k, j, bpoint{cost, value})
	return true
}

// at is the place of the last point costing at most z, or -1.
func (in *incumbent) at(z float64) int {
	i, _ := slices.BinarySearchFunc(in.pts, z, func(q bpoint, c float64) int {
		if q.cost <= c {
			return -1
		}
		return 1
	})
	return i - 1
}

// begin starts layer pos+1 from cur, layer pos: the hexes' states of
// cur's states, found once when the bound starts and then carried from
// layer to layer (kept).
func (fb *frontBound) begin(cur *states, pos, room int) error {
	nt := len(fb.hexes)
	fb.room(room)
	if fb.layer == pos {
		return nil
	}
	fb.cur = fb.cur[:0]
	for i := range cur.len() {
		for t, h := range fb.hexes {
			fb.normalise(h, fb.norm[:h.lay.words], fb.fs.sub(cur.key(i), t))
			j, _ := h.layers[pos].find(fb.norm[:h.lay.words])
			if j < 0 {
				return fmt.Errorf("plan: a front's state at hex %d is not among the hex's own states", t)
			}
			fb.cur = append(fb.cur, int32(j))
		}
	}
	fb.layer = pos
	fb.parent = fb.cur[:nt]
	return nil
}

// room makes room for the hexes' states of about n states of the next
// layer.
func (fb *frontBound) room(n int) { fb.next = slices.Grow(fb.next[:0], n*len(fb.hexes)) }

// keep appends to the next layer's hexes' states, doubling when full.
func (fb *frontBound) keep() {
	if len(fb.next)+len(fb.child) > cap(fb.next) {
		fb.next = slices.Grow(fb.next, len(fb.next)+len(fb.child))
	}
	fb.next = append(fb.next, fb.child...)
}

// from takes cur's state i as the parent of the assignments offered next.
func (fb *frontBound) from(i int) {
	nt := len(fb.hexes)
	fb.parent = fb.cur[i*nt : (i+1)*nt]
}

// eval is what hex t's state of the last layer's state i weighs (an
// attack), once the search is done.
func (fb *frontBound) eval(t, i int) *Eval {
	nt := len(fb.hexes)
	return fb.hexes[t].finEval[fb.cur[i*nt+t]]
}

// end makes the next layer the current one.
func (fb *frontBound) end() {
	fb.cur, fb.next = fb.next, fb.cur[:0]
	fb.layer++
}

// beaten offers the assignment xs (its state key, at layer c = the
// parent's + 1, growing the parent by class fs.c) to the points known and
// reports whether no completion of it can reach the frontier.
func (fb *frontBound) beaten(key []uint64, xs []uint8, c int) (bool, error) {
	pt, err := fb.point(key, xs, c)
	if err != nil {
		return false, err
	}
	fb.offerPoint(pt)
	if !fb.verdict(c) {
		return false, nil
	}
	fb.pruned++
	return true, nil
}

// boundPoint is an assignment sent as it is: a point the frontier could
// list when ok.
type boundPoint struct {
	ok                  bool
	cost, value, chance float64
}

// point works out the hexes' states, envelopes and staircases of the
// assignment xs (into fb's scratch: child, hulls, stairs, total) and its
// point as it is sent.
func (fb *frontBound) point(key []uint64, xs []uint8, c int) (boundPoint, error) {
	fs, pl := fb.fs, fb.pl
	nc := len(fs.p.classes)
	attack, sent := true, false
	value, lostU, lostF := 0.0, 0.0, 0.0
	for t, h := range fb.hexes {
		x := counts(xs[t*nc : (t+1)*nc])
		j := h.trans[c-1][h.start[c-1][fb.parent[t]]+int32(x[fs.c])]
		fb.child[t] = j
		fb.hulls[t] = h.hulls[c].at(int(j))
		fb.stairs[t] = h.stairs[c].at(int(j))
		fb.ps[t] = 0
		if x.size() == 0 {
			continue
		}
		sent = true
		if !pl.e.hasUnits(x) {
			attack = false
			continue
		}
		v := h.finEval[h.fin[c][j]]
		if v == nil {
			return boundPoint{}, fmt.Errorf("plan: a front's attack at hex %d has no weighed combat", t)
		}
		fb.ps[t] = v.HexTaken.P
		value += fb.values[t] * v.HexTaken.P
		lostU += v.AttackerUnitsLost
		lf, err := h.lay.factorsLost(h.sp, v, fs.sub(key, t))
		if err != nil {
			return boundPoint{}, err
		}
		lostF += lf
	}
	fs.total(fb.total, xs)
	if !sent || !attack || value <= 0 {
		return boundPoint{}, nil
	}
	pt := boundPoint{ok: true, cost: pl.costOf(fb.total, lostU, lostF), value: value}
	if fb.obj != nil {
		pt.chance = fb.obj.chance(fb.ps)
	}
	return pt, nil
}

// offerPoint adds an assignment's point to the points known, reporting
// whether they changed.
func (fb *frontBound) offerPoint(pt boundPoint) bool {
	if !pt.ok {
		return false
	}
	changed := fb.known.add(pt.cost, pt.value)
	if fb.obj != nil && pt.chance > 0 && fb.knownChance.add(pt.cost, pt.chance) {
		changed = true
	}
	return changed
}

// verdict reports whether no completion of the assignment point last
// worked out (layer c) can reach the frontier, against the points known.
func (fb *frontBound) verdict(c int) bool {
	base, top := 0.0, math.Inf(1) // a loss is counted afresh at the end
	if !fb.lossCost {
		base = fb.pl.costOf(fb.total, 0, 0)
		top = base + fb.rest[c]
	}
	if !fb.expectedBeaten(base, top) {
		if !fb.stairsCheap() || !fb.stairsBeaten(base, top) {
			return false
		}
	}
	if fb.obj != nil && !fb.chanceBeaten(base, top) {
		return false
	}
	return true
}

// expectedBeaten reports whether every completion of the state whose
// hexes' envelopes are fb.hulls, having cost base so far, is beaten by a
// known point by more than pruneMargin in expected hexes. No completion
// costs more than top.
func (fb *frontBound) expectedBeaten(base, top float64) bool {
	z, u := base, 0.0
	for t, h := range fb.hulls {
		z += h[0].cost
		u += h[0].p
		fb.ptr[t] = 0
	}
	pts := fb.known.pts
	ki := fb.known.at(z)
	if ki < 0 {
		return false // a completion costing this little beats every known point
	}
	for ; ki < len(pts); ki++ {
		val := pts[ki].p
		end := math.Inf(1)
		if ki+1 < len(pts) {
			end = pts[ki+1].cost
		}
		// The completions cost at most top: the bound there holds beyond.
		end = min(end, top)
		// The envelope's sum just before end: take segments, steepest
		// first, while they end by end.
		for {
			best, slope := -1, 0.0
			for t, h := range fb.hulls {
				if j := fb.ptr[t]; j+1 < len(h) {
					if s := (h[j+1].p - h[j].p) / (h[j+1].cost - h[j].cost); best < 0 || s > slope {
						best, slope = t, s
					}
				}
			}
			if best < 0 {
				// Every hex at its best: the bound is u from here on, and
				// the known points only rise.
				return u+pruneMargin < val
			}
			h, j := fb.hulls[best], fb.ptr[best]
			dz, du := h[j+1].cost-h[j].cost, h[j+1].p-h[j].p
			if z+dz <= end {
				z, u = z+dz, u+du
				fb.ptr[best]++
				continue
			}
			if u+slope*(end-z)+pruneMargin >= val {
				return false
			}
			break
		}
		if end >= top {
			return true
		}
	}
	return true
}

// chanceBeaten reports whether every completion of the state whose hexes'
// staircases are fb.stairs, having cost base so far, is beaten by a known
// point by more than pruneMargin in the objective's chance: at total cost
// z each hex reaches at most its staircase at z less the others' least.
// No completion costs more than top.
func (fb *frontBound) chanceBeaten(base, top float64) bool {
	least := base
	for t, st := range fb.stairs {
		least += st[0].cost
		fb.ptr[t] = 0
		fb.ps[t] = st[0].p
	}
	z := least
	for {
		ki := fb.knownChance.at(z)
		if ki < 0 || fb.obj.chance(fb.ps)+pruneMargin >= fb.knownChance.pts[ki].p {
			return false
		}
		// The next step of any hex.
		next, which := math.Inf(1), -1
		for t, st := range fb.stairs {
			if j := fb.ptr[t]; j+1 < len(st) {
				if w := least - st[0].cost + st[j+1].cost; w < next {
					next, which = w, t
				}
			}
		}
		if which < 0 || next > top {
			return true
		}
		fb.ptr[which]++
		fb.ps[which] = fb.stairs[which][fb.ptr[which]].p
		z = next
	}
}

// beamPerCost is how many assignments the seeding beam keeps at each
// cost.
const beamPerCost = 64

// seed fills the points known, before the search prunes its first layer,
// with the assignments a beam search finds: the classes taken one at a
// time as the search takes them, each class's items split among its
// hexes, keeping at each cost (to an eighth) the beamPerCost assignments
// worth the most. Every point it adds is an assignment the search weighs
// (sent as it is), so the bound stays exact; the beam only makes the
// points known good from the first layer on, across every cost.
func (fb *frontBound) seed() error {
	fs, pl := fb.fs, fb.pl
	nt := len(fb.hexes)
	type item struct {
		sent, land uint64 // by hex: sends something; sends a land unit
		cost       float64
		units      int
		score      [2]float64
	}
	cur := []item{{}}
	curIdx := make([]int32, nt) // the hexes' states at layer 0: the base
	var next []item
	var nextIdx []int32
	// The items' assignments, hex-major, w bytes each.
	nc := len(fs.p.classes)
	w := nt * nc
	curX := make([]uint8, w)
	var nextX []uint8
	ks := make([]int, nt)
	for pos, c := range fs.order {
		if err := fs.ctx.Err(); err != nil {
			return err
		}
		cl := &fs.p.classes[c]
		isLand := fs.p.items[cl.items[0]].Unit != nil
		next, nextIdx, nextX = next[:0], nextIdx[:0], nextX[:0]
		for n, it := range cur {
			idx := curIdx[n*nt : (n+1)*nt]
			px := curX[n*w : (n+1)*w]
			var rec func(j, left int) error
			rec = func(j, left int) error {
				if j < nt {
					top := 0
					if cl.can[j] {
						top = left
					}
					for k := 0; k <= top; k++ {
						ks[j] = k
						if err := rec(j+1, left-k); err != nil {
							return err
						}
					}
					ks[j] = 0
					return nil
				}
				sent := 0
				o := item{sent: it.sent, land: it.land}
				nextX = append(nextX, px...)
				for t := range nt {
					nextX[len(nextX)-w+t*nc+c] = uint8(ks[t])
				}
				for t, h := range fb.hexes {
					nextIdx = append(nextIdx, h.trans[pos][h.start[pos][idx[t]]+int32(ks[t])])
					if ks[t] > 0 {
						sent += ks[t]
						o.sent |= 1 << t
						if isLand {
							o.land |= 1 << t
						}
					}
				}
				o.units = it.units + sent
				o.cost = it.cost
				if !fb.lossCost {
					o.cost += pl.costOf(oneClass(fb.total, c, sent), 0, 0)
				}
				ok, err := fb.score(&o.score, &o.cost, o.sent, o.land, nextIdx[len(nextIdx)-nt:], pos+1)
				if err != nil {
					return err
				}
				_ = ok
				next = append(next, o)
				return nil
			}
			if err := rec(0, min(len(cl.items), fs.limit-it.units)); err != nil {
				return err
			}
		}
		// Keep the best beamPerCost at each cost.
		order := make([]int, len(next))
		for i := range order {
			order[i] = i
		}
		bucket := func(i int) float64 { return math.Round(next[i].cost * 8) }
		slices.SortFunc(order, func(a, b int) int {
			if ba, bb := bucket(a), bucket(b); ba != bb {
				if ba < bb {
					return -1
				}
				return 1
			}
			for s := range 2 {
				if next[a].score[s] != next[b].score[s] {
					if next[a].score[s] > next[b].score[s] {
						return -1
					}
					return 1
				}
			}
			return a - b
		})
		cur = cur[:0]
		curIdx = curIdx[:0]
		curX = curX[:0]
		run := 0
		for n, i := range order {
			if n > 0 && bucket(i) == bucket(order[n-1]) {
				run++
			} else {
				run = 0
			}
			if run < beamPerCost {
				cur = append(cur, next[i])
				curIdx = append(curIdx, nextIdx[i*nt:(i+1)*nt]...)
				curX = append(curX, nextX[i*w:(i+1)*w]...)
			}
		}
	}
	// The beam's survivors, each climbed to a better assignment nearby.
	starts := make([][]uint8, 0, len(cur))
	for n := range cur {
		starts = append(starts, curX[n*w:(n+1)*w])
	}
	if err := fb.polish(starts); err != nil {
		return err
	}
	return fb.anneal()
}

// oneClass is x holding k items of class c and nothing else.
func oneClass(x counts, c, k int) counts {
	clear(x)
	x[c] = uint8(k)
	return x
}

// score offers an assignment of the beam, its hexes' states idx at layer
// c, to the points known, and sets its score (the objective's chance,
// then the expected hexes) and, when the cost is a loss, its cost. ok is
// false when it is no attack.
func (fb *frontBound) score(score *[2]float64, cost *float64, sent, land uint64, idx []int32, c int) (bool, error) {
	*score = [2]float64{}
	if sent == 0 || sent != land {
		return false, nil
	}
	value, lostU, lostF := 0.0, 0.0, 0.0
	for t, h := range fb.hexes {
		fb.ps[t] = 0
		if sent&(1<<t) == 0 {
			continue
		}
		f := h.fin[c][idx[t]]
		v := h.finEval[f]
		if v == nil {
			return false, nil
		}
		fb.ps[t] = v.HexTaken.P
		value += fb.values[t] * v.HexTaken.P
		lostU += v.AttackerUnitsLost
		if fb.lossCost {
			lf, err := h.lay.factorsLost(h.sp, v, h.layers[c].key(int(idx[t])))
			if err != nil {
				return false, err
			}
			lostF += lf
		}
	}
	if fb.lossCost {
		*cost = lostF
		if fb.pl.s.Plan.Cost == scenario.ExpectedUnitsLost {
			*cost = lostU
		}
	}
	score[1] = value
	if value > 0 {
		fb.known.add(*cost, value)
	}
	if fb.obj != nil {
		if ch := fb.obj.chance(fb.ps); ch > 0 && value > 0 {
			score[0] = ch
			fb.knownChance.add(*cost, ch)
		}
	}
	return true, nil
}

// stairsBeaten reports whether every completion of the state whose hexes'
// staircases are fb.stairs, having cost base so far and costing at most
// top, is beaten by a known point in expected hexes, by more than
// pruneMargin or, cheaper by pruneCostMargin, by no less (beats): the
// staircases' sums over every choice of one point per hex (max-plus,
// Pareto-reduced hex by hex), each against the known points at its cost.
// The sums are the frontier's (a.p + w*q.p hex by hex from 0), so a
// completion's value as the frontier sums it is no more than its sum's.
func (fb *frontBound) stairsBeaten(base, top float64) bool {
	acc := append(fb.acc[:0], bpoint{base, 0})
	for t, st := range fb.stairs {
		w := fb.values[t]
		fb.tmp = fb.tmp[:0]
		for _, a := range acc {
			for _, q := range st {
				if c := a.cost + q.cost; c <= top {
					fb.tmp = append(fb.tmp, bpoint{c, a.p + w*q.p})
				}
			}
		}
		acc = staircaseInto(acc[:0], fb.tmp)
		if len(acc) > maxStairs {
			fb.acc = acc
			return false // too dear to prove: the envelope's answer stands
		}
	}
	fb.acc = acc
	for _, a := range acc {
		if !fb.known.beats(a) {
			return false
		}
	}
	return true
}

// beats reports whether a point known beats every completion costing at
// least a.cost and worth, as the frontier sums it, at most a.p, a being
// an exact sum of the hexes' staircases: one costing no more and worth
// more than a.p by pruneMargin, or one cheaper by pruneCostMargin and
// worth no less than a.p.
func (in *incumbent) beats(a bpoint) bool {
	if ki := in.at(a.cost); ki >= 0 && a.p+pruneMargin < in.pts[ki].p {
		return true
	}
	ki := in.at(a.cost - pruneCostMargin)
	return pruneTies && ki >= 0 && in.pts[ki].p >= a.p
}

// stairsCheap reports whether the hexes' staircases have at most
// maxCombos choices of one point per hex: stairsBeaten is then cheap.
func (fb *frontBound) stairsCheap() bool {
	n := 1
	for _, st := range fb.stairs {
		if n *= len(st); n > maxCombos {
			return false
		}
	}
	return true
}

// maxCombos bounds the choices stairsBeaten weighs.
const maxCombos = 4096

// maxStairs bounds the points stairsBeaten carries from hex to hex, so a
// wide front's check stays cheap.
const maxStairs = 128

// staircaseInto is staircase(pts) written into dst.
func staircaseInto(dst, pts []bpoint) []bpoint {
	slices.SortFunc(pts, func(a, b bpoint) int {
		switch {
		case a.cost < b.cost:
			return -1
		case a.cost > b.cost:
			return 1
		case a.p > b.p:
			return -1
		case a.p < b.p:
			return 1
		}
		return 0
	})
	for _, q := range pts {
		if len(dst) == 0 || q.p > dst[len(dst)-1].p {
			dst = append(dst, q)
		}
	}
	return dst
}
