package plan

import (
	"slices"
)

// referenceHex is the planner before the state search: it weighs every
// force (count vector) within plan.max_units, one distinct combat each, and
// offers them to the frontier in enumeration order. The state search must
// give its answer (TestStateSearchIsReference).
func (pl *planner) referenceHex() (*TablePlan, error) {
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
	pl.attacks = tp.Forces
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

// enumerate calls f with every count vector over the classes allowed (by
// class), each within the class's size, with at most limit items in all;
// f may keep nothing of x. It stops at f's first error.
func enumerate(p *pool, allowed []bool, limit int, f func(x counts) error) error {
	x := make(counts, len(p.classes))
	var rec func(c, left int) error
	rec = func(c, left int) error {
		if c == len(x) {
			return f(x)
		}
		top := 0
		if allowed[c] {
			top = min(len(p.classes[c].items), left)
		}
		for k := 0; k <= top; k++ {
			x[c] = uint8(k)
			if err := rec(c+1, left-k); err != nil {
				return err
			}
		}
		x[c] = 0
		return nil
	}
	return rec(0, limit)
}
