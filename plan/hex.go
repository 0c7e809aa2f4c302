package plan

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/wifodds/wifodds/scenario"
)

// maxChartPoints bounds the forces kept as chart points.
const maxChartPoints = 1 << 20

// hex plans an attack on one hex: every force within plan.max_units, the
// frontier, the recommendation and what one more unit buys. It searches
// the forces' combat states (stateSearch), weighs one force per distinct
// combat and offers each state's preferred force to the frontier in
// enumeration order, so the frontier is the one weighing every force
// would give (TestStateSearchIsReference).
func (pl *planner) hex() (*TablePlan, error) {
	e, p := pl.e, pl.e.pool
	allowed := make([]bool, len(p.classes))
	for c := range allowed {
		allowed[c] = true
	}
	limit := pl.maxUnits()
	sp := newStateSpace(p, e.targets[0], e.tables[pl.k].Table, e.commit)
	lay := newLayout(sp, p, limit)
	vectors, subsets := countForces(p, allowed, limit)
	ss := pl.stateSearch(sp, lay, limit, int(min(pl.cfg.MaxForces, vectors)))
	perState, _ := ss.searchBytes()
	if err := pl.checkStateLimit(perState); err != nil {
		return nil, err
	}
	tp := pl.newTablePlan(subsets)
	states, err := ss.run()
	if errors.Is(err, errTooManyStates) {
		return nil, pl.tooManyStates("distinct force states", "")
	}
	if err != nil {
		return nil, err
	}
	nc := len(p.classes)
	force := func(i int) counts {
		x := make(counts, nc)
		ss.fl.decode(x, states.force(i))
		return x
	}
	// One force per distinct combat, in the order the states came.
	combats := newKeyTable(lay.words, lay.combatBits)
	combats.reset(states.len() / 8)
	var reps []counts
	var ck []uint64
	which := make([]int32, states.len())
	x := make(counts, nc)
	tp.States = states.len()
	// A force is an attack when it sends a land unit (evaluator.hasUnits):
	// a land unit class's count is not 0 in its packed force.
	units := make([]uint64, ss.fl.words)
	for c := range p.classes {
		if p.items[p.classes[c].items[0]].Unit != nil {
			f := ss.fl.fields[c]
			f.set(units, 1<<f.width-1)
		}
	}
	for i := range which {
		if len(e.commit) == 0 && !anyBits(states.force(i), units) {
			which[i] = -1
			tp.Skipped++
			continue
		}
		tp.Forces++
		ck = masked(ck, states.key(i), lay.combatBits)
		j, slot := combats.find(ck, combats.hash(ck))
		if j < 0 {
			j = combats.add(slot, ck)
			ss.fl.decode(x, states.force(i))
			reps = append(reps, slices.Clone(x))
		}
		which[i] = int32(j)
	}
	pl.attacks = tp.Forces
	evals := make([]*Eval, len(reps))
	const batch = 2048
	for lo := 0; lo < len(reps); lo += batch {
		hi := min(lo+batch, len(reps))
		if err := e.weighAll(0, pl.k, reps[lo:hi], evals[lo:hi]); err != nil {
			return nil, err
		}
		if pl.cfg.Progress != nil {
			pl.cfg.Progress(uint64(hi), uint64(len(reps)))
		}
	}
	// Each state's preferred force, offered in enumeration order.
	cands := make([]candidate, 0, tp.Forces)
	if states.len() <= maxChartPoints {
		tp.Candidates = make([]Point, 0, tp.Forces)
	}
	for i := range which {
		if which[i] < 0 {
			continue
		}
		v := evals[which[i]]
		ss.fl.decode(x, states.force(i))
		lostF, err := lay.factorsLost(sp, v, states.key(i))
		if err != nil {
			return nil, err
		}
		cost := pl.costOf(x, v.AttackerUnitsLost, lostF)
		if states.len() <= maxChartPoints {
			tp.Candidates = append(tp.Candidates, Point{Cost: cost, Value: v.HexTaken.P})
		}
		if v.HexTaken.P == 0 && len(e.commit) == 0 {
			continue // not attacking does as well for nothing
		}
		cands = append(cands, candidate{cost: cost, value: v.HexTaken.P, tie: lostF, size: x.size(), ref: i})
	}
	sort.Slice(cands, func(i, j int) bool {
		return slices.Compare(states.force(cands[i].ref), states.force(cands[j].ref)) < 0
	})
	fr := offerSorted(cands)
	// A cost in expected losses was read from the state's combat, summed
	// in another order: the points report their own force's, to the bit.
	if m := pl.s.Plan.Cost; m == scenario.ExpectedFactorsLost || m == scenario.ExpectedUnitsLost {
		for i := range fr.points {
			x := force(fr.points[i].ref)
			v, err := e.eval(0, pl.k, x)
			if err != nil {
				return nil, err
			}
			fr.points[i].cost = pl.costOf(x, v.AttackerUnitsLost, v.AttackerFactorsLost)
		}
	}
	tp.DistinctCombats, tp.Sampled = e.compiled, e.sampled
	for _, c := range fr.points {
		x := force(c.ref)
		f := pl.forceOf(x, c.cost)
		if f.HexFigures, err = pl.figures(0, x); err != nil {
			return nil, err
		}
		tp.Frontier = append(tp.Frontier, f)
	}
	if rec := pl.recommend(tp, fr.points); rec >= 0 {
		x := force(fr.points[rec].ref)
		if tp.Marginal, err = pl.marginal(x, fr.points[rec].cost); err != nil {
			return nil, err
		}
	}
	pl.warn(tp)
	return tp, nil
}

// anyBits reports whether a and mask share a bit.
func anyBits(a, mask []uint64) bool {
	for w, m := range mask {
		if a[w]&m != 0 {
			return true
		}
	}
	return false
}

// stateSearch readies the one-hex search of the states of sp (laid out
// by lay) within limit items and maxStates states a layer.
func (pl *planner) stateSearch(sp *stateSpace, lay *layout, limit, maxStates int) *stateSearch {
	e := pl.e
	return &stateSearch{ctx: e.ctx, sp: sp, l: lay, fl: newForceLayout(e.pool), p: e.pool, limit: limit, maxStates: maxStates,
		byBP: pl.s.Plan.Cost == scenario.CommittedBuildPoints, workers: e.workers}
}

// offerInOrder is the frontier of cands, offered in the order of their
// states' forces (the order enumerating every force offers them) and
// numbered in it for the last tie-break. rank, when not nil, is each
// state's place in that order as a number, which sorts faster.
func offerInOrder(cands []candidate, st *states, rank []uint64) frontier {
	// (sort.Slice: once a plan, and no sort's code of its own in the
	// browser build.)
	if rank != nil {
		sort.Slice(cands, func(i, j int) bool { return rank[cands[i].ref] < rank[cands[j].ref] })
	} else {
		sort.Slice(cands, func(i, j int) bool {
			return bytes.Compare(st.force(cands[i].ref), st.force(cands[j].ref)) < 0
		})
	}
	return offerSorted(cands)
}

// offerSorted is the frontier of cands, offered in their order and
// numbered in it for the last tie-break.
func offerSorted(cands []candidate) frontier {
	var fr frontier
	for i := range cands {
		cands[i].seq = i
		fr.add(cands[i])
	}
	return fr
}

// checkStateLimit refuses a limit on states the memory cannot hold, before
// the search allocates anything.
func (pl *planner) checkStateLimit(perState float64) error {
	if need := pl.cfg.MaxForces * perState; need > maxSearchMemory {
		return fmt.Errorf("%s: %w: a limit of %.0f states would need up to %.1f GiB; the search may use %d GiB: lower the limit (--max-forces; max_forces= over HTTP) to %.0f or less",
			pl.s.File, ErrTooLarge, pl.cfg.MaxForces, need/(1<<30), maxSearchMemory>>30, math.Floor(maxSearchMemory/perState))
	}
	return nil
}

// factorsLost is the expected attacking factors lost by the forces of an
// encoded state whose combat weighs v: the chance of losing at least j
// units times the j-th smallest factors in the combat, which every force
// of the state shares. Where no class folds, a state is one force and its
// own figure stands.
func (l *layout) factorsLost(sp *stateSpace, v *Eval, key []uint64) (float64, error) {
	if sp.low == 0 {
		return v.AttackerFactorsLost, nil
	}
	f := 0.0
	for j, q := range v.lostAtLeast {
		low, ok := l.lowFactor(key, j)
		if !ok {
			return 0, fmt.Errorf("plan: a result destroys %d attacking units; the state kept the smallest %d factors", len(v.lostAtLeast), j)
		}
		f += q * low
	}
	return f, nil
}

// tooManyStates words a search whose states outgrew the limit.
// hint is a further way out, or "".
func (pl *planner) tooManyStates(what, hint string) error {
	return fmt.Errorf("%s: %w: more than %.0f %s (the limit); cap plan.max_units, give interchangeable units the same attributes,%s or raise the limit (--max-forces; max_forces= over HTTP)",
		pl.s.File, ErrTooLarge, pl.cfg.MaxForces, what, hint)
}

// newTablePlan starts the plan under the planner's table.
func (pl *planner) newTablePlan(subsets float64) *TablePlan {
	tp := &TablePlan{CRT: pl.e.tables[pl.k].Name, Cost: string(pl.s.Plan.Cost), EvaluatedSubsets: subsets, Warnings: []string{}}
	if pl.target > 0 {
		t := pl.target
		tp.Target = &t
	}
	return tp
}

// recommend picks the cheapest frontier point reaching the target, says
// how far each cheaper one falls short, or says that none reaches it. It
// returns the recommendation's place on the frontier, or -1.
func (pl *planner) recommend(tp *TablePlan, points []candidate) int {
	if pl.target <= 0 {
		return -1
	}
	for i, c := range points {
		if c.value >= pl.target-valueTol {
			tp.Recommended = tp.Frontier[i]
			for j := range i {
				short := pl.target - points[j].value
				tp.Frontier[j].Shortfall = &short
			}
			return i
		}
	}
	tp.Unreached = pl.unreached(tp)
	return -1
}

// unreached says that no force reaches the target, and what the best does.
func (pl *planner) unreached(tp *TablePlan) string {
	what := "P(hex taken)"
	if len(tp.Targets) > 0 {
		what = "expected hexes taken"
		if o := newObjective(pl.s.Plan, tp.Targets); o != nil {
			what = o.label()
		}
	}
	if len(tp.Frontier) == 0 {
		if pl.attacks == 0 {
			return "no force can attack: every force lacks a land unit"
		}
		return fmt.Sprintf("no force reaches %s >= %.4g under %s: no force can take a hex (%s is 0 for every force)", what, pl.target, tp.CRT, what)
	}
	// A front's points carry the expected hexes taken, not one hex's
	// figures.
	best := tp.Frontier[len(tp.Frontier)-1]
	var v float64
	switch {
	case best.Chance != nil:
		v = *best.Chance
	case best.Value != nil:
		v = *best.Value
	case best.HexFigures != nil:
		v = best.HexTaken.P
	}
	return fmt.Sprintf("no force reaches %s >= %.4g under %s; the most any force reaches is %.4g", what, pl.target, tp.CRT, v)
}

// warn adds the warnings a plan's figures need.
func (pl *planner) warn(tp *TablePlan) {
	if tp.Sampled > 0 {
		tp.Warnings = append(tp.Warnings, fmt.Sprintf("%d of %d combats have dice trees over the path budget (--budget) and were sampled by Monte Carlo: their figures are estimates with intervals", tp.Sampled, tp.DistinctCombats))
	}
}

// marginal is what adding or dropping each available unit does to the
// recommended force x: the change in P(hex taken) and in cost.
func (pl *planner) marginal(x counts, cost float64) ([]Change, error) {
	e, p := pl.e, pl.e.pool
	base, err := e.eval(0, pl.k, x)
	if err != nil {
		return nil, err
	}
	in := map[int]bool{}
	for _, i := range p.itemsOf(x) {
		in[i] = true
	}
	var out []Change
	for i := range p.items {
		it := &p.items[i]
		y := slices.Clone(x)
		ch := Change{Unit: it.ID, Action: "add"}
		if in[i] {
			ch.Action = "drop"
			y[it.class]--
		} else {
			y[it.class]++
			ch.OverCap = y.size() > pl.maxUnits()
		}
		if !e.hasUnits(y) {
			ch.NoAttack = true
			out = append(out, ch)
			continue
		}
		v, err := e.eval(0, pl.k, y)
		if err != nil {
			return nil, err
		}
		ch.HexTaken = v.HexTaken.P
		ch.HexTakenChange = v.HexTaken.P - base.HexTaken.P
		ch.CostChange = pl.costOf(y, v.AttackerUnitsLost, v.AttackerFactorsLost) - cost
		out = append(out, ch)
	}
	return out, nil
}
