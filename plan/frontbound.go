package plan

import (
	"fmt"
	"math"
	"slices"

	"github.com/wifodds/wifodds/scenario"
)

// A front's search prunes its states by a bound (docs/planner.md, "A
// search over the front's states"). After each class the search holds the
// states reached so far, each a complete assignment (the classes to come
// send nothing) and so a point the frontier could list. The bound asks of
// a state X: can any completion of X (X plus some assignment of the
// classes to come) still reach the frontier? For each target it knows,
// from the target's own one-hex search over the classes to come with
// every unit that can reach it (disjointness relaxed), the most P(hex
// taken) X's state of that hex can still reach at each cost added (or, when
// the cost is an expected loss, at each loss at that hex). With those
// per-hex staircases:
//   - expected hexes: the value is a sum over hexes, so the most any
//     completion adds for a cost is at most the best split of that cost
//     among the hexes' upper concave envelopes (a greedy merge by slope);
//   - a chance objective: the chance is monotone in each hex's P, so it is
//     at most the chance with each hex at the most it reaches alone within
//     what the cost leaves after the other hexes' cheapest.
//
// X is dropped when, for every cost its completions can have, a point
// already known (a state seen, sent as it is) costs no more and is worth
// more than the bound by pruneMargin. The margin is a thousand times the
// tolerance the frontier compares values in, so a completion dropped is
// worse than that point beyond any tie: the frontier, whose ties break on
// losses, units and the walk's order, would list it under no order of
// offering, and nothing it could displace survives it either (what it
// dominates the point dominates too). Dropping never changes the answer
// (TestPrunedFrontIsReference).

// pruneMargin is how much better than a completion's bound the known point
// must be. The frontier's ties are within valueTol (1e-12); sums in other
// orders differ by far less than the margin.
const pruneMargin = 1e-9

// pruneFrom is the layer size from which the front's search prunes: a
// small front's search is quicker whole than the bound's one-hex searches.
// Tests set it to 0 to prune every layer.
var pruneFrom = 1 << 14

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
	pruned   int // states dropped
	// Points known: the expected hexes, and the objective's chance.
	known, knownChance incumbent
	// Scratch.
	total  counts
	ps     []float64
	idx    []int32
	norm   []uint64
	idxs   []int32
	hulls  [][]bpoint
	stairs [][]bpoint
	ptr    []int
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
	stairs       [][][]bpoint
	hulls        [][][]bpoint // the upper concave envelopes of value × P
}

// newFrontBound builds the bound for fs's search: each target's one-hex
// search over every class that can reach it (within plan.max_units for the
// hex alone), one weighing per distinct combat, and the staircases.
func newFrontBound(pl *planner, fs *frontSearch, values []float64, obj *objective) (*frontBound, error) {
	m := pl.s.Plan.Cost
	fb := &frontBound{pl: pl, fs: fs, values: values, obj: obj,
		lossCost: m == scenario.ExpectedFactorsLost || m == scenario.ExpectedUnitsLost}
	nt, nc := len(fs.sps), len(fs.p.classes)
	fb.total = make(counts, nc)
	fb.ps = make([]float64, nt)
	fb.idx = make([]int32, nt)
	fb.hulls = make([][]bpoint, nt)
	fb.stairs = make([][]bpoint, nt)
	fb.ptr = make([]int, nt)
	// What k items of class c add to a committed cost: its k cheapest
	// under build points. Summed over the hexes this is at most what the
	// class adds to the whole assignment (prefix sums of ascending costs
	// are superadditive), so each hex's staircase stays an upper bound.
	add := make([][]float64, nc)
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
		h := &hexBound{t: t, sp: fs.sps[t], lay: fs.lays[t]}
		h.kl = &layout{words: h.lay.words}
		if err := fb.forward(h); err != nil {
			return nil, err
		}
		if err := fb.weigh(h); err != nil {
			return nil, err
		}
		if err := fb.backward(h, add); err != nil {
			return nil, err
		}
		fb.hexes = append(fb.hexes, h)
	}
	fb.norm = make([]uint64, fs.l.words)
	return fb, nil
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
	cur.insert(0, nk, make([]uint8, nc), 0)
	h.layers = append(h.layers, cur)
	var s stateKey
	x := make([]uint8, nc)
	for c := range nc {
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
	nc := len(fb.fs.p.classes)
	last := h.layers[nc]
	h.stairs = make([][][]bpoint, nc+1)
	h.hulls = make([][][]bpoint, nc+1)
	h.stairs[nc] = make([][]bpoint, last.len())
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
					return err
				}
			}
		}
		h.stairs[nc][i] = []bpoint{{cost, p}}
	}
	var pts []bpoint
	for c := nc - 1; c >= 0; c-- {
		lay := h.layers[c]
		h.stairs[c] = make([][]bpoint, lay.len())
		for i := range lay.len() {
			pts = pts[:0]
			for k, j := range h.trans[c][h.start[c][i]:h.start[c][i+1]] {
				a := 0.0
				if !fb.lossCost {
					a = add[c][k]
				}
				for _, q := range h.stairs[c+1][j] {
					pts = append(pts, bpoint{q.cost + a, q.p})
				}
			}
			h.stairs[c][i] = staircase(pts)
		}
	}
	for c := range h.stairs {
		h.hulls[c] = make([][]bpoint, len(h.stairs[c]))
		for i, st := range h.stairs[c] {
			h.hulls[c][i] = envelope(st, fb.values[h.t])
		}
	}
	return nil
}

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

// staircase is the Pareto set of pts (cost down, P up): cost ascending,
// P strictly rising.
func staircase(pts []bpoint) []bpoint {
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
	var out []bpoint
	for _, q := range pts {
		if len(out) == 0 || q.p > out[len(out)-1].p {
			out = append(out, q)
		}
	}
	return slices.Clip(out)
}

// envelope is the upper concave envelope of staircase st with each P
// times w: at any cost from the first on it is at least the staircase's
// value, and its slopes fall.
func envelope(st []bpoint, w float64) []bpoint {
	var hull []bpoint
	for _, q := range st {
		q.p *= w
		for len(hull) >= 2 {
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
	return slices.Clip(hull)
}

// incumbent is the Pareto set of the points known: cost ascending, value
// strictly rising.
type incumbent struct{ pts []bpoint }

// add offers a point.
func (in *incumbent) add(cost, value float64) {
	// The first point costing more than cost.
	i, _ := slices.BinarySearchFunc(in.pts, cost, func(q bpoint, c float64) int {
		if q.cost <= c {
			return -1
		}
		return 1
	})
	if i > 0 && in.pts[i-1].p >= value {
		return
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

// prune offers the layer's states to the points known and marks dead the
// states no completion of which can reach the frontier. c is the layer:
// the classes before c are assigned.
func (fb *frontBound) prune(st *states, c int) error {
	fs, pl := fb.fs, fb.pl
	nc := len(fs.p.classes)
	type kept struct {
		i    int
		base float64
	}
	live := make([]kept, 0, st.len())
	for i := range st.len() {
		if st.dead[i] {
			continue
		}
		key, xs := st.key(i), st.force(i)
		attack, sent := true, false
		value, lostU, lostF := 0.0, 0.0, 0.0
		for t, h := range fb.hexes {
			sub := fs.sub(key, t)
			fb.normalise(h, fb.norm[:h.lay.words], sub)
			j, _ := h.layers[c].find(fb.norm[:h.lay.words])
			if j < 0 {
				return fmt.Errorf("plan: a front's state at hex %d is not among the hex's own states", t)
			}
			fb.idx[t] = int32(j)
			fb.ps[t] = 0
			x := counts(xs[t*nc : (t+1)*nc])
			if x.size() == 0 {
				continue
			}
			sent = true
			if !pl.e.hasUnits(x) {
				attack = false
				continue
			}
			f := h.fin[c][j]
			v := h.finEval[f]
			fb.ps[t] = v.HexTaken.P
			value += fb.values[t] * v.HexTaken.P
			lostU += v.AttackerUnitsLost
			lf, err := h.lay.factorsLost(h.sp, v, sub)
			if err != nil {
				return err
			}
			lostF += lf
		}
		fs.total(fb.total, xs)
		cost := pl.costOf(fb.total, lostU, lostF)
		// The state sent as it is: a point the frontier could list.
		if sent && attack && value > 0 {
			fb.known.add(cost, value)
			if fb.obj != nil {
				if ch := fb.obj.chance(fb.ps); ch > 0 {
					fb.knownChance.add(cost, ch)
				}
			}
		}
		base := 0.0 // a loss is counted afresh at the end
		if !fb.lossCost {
			base = pl.costOf(fb.total, 0, 0)
		}
		live = append(live, kept{i, base})
		// Keep the indices for the test below.
		copy(fb.idxOf(len(live)-1), fb.idx)
	}
	for n, k := range live {
		idx := fb.idxOf(n)
		for t, h := range fb.hexes {
			fb.hulls[t] = h.hulls[c][idx[t]]
			fb.stairs[t] = h.stairs[c][idx[t]]
		}
		if !fb.expectedBeaten(k.base) {
			continue
		}
		if fb.obj != nil && !fb.chanceBeaten(k.base) {
			continue
		}
		st.dead[k.i] = true
		fb.pruned++
	}
	return nil
}

// idxOf is the n-th live state's hex indices in the scratch.
func (fb *frontBound) idxOf(n int) []int32 {
	nt := len(fb.hexes)
	for len(fb.idxs) < (n+1)*nt {
		fb.idxs = append(fb.idxs, make([]int32, nt)...)
	}
	return fb.idxs[n*nt : (n+1)*nt]
}

// expectedBeaten reports whether every completion of the state whose
// hexes' envelopes are fb.hulls, having cost base so far, is beaten by a
// known point by more than pruneMargin in expected hexes.
func (fb *frontBound) expectedBeaten(base float64) bool {
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
	}
	return true
}

// chanceBeaten reports whether every completion of the state whose hexes'
// staircases are fb.stairs, having cost base so far, is beaten by a known
// point by more than pruneMargin in the objective's chance: at total cost
// z each hex reaches at most its staircase at z less the others' least.
func (fb *frontBound) chanceBeaten(base float64) bool {
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
		if which < 0 {
			return true
		}
		fb.ptr[which]++
		fb.ps[which] = fb.stairs[which][fb.ptr[which]].p
		z = next
	}
}
