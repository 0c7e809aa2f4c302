package plan

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/operation"
	"github.com/wifodds/wifodds/scenario"
)

// front plans a front of several hexes: every assignment of the available
// units to the hexes they can attack (each unit at most once, at most
// plan.max_units in all), the frontier of expected hexes taken against
// cost, and the cheapest assignment reaching the target. It searches the
// assignments' states (frontSearch), weighs one force per distinct combat
// of each target and offers each state's preferred assignment to the
// frontier in the order walking every assignment would, so the frontier is
// the walk's (TestFrontStateSearchIsReference).
func (pl *planner) front() (*TablePlan, error) {
	if pl.decidable() {
		if tp, err := pl.frontDecided(); !errors.Is(err, errTooManyCombos) && !errors.Is(err, errBoundTooLarge) && !errors.Is(err, errTieBoundTooLarge) {
			return tp, err
		}
	}
	e, p := pl.e, pl.e.pool
	nt, nc := len(pl.s.Targets), len(p.classes)
	fs, ids, values, allowed, err := pl.newFrontSearch()
	if err != nil {
		return nil, err
	}
	perState := fs.l.stateBytes(nt * nc)
	// The bound scores the hexes as if each were attacked whatever the
	// others do. With requires that still bounds the chance and the
	// expected hexes from above (a hex waiting on others is taken only
	// when its own combat would take it), but an expected loss is then
	// counted only when a hex is attacked, so a completion can cost less
	// than the bound assumes, and the known points it prunes with would
	// need the joint's figures: a front whose hexes wait on others is
	// searched whole, unpruned (still exact).
	if !hasRequires(pl.s.Targets) {
		bobj := newObjective(pl.s.Plan, ids)
		fs.newBound = func() (*frontBound, error) { return newFrontBound(pl, fs, values, bobj) }
	}
	fin, err := fs.run()
	if errors.Is(err, errTooManyStates) {
		if float64(fs.maxStates) < pl.cfg.MaxForces {
			return nil, fmt.Errorf("%s: %w: more than %d distinct states of the front's assignments, all %d MiB holds at %.0f bytes a state; cap plan.max_units, narrow can_attack, or give interchangeable units the same attributes",
				pl.s.File, ErrTooLarge, fs.maxStates, frontMemory>>20, perState)
		}
		return nil, pl.tooManyStates("distinct states of the front's assignments", " narrow can_attack,")
	}
	if err != nil {
		return nil, err
	}
	tp := pl.newFrontPlan(ids, allowed)
	// One force per distinct combat of each target, in the order the
	// states came; which[i*nt+t] is state i's at target t, or -1 when it
	// sends nothing there.
	combats := make([]map[string]int, nt)
	reps := make([][]counts, nt)
	// With the bound, each rep's combat was weighed already: known[t][j]
	// is rep j's.
	known := make([][]*Eval, nt)
	which := make([]int32, fin.len()*nt)
	var live []int
	var ck []uint64
	var k string
	for i := range fin.len() {
		xs := fin.force(i)
		attack, sent := true, false
		for t := range nt {
			if x := counts(xs[t*nc : (t+1)*nc]); x.size() > 0 {
				sent = true
				attack = attack && e.hasUnits(x) // support alone is not an attack
			}
		}
		if !sent || !attack {
			continue
		}
		live = append(live, i)
		for t := range nt {
			which[i*nt+t] = -1
			x := counts(xs[t*nc : (t+1)*nc])
			if x.size() == 0 {
				continue
			}
			if combats[t] == nil {
				combats[t] = map[string]int{}
			}
			ck, k = fs.lays[t].combatKey(ck, fs.sub(fin.key(i), t))
			j, ok := combats[t][k]
			if !ok {
				j = len(reps[t])
				combats[t][k] = j
				reps[t] = append(reps[t], x)
				if fs.bound != nil {
					known[t] = append(known[t], fs.bound.eval(t, i))
				}
			}
			which[i*nt+t] = int32(j)
		}
	}
	tp.States = len(live)
	if fs.bound != nil {
		tp.Pruned = fs.bound.pruned
	}
	evals := make([][]*Eval, nt)
	planned, done := 0, 0
	for t := range nt {
		planned += len(reps[t])
	}
	const batch = 2048
	for t := range nt {
		evals[t] = make([]*Eval, len(reps[t]))
		if fs.bound != nil {
			copy(evals[t], known[t])
			continue
		}
		for lo := 0; lo < len(reps[t]); lo += batch {
			hi := min(lo+batch, len(reps[t]))
			if err := e.weighAll(t, pl.k, reps[t][lo:hi], evals[t][lo:hi]); err != nil {
				return nil, err
			}
			done += hi - lo
			if pl.cfg.Progress != nil {
				pl.cfg.Progress(uint64(done), uint64(planned))
			}
		}
	}
	// Each state's preferred assignment, offered in the walk's order.
	cands := make([]candidate, 0, len(live))
	total := make(counts, nc)
	// A chance objective weighs the frontier by its chance; the expected
	// hexes' own frontier (expCands) then says what the expected
	// objective would send instead.
	sc := newScorer(pl.s.Plan, pl.s.Targets)
	obj := sc.obj
	ps, lu, lf := make([]float64, nt), make([]float64, nt), make([]float64, nt)
	var expCands []candidate
	for _, i := range live {
		clear(ps)
		clear(lu)
		clear(lf)
		for t := range nt {
			w := which[i*nt+t]
			if w < 0 {
				continue
			}
			v := evals[t][w]
			ps[t] = v.HexTaken.P
			lu[t] = v.AttackerUnitsLost
			l, err := fs.lays[t].factorsLost(fs.sps[t], v, fs.sub(fin.key(i), t))
			if err != nil {
				return nil, err
			}
			lf[t] = l
		}
		value, chance := sc.score(ps)
		lostU, lostF := sc.lost(lu), sc.lost(lf)
		pl.attacks++
		if value == 0 {
			continue // taking nothing is no better
		}
		fs.total(total, fin.force(i))
		c := candidate{cost: pl.costOf(total, lostU, lostF), value: value, tie: lostF, size: total.size(), ref: i}
		if obj != nil {
			expCands = append(expCands, c)
			if c.value = chance; c.value == 0 {
				continue
			}
		}
		cands = append(cands, c)
	}
	tp.Forces = len(cands)
	rank := fs.ranks(fin, cands)
	if obj != nil {
		rank = fs.ranks(fin, expCands) // every candidate is among them
	}
	fr := offerInOrder(cands, fin, rank)
	if err := pl.ownCosts(fr.points, fin, fs, total, sc); err != nil {
		return nil, err
	}
	tp.DistinctCombats, tp.Sampled = e.compiled, e.sampled
	for _, c := range fr.points {
		f, err := pl.frontForce(fs.byTarget(fin.force(c.ref)), c.cost, c.value, sc)
		if err != nil {
			return nil, err
		}
		tp.Frontier = append(tp.Frontier, f)
	}
	if r := pl.recommend(tp, fr.points); r >= 0 && obj != nil {
		// What the expected objective sends for no more: the most
		// expected hexes its frontier reaches within the recommendation's
		// cost.
		efr := offerInOrder(expCands, fin, rank)
		if err := pl.ownCosts(efr.points, fin, fs, total, sc); err != nil {
			return nil, err
		}
		best := -1
		for j, c := range efr.points {
			if c.cost <= fr.points[r].cost+costTol {
				best = j
			}
		}
		if best >= 0 {
			c := efr.points[best]
			f, err := pl.frontForce(fs.byTarget(fin.force(c.ref)), c.cost, c.value, sc)
			if err != nil {
				return nil, err
			}
			tp.ExpectedPlan = f
		}
	}
	if obj != nil {
		tp.Objective = obj.label()
	}
	pl.warn(tp)
	return tp, nil
}

// newFrontPlan is a front's plan before its frontier: the assignments it
// stands for, the targets' ids (newFrontSearch's ids and allowed) and the
// order of attack.
func (pl *planner) newFrontPlan(ids []string, allowed [][]bool) *TablePlan {
	tp := pl.newTablePlan(countAssignments(pl.e.pool, allowed, pl.maxUnits()))
	tp.Targets = ids
	for _, t := range pl.s.Plan.Order {
		tp.Order = append(tp.Order, ids[t])
	}
	return tp
}

// newFrontSearch readies the search over the states of pl's front: each
// target's state space and layout, the targets each class can attack,
// the order the classes are taken in and the most states memory holds;
// with the targets' ids and values, and allowed[t][c]: whether class c
// can attack target t.
func (pl *planner) newFrontSearch() (fs *frontSearch, ids []string, values []float64, allowed [][]bool, err error) {
	e, p := pl.e, pl.e.pool
	nt, nc := len(pl.s.Targets), len(p.classes)
	limit := pl.maxUnits()
	fs = &frontSearch{ctx: e.ctx, p: p, limit: limit, byBP: pl.s.Plan.Cost == scenario.CommittedBuildPoints, workers: e.workers,
		allowed: make([][]int, nc), off: []int{0}}
	values = make([]float64, nt)
	allowed = make([][]bool, nt)
	for t, ft := range pl.s.Targets {
		ids = append(ids, ft.ID)
		values[t] = ft.Value
		sp := newStateSpace(p, e.targets[t], e.tables[pl.k].Table, e.commit)
		lay := newLayout(sp, p, limit)
		fs.sps, fs.lays = append(fs.sps, sp), append(fs.lays, lay)
		fs.off = append(fs.off, fs.off[t]+lay.words)
		allowed[t] = make([]bool, nc)
		for c := range p.classes {
			if p.classes[c].can[t] {
				allowed[t][c] = true
				fs.allowed[c] = append(fs.allowed[c], t)
			}
		}
	}
	// The tuple's states are whole keys: no group shares a combat but its
	// smallest factors, so no state dominates another.
	fs.l = &layout{words: fs.off[nt], groupBits: 64 * fs.off[nt]}
	if err := pl.checkStateLimit(fs.l.stateBytes(nt * nc)); err != nil {
		return nil, nil, nil, nil, err
	}
	// A front's states are wide: the search holds at most what
	// frontMemory does, whatever the limit.
	fs.maxStates = int(min(pl.cfg.MaxForces, frontMemory/fs.l.stateBytes(nt*nc)))
	fs.order = classOrder(p)
	return fs, ids, values, allowed, nil
}

// ownCosts sets a cost in expected losses, which was read from the
// states' combats and summed in another order, to the points' own
// forces', to the bit: each hex's losses counted when it is attacked
// (sc.lost).
func (pl *planner) ownCosts(points []candidate, fin *states, fs *frontSearch, total counts, sc *scorer) error {
	e := pl.e
	if m := pl.s.Plan.Cost; m == scenario.ExpectedFactorsLost || m == scenario.ExpectedUnitsLost {
		nt := len(fs.sps)
		ps, lu, lf := make([]float64, nt), make([]float64, nt), make([]float64, nt)
		for i := range points {
			clear(ps)
			clear(lu)
			clear(lf)
			for t, x := range fs.byTarget(fin.force(points[i].ref)) {
				if x.size() == 0 {
					continue
				}
				v, err := e.eval(t, pl.k, x)
				if err != nil {
					return err
				}
				ps[t], lu[t], lf[t] = v.HexTaken.P, v.AttackerUnitsLost, v.AttackerFactorsLost
			}
			sc.score(ps)
			fs.total(total, fin.force(points[i].ref))
			points[i].cost = pl.costOf(total, sc.lost(lu), sc.lost(lf))
		}
	}
	return nil
}

// frontMemory bounds the memory a front's search may hold (issue 25:
// under 256 MiB).
const frontMemory = 256 << 20

// frontSearch walks the classes one at a time over the states of a
// front's assignments: a state is the tuple of the targets' combat states
// (state.go), and each class's items are split among the targets they can
// attack, or kept. For each state it keeps the assignment the frontier
// prefers: the cheapest in build points when cost is counted in them, then
// the first in the walk's order (target by target, each target's count
// vector in lexicographic order). Two assignments of a state differ in no
// figure the frontier compares but those, so the frontier is exact.
type frontSearch struct {
	ctx       context.Context // checked between classes
	p         *pool
	sps       []*stateSpace // by target
	lays      []*layout     // by target
	off       []int         // by target: where its key starts in the tuple's words; then the words
	l         *layout       // the tuple's
	allowed   [][]int       // by class: the targets it can attack
	limit     int           // plan.max_units
	maxStates int
	byBP      bool
	// The state being grown: its key and assignment (target-major), the
	// key it grows from, its build points, the targets' decoded states.
	buf, src []uint64
	x        []uint8
	ebp      float64
	scratch  []stateKey
	next     *states
	c        int
	// The bound pruning the layers, built when a layer first holds
	// pruneFrom states (newBound), or nil.
	newBound func() (*frontBound, error)
	bound    *frontBound
	// workers check the bound's assignments in batches when more than
	// one (frontbatch.go): batch, from the current layer's state parent.
	workers int
	batch   *boundBatch
	parent  int
	// order is the order the classes are taken in (classOrder); layer
	// is the layer being built, after the first layer classes of it.
	order []int
	layer int
}

// sub is target t's part of a tuple's key.
func (fs *frontSearch) sub(k []uint64, t int) []uint64 { return k[fs.off[t]:fs.off[t+1]] }

// total sums an assignment (target-major) into the items sent of each class.
func (fs *frontSearch) total(dst counts, xs []uint8) {
	copy(dst, xs)
	for o := len(dst); o < len(xs); o += len(dst) {
		for c, k := range xs[o : o+len(dst)] {
			dst[c] += k
		}
	}
}

// byTarget is an assignment (target-major) as each target's counts, each
// its own copy.
func (fs *frontSearch) byTarget(xs []uint8) []counts {
	nc := len(fs.p.classes)
	a := make([]counts, len(fs.sps))
	for t := range a {
		a[t] = slices.Clone(counts(xs[t*nc : (t+1)*nc]))
	}
	return a
}

// ranks numbers the candidates' assignments in the walk's order, their
// counts read as the digits of one number (target-major, each count in
// the bits its class's size needs), or is nil when that number needs
// more than 64 bits.
func (fs *frontSearch) ranks(fin *states, cands []candidate) []uint64 {
	nc := len(fs.p.classes)
	shift := make([]int, len(fs.sps)*nc)
	bits := 0
	for pos := len(shift) - 1; pos >= 0; pos-- {
		shift[pos] = bits
		bits += width(uint64(len(fs.p.classes[pos%nc].items)))
	}
	if bits > 64 {
		return nil
	}
	rank := make([]uint64, fin.len())
	for _, c := range cands {
		r := uint64(0)
		for pos, k := range fin.force(c.ref) {
			r |= uint64(k) << shift[pos]
		}
		rank[c.ref] = r
	}
	return rank
}

// run searches every assignment within the limit and returns the final
// states with their assignments, or an error when the states outgrow the
// limit.
func (fs *frontSearch) run() (*states, error) {
	nc, nt := len(fs.p.classes), len(fs.sps)
	cur := newStates(fs.l, nt*nc, 1)
	fs.buf = make([]uint64, fs.l.words)
	for t, sp := range fs.sps {
		base := sp.base
		fs.lays[t].encode(fs.sub(fs.buf, t), &base)
	}
	cur.insert(0, fs.buf, make([]uint8, nt*nc), 0)
	fs.x = make([]uint8, nt*nc)
	fs.scratch = make([]stateKey, nt)
	fs.next = newStates(fs.l, nt*nc, 1)
	for pos, c := range fs.order {
		if err := fs.ctx.Err(); err != nil {
			return nil, err
		}
		fs.c, fs.layer = c, pos+1
		// The bound, once the layer may hold pruneFrom states.
		if fs.bound == nil && fs.newBound != nil && cur.len()*(1+len(fs.allowed[c])) >= pruneFrom {
			b, err := fs.newBound()
			switch {
			case errors.Is(err, errBoundTooLarge):
				// The search goes on whole: slower, as exact.
				fs.newBound = nil
			case err != nil:
				return nil, err
			}
			fs.bound = b
			if parallelBuild && b != nil && fs.workers > 1 {
				fs.batch = newBoundBatch(fs, fs.workers)
			}
		}
		room := min(cur.len()*2, fs.maxStates)
		fs.next.reset(room)
		if fs.bound != nil {
			if err := fs.bound.begin(cur, pos, room); err != nil {
				return nil, err
			}
		}
		for i := range cur.len() {
			if fs.bound != nil {
				fs.bound.from(i)
			}
			fs.parent = i
			fs.src = cur.key(i)
			copy(fs.buf, fs.src)
			copy(fs.x, cur.force(i))
			fs.ebp = cur.bps[i]
			size := 0
			for t, lay := range fs.lays {
				size += int(lay.size.get(fs.sub(fs.src, t)))
			}
			if err := fs.split(0, min(len(fs.p.classes[c].items), fs.limit-size), 0); err != nil {
				return nil, err
			}
			if fs.batch != nil && fs.batch.len() >= boundBatchSize {
				if err := fs.batch.flush(); err != nil {
					return nil, err
				}
			}
		}
		if fs.batch != nil {
			if err := fs.batch.flush(); err != nil {
				return nil, err
			}
		}
		cur, fs.next = fs.next, cur
		if fs.bound != nil {
			fs.bound.end()
		}
	}
	return cur, nil
}

// split sends the class's items to the targets it can attack from the
// j-th on, at most left more, sent already sent to the targets before.
func (fs *frontSearch) split(j, left, sent int) error {
	ts := fs.allowed[fs.c]
	if j == len(ts) {
		return fs.offer(sent)
	}
	t := ts[j]
	lay, s, key := fs.lays[t], &fs.scratch[t], fs.sub(fs.buf, t)
	lay.decode(fs.sub(fs.src, t), s)
	xi := t*len(fs.p.classes) + fs.c
	for k := range min(left, fs.sps[t].room(s, fs.c)) + 1 {
		if k > 0 {
			fs.sps[t].add(s, fs.c, 1)
			lay.encode(key, s)
		}
		fs.x[xi] = uint8(k)
		if err := fs.split(j+1, left-k, sent+k); err != nil {
			return err
		}
	}
	fs.x[xi] = 0
	copy(key, fs.sub(fs.src, t))
	return nil
}

// offer records the assignment grown so far in the next layer, keeping
// the preferred one of its state.
func (fs *frontSearch) offer(sent int) error {
	next := fs.next
	bp := fs.ebp + fs.p.classes[fs.c].prefix[sent]
	if fs.batch != nil {
		fs.batch.add(fs.parent, bp)
		return nil
	}
	j, slot := next.find(fs.buf)
	if j >= 0 {
		if fs.prefer(fs.x, bp, next.bps[j], next.force(j)) {
			next.bps[j] = bp
			copy(next.force(j), fs.x)
		}
		return nil
	}
	if fs.bound != nil {
		// An assignment no completion of which reaches the frontier is
		// not kept (frontbound.go); another reaching its state may be.
		if beaten, err := fs.bound.beaten(fs.buf, fs.x, fs.layer); beaten || err != nil {
			return err
		}
	}
	if next.len() >= fs.maxStates {
		return errTooManyStates
	}
	grow(next, fs.maxStates)
	next.insert(slot, fs.buf, fs.x, bp)
	if fs.bound != nil {
		fs.bound.keep()
	}
	return nil
}

// grow doubles a full layer's arrays before an insert, up to room for
// limit states: appending would grow them by a quarter at a time, copying
// a layer of wide states many times over, or past the limit.
func grow(st *states, limit int) {
	if n := len(st.bps); n == cap(st.bps) && n > 0 {
		more := max(1, min(n, limit-n))
		st.keys = slices.Grow(st.keys, more*st.l.words)
		st.xs = slices.Grow(st.xs, more*st.nc)
		st.bps = slices.Grow(st.bps, more)
	}
}

// prefer reports whether the assignment x, costing bp, is
// preferred to y costing ybp: both reach the same state and send none of
// the classes still to come, so comparing them whole is comparing them in
// the walk's order.
func (fs *frontSearch) prefer(x []uint8, bp, ybp float64, y []uint8) bool {
	if fs.byBP && !near(bp, ybp, costTol) {
		return bp < ybp
	}
	return bytes.Compare(x, y) < 0
}

// frontForce describes an assignment: its totals and each hex's force, the
// items of a class going to the hexes in order, cheapest first. value is
// the frontier's figure: the expected hexes taken, or with a chance
// objective its chance (then Value is the expected hexes, from the hexes).
// The joint figures and each hex's P(attacked) and P(taken) in the plan
// come from the exact joint distribution (frontJoint).
func (pl *planner) frontForce(a []counts, cost, value float64, sc *scorer) (*Force, error) {
	p := pl.e.pool
	total := make(counts, len(p.classes))
	for _, x := range a {
		for c, k := range x {
			total[c] += k
		}
	}
	f := pl.forceOf(total, cost)
	v := value
	f.Value = &v
	next := make([]int, len(p.classes))
	for t, x := range a {
		var items []int
		for c, k := range x {
			items = append(items, p.classes[c].items[next[c]:next[c]+int(k)]...)
			next[c] += int(k)
		}
		slices.Sort(items)
		ft := pl.s.Targets[t]
		h := &HexForce{Target: ft.ID, Units: p.ids(items), Value: ft.Value}
		for _, r := range ft.Requires {
			h.Requires = append(h.Requires, pl.s.Targets[r].ID)
		}
		if len(items) > 0 {
			fig, err := pl.figures(t, x)
			if err != nil {
				return nil, err
			}
			h.HexFigures = fig
		} else {
			h.HexFigures = &HexFigures{Method: "not attacked", OddsLevels: analysis.Keyed[float64]{}, Tables: analysis.Keyed[float64]{}}
		}
		f.Hexes = append(f.Hexes, h)
	}
	ps := make([]float64, len(f.Hexes))
	for t, h := range f.Hexes {
		if len(h.Units) > 0 {
			ps[t] = h.HexTaken.P
		}
	}
	if sc.obj != nil {
		ev, ch := sc.score(ps)
		f.Value, f.Chance = &ev, &ch
	}
	j, err := pl.frontJoint(ps)
	if err != nil {
		return nil, err
	}
	f.Joint = j
	return f, nil
}

// frontJoint is the joint distribution of the hexes an assignment takes,
// from the hexes' own P(hex taken) (0 for a hex not attacked), with
// requires followed (operation.NewJoint): P(exactly k), P(all), the
// front's sets, and each hex's P(attacked) and P(taken).
func (pl *planner) frontJoint(ps []float64) (*FrontJoint, error) {
	ts := make([]operation.Target, len(ps))
	for t, ft := range pl.s.Targets {
		ts[t] = operation.Target{ID: ft.ID, Value: ft.Value, P: ps[t], Requires: ft.Requires}
	}
	j, err := operation.NewJoint(ts)
	if err != nil {
		return nil, err
	}
	fj := &FrontJoint{Exactly: j.Exactly(), AtLeast: j.AtLeast(), All: j.All(), Taken: j.TakenAll(), Sets: []operation.SetP{}}
	for t := range ts {
		fj.Attacked = append(fj.Attacked, j.Attacked(t))
	}
	for k, p := range fj.Exactly {
		fj.ExpectedTaken += float64(k) * p
	}
	for _, set := range pl.s.Plan.Sets {
		var ids []string
		for _, t := range set.Targets {
			ids = append(ids, ts[t].ID)
		}
		fj.Sets = append(fj.Sets, operation.SetP{Name: set.Name, Targets: ids, P: j.AllOf(operation.Mask(set.Targets))})
	}
	return fj, nil
}

// countAssignments counts the assignments of single items to targets (or
// to none) within limit items, at most one HQ a target: the item-level
// search the class-level one stands for.
func countAssignments(p *pool, allowed [][]bool, limit int) (subsets float64) {
	ways := make([]float64, limit+1)
	ways[0] = 1
	var hqs []int
	for i := range p.items {
		c := p.items[i].class
		if p.isHQ(c) {
			hqs = append(hqs, i)
			continue
		}
		choices := 0
		for t := range allowed {
			if allowed[t][c] {
				choices++
			}
		}
		next := make([]float64, limit+1)
		for u, w := range ways {
			next[u] += w
			if u < limit {
				next[u+1] += w * float64(choices)
			}
		}
		ways = next
	}
	return countHQs(p, allowed, limit, ways, hqs)
}

// countHQs extends the counts ways (by items sent) with the HQ items hqs,
// each sent to a target it can support that has no HQ yet, or kept:
// by[mask][u] counts the assignments whose HQs went to the targets of
// mask, u items sent in all.
func countHQs(p *pool, allowed [][]bool, limit int, ways []float64, hqs []int) (subsets float64) {
	masks := 1 << len(allowed)
	by := make([][]float64, masks)
	for m := range by {
		by[m] = make([]float64, limit+1)
	}
	copy(by[0], ways)
	for _, i := range hqs {
		c := p.items[i].class
		next := make([][]float64, masks)
		for m := range next {
			next[m] = slices.Clone(by[m])
		}
		for m := range by {
			for u, w := range by[m] {
				if w == 0 || u == limit {
					continue
				}
				for t := range allowed {
					if allowed[t][c] && m&(1<<t) == 0 {
						next[m|1<<t][u+1] += w
					}
				}
			}
		}
		by = next
	}
	for m := range by {
		for _, w := range by[m] {
			subsets += w
		}
	}
	return subsets
}

// classOrder is the order a front's search takes the classes in: the
// most factors first, so the first layers already spend most of what an
// assignment can, and the bound tells more of their states apart. Any
// order gives the same states' preferred assignments: two assignments
// reaching a state send none of the classes still to come, so comparing
// them whole is comparing them in the walk's order whatever came first.
func classOrder(p *pool) []int {
	order := make([]int, len(p.classes))
	for c := range order {
		order[c] = c
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(p.items[p.classes[b].items[0]].Factors*float64(len(p.classes[b].items)),
			p.items[p.classes[a].items[0]].Factors*float64(len(p.classes[a].items)))
	})
	return order
}

// hasRequires says whether some target waits on others.
func hasRequires(ts []scenario.FrontTarget) bool {
	for _, t := range ts {
		if len(t.Requires) > 0 {
			return true
		}
	}
	return false
}
