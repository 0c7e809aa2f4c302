package plan

import (
	"errors"
	"slices"
	"sync/atomic"
)

// decideHexes: a front the search by deciding hexes covers is planned by
// it (frontlevels.go, docs/planner.md "Deciding hexes"); tests turn it
// off to run the front's state search on the same fronts.
var decideHexes = true

// errTooManyCombos: the hexes' levels make more combinations than
// deciding hexes lists (maxLevelCombos, about 100 MiB of them); the front
// takes the front's state search instead, as it does when the hexes'
// one-hex searches or the forces' bound on losses outgrow their memory
// (errBoundTooLarge, errTieBoundTooLarge).
var errTooManyCombos = errors.New("plan: deciding hexes: too many combinations of levels")

// decided counts the fronts deciding hexes planned (tests read it).
var decided atomic.Int64

// decidable reports whether deciding hexes covers pl's front
// (levelScope: the expected hexes against a committed cost, no hex
// waiting on others, no max_units, no units committed already and no
// shared support pool). Any other front takes the front's state search.
func (pl *planner) decidable() bool { return decideHexes && pl.levelScope() == nil }

// frontDecided is the front's plan by deciding hexes: each frontier
// point's assignment is the one the front's state search reports, and
// its figures are worked out as that search works them out (frontForce),
// so the answer is the same but for the counts of what was searched.
func (pl *planner) frontDecided() (*TablePlan, error) {
	e, p := pl.e, pl.e.pool
	nt, nc := len(pl.s.Targets), len(p.classes)
	r, err := pl.frontLevels(true)
	if err != nil {
		return nil, err
	}
	decided.Add(1)
	pts, st := r.pts, r.st
	tp := pl.newFrontPlan(r.ids, r.allowed)
	// Every item is a land unit: any assignment sending one attacks.
	for c := range p.classes {
		if slices.Contains(p.classes[c].can, true) {
			pl.attacks = 1
		}
	}
	// Each point's cost and value as the front's state search sums them
	// (sc.score, costOf), so the figures are the same to the bit.
	sc := newScorer(pl.s.Plan, pl.s.Targets)
	cands := make([]candidate, 0, len(pts))
	ps, total := make([]float64, nt), make(counts, nc)
	for _, pt := range pts {
		a := r.ls.fs.byTarget(pt.x)
		r.ls.fs.total(total, pt.x)
		for t := range a {
			ps[t] = 0
			if a[t].size() > 0 {
				v, err := e.eval(t, pl.k, a[t])
				if err != nil {
					return nil, err
				}
				ps[t] = v.HexTaken.P
			}
		}
		value, _ := sc.score(ps)
		cost := pl.costOf(total, 0, 0)
		f, err := pl.frontForce(a, cost, value, sc)
		if err != nil {
			return nil, err
		}
		tp.Frontier = append(tp.Frontier, f)
		cands = append(cands, candidate{cost: cost, value: value})
	}
	tp.States, tp.Forces = st.States, st.Solved+int(st.TieLeaves)
	tp.DistinctCombats, tp.Sampled = e.compiled, e.sampled
	pl.recommend(tp, cands)
	pl.warn(tp)
	return tp, nil
}
