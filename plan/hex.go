package plan

import (
	"fmt"
	"slices"
)

// maxChartPoints bounds the forces kept as chart points.
const maxChartPoints = 1 << 20

// hex plans an attack on one hex: every force within plan.max_units, the
// frontier, the recommendation and what one more unit buys.
func (pl *planner) hex() (*TablePlan, error) {
	e, p := pl.e, pl.e.pool
	allowed := make([]bool, len(p.classes))
	for c := range allowed {
		allowed[c] = true
	}
	limit := pl.maxUnits()
	vectors, subsets := countForces(p, allowed, limit)
	if vectors > pl.cfg.MaxForces {
		return nil, pl.tooLarge(vectors, "forces of distinct combats")
	}
	tp := pl.newTablePlan(subsets)
	var fr frontier
	var store []counts
	keepPoints := vectors <= maxChartPoints
	done := uint64(0)
	// Forces are weighed in batches on the workers, then offered to the
	// frontier in enumeration order, so the answer does not depend on the
	// number of workers.
	const batch = 2048
	xs := make([]counts, 0, batch)
	out := make([]*Eval, batch)
	arena := make([]uint8, 0, batch*len(p.classes)) // the batch's forces, reused
	flush := func() error {
		if err := e.weighAll(0, pl.k, xs, out); err != nil {
			return err
		}
		for i, x := range xs {
			v := out[i]
			tp.Forces++
			cost := pl.costOf(x, v.AttackerUnitsLost, v.AttackerFactorsLost)
			if keepPoints {
				tp.Candidates = append(tp.Candidates, Point{Cost: cost, Value: v.HexTaken.P})
			}
			if v.HexTaken.P == 0 && len(e.commit) == 0 {
				continue // not attacking does as well for nothing
			}
			if fr.add(candidate{cost: cost, value: v.HexTaken.P, tie: v.AttackerFactorsLost, size: x.size(), seq: tp.Forces, ref: len(store)}) {
				store = append(store, slices.Clone(x))
			}
		}
		xs, arena = xs[:0], arena[:0]
		return nil
	}
	err := enumerate(p, allowed, limit, func(x counts) error {
		done++
		if pl.cfg.Progress != nil && done%256 == 0 {
			pl.cfg.Progress(done, uint64(vectors))
		}
		if !e.hasUnits(x) {
			tp.Skipped++
			return nil
		}
		arena = append(arena, x...)
		if xs = append(xs, counts(arena[len(arena)-len(x):])); len(xs) == batch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return nil, err
	}
	tp.DistinctCombats, tp.Sampled = e.compiled, e.sampled
	for _, c := range fr.points {
		x := store[c.ref]
		f := pl.forceOf(x, c.cost)
		if f.HexFigures, err = pl.figures(0, x); err != nil {
			return nil, err
		}
		tp.Frontier = append(tp.Frontier, f)
	}
	if rec := pl.recommend(tp, fr.points); rec >= 0 {
		if tp.Marginal, err = pl.marginal(store[fr.points[rec].ref], fr.points[rec].cost); err != nil {
			return nil, err
		}
	}
	pl.warn(tp)
	return tp, nil
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
	if len(tp.Frontier) == 0 {
		return "no force can attack: every force lacks a land unit"
	}
	best := tp.Frontier[len(tp.Frontier)-1]
	v := best.HexTaken.P
	what := "P(hex taken)"
	if best.Value != nil {
		v, what = *best.Value, "expected hexes taken"
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
