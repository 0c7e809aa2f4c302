package plan

import (
	"fmt"
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

// frontPlan is the search over a front: which units attack which hex.
type frontPlan struct {
	pl      *planner
	allowed [][]bool  // by target, by class
	stride  [][]int   // by target, by class: the mixed-radix index of a force
	vals    [][]*Eval // by target: each force's figures, by index, once weighed
	values  []float64 // by target: what taking it is worth
	x       []counts  // the force at each target, during the search
	used    counts    // items of each class sent so far
	fr      frontier
	store   [][]counts
	leaves  uint64
	planned uint64
}

// referenceFront is the front's planner before the state search: it walks
// every assignment of the available
// units to the hexes they can attack (each unit at most once, at most
// plan.max_units in all), the frontier of expected hexes taken against
// cost, and the cheapest assignment reaching the target.
func (pl *planner) referenceFront() (*TablePlan, error) {
	p := pl.e.pool
	fp := &frontPlan{pl: pl, used: make(counts, len(p.classes))}
	var ids []string
	// Sizes first: nothing is allocated for a search the limits refuse.
	sizes := make([]float64, len(pl.s.Targets))
	tables := 0.0
	for t, ft := range pl.s.Targets {
		ids = append(ids, ft.ID)
		al := make([]bool, len(p.classes))
		size := 1.0
		for c := range p.classes {
			al[c] = p.classes[c].can[t]
			if al[c] {
				size *= float64(len(p.classes[c].items) + 1)
			}
		}
		if size > pl.cfg.MaxForces {
			return nil, pl.tooLarge(size, "forces against "+ft.ID)
		}
		fp.allowed = append(fp.allowed, al)
		sizes[t] = size
		tables += size
	}
	if need := tables * frontForceBytes; need > maxSearchMemory {
		return nil, fmt.Errorf("%s: %w: the forces against the targets (%.0f) would need %.1f GiB to record; the search may use %d GiB: cap plan.max_units or narrow can_attack",
			pl.s.File, ErrTooLarge, tables, need/(1<<30), maxSearchMemory>>30)
	}
	n := countClassAssignments(p, fp.allowed, pl.maxUnits())
	if n > pl.cfg.MaxForces {
		return nil, pl.tooLarge(n, "assignments of units to hexes")
	}
	for t, ft := range pl.s.Targets {
		fp.values = append(fp.values, ft.Value)
		st := make([]int, len(p.classes))
		size := 1
		for c := range p.classes {
			if fp.allowed[t][c] {
				st[c] = size
				size *= len(p.classes[c].items) + 1
			}
		}
		fp.stride = append(fp.stride, st)
		fp.vals = append(fp.vals, make([]*Eval, int(sizes[t])))
		fp.x = append(fp.x, make(counts, len(p.classes)))
	}
	fp.planned = uint64(n)
	tp := pl.newTablePlan(0)
	tp.Targets = ids
	if err := fp.search(0, pl.maxUnits(), 0, 0); err != nil {
		return nil, err
	}
	tp.Forces = int(fp.leaves)
	tp.DistinctCombats, tp.Sampled = pl.e.compiled, pl.e.sampled
	tp.EvaluatedSubsets = countAssignments(p, fp.allowed, pl.maxUnits())
	for _, c := range fp.fr.points {
		f, err := pl.frontForce(fp.store[c.ref], c.cost, c.value, newScorer(pl.s.Plan, pl.s.Targets))
		if err != nil {
			return nil, err
		}
		tp.Frontier = append(tp.Frontier, f)
	}
	pl.recommend(tp, fp.fr.points)
	pl.warn(tp)
	return tp, nil
}

// each sets fp.x[t] to every force target t can receive from the items not
// yet used, within left items, calling f with its size until f returns
// false. It leaves fp.used counting the force while f runs.
func (fp *frontPlan) each(t, left int, f func(size int) bool) bool {
	p := fp.pl.e.pool
	x := fp.x[t]
	var rec func(c, size int) bool
	rec = func(c, size int) bool {
		if c == len(x) {
			return f(size)
		}
		top := 0
		if fp.allowed[t][c] {
			top = min(len(p.classes[c].items)-int(fp.used[c]), left-size)
		}
		for k := 0; k <= top; k++ {
			x[c] = uint8(k)
			fp.used[c] += uint8(k)
			ok := rec(c+1, size+k)
			fp.used[c] -= uint8(k)
			if !ok {
				x[c] = 0
				return false
			}
		}
		x[c] = 0
		return true
	}
	return rec(0, 0)
}

// index is force x's place in target t's table of figures.
func (fp *frontPlan) index(t int, x counts) int {
	i := 0
	for c, k := range x {
		i += int(k) * fp.stride[t][c]
	}
	return i
}

// eval weighs force x against target t, once; nil when x sends nothing.
func (fp *frontPlan) eval(t int, x counts) (*Eval, error) {
	if x.size() == 0 {
		return nil, nil
	}
	i := fp.index(t, x)
	if v := fp.vals[t][i]; v != nil {
		return v, nil
	}
	v, err := fp.pl.e.weighOne(t, fp.pl.k, x) // vals is the record: no memo needed
	fp.vals[t][i] = v
	return v, err
}

// search walks the assignments from target t on, with value, expected
// attacking units and factors lost of the hexes before t.
func (fp *frontPlan) search(t, left int, value, lostU float64) error {
	var err error
	if t == len(fp.x) {
		fp.leaf(value, lostU)
		return nil
	}
	fp.each(t, left, func(size int) bool {
		x := fp.x[t]
		if size > 0 && !fp.pl.e.hasUnits(x) {
			return true // support alone is not an attack
		}
		var v *Eval
		if v, err = fp.eval(t, x); err != nil {
			return false
		}
		val, lu := value, lostU
		if v != nil {
			val += fp.values[t] * v.HexTaken.P
			lu += v.AttackerUnitsLost
		}
		err = fp.search(t+1, left-size, val, lu)
		return err == nil
	})
	return err
}

// leaf offers a complete assignment to the frontier.
func (fp *frontPlan) leaf(value, lostU float64) {
	pl := fp.pl
	if fp.used.size() == 0 {
		return // sending nothing is no plan
	}
	if pl.attacks++; value == 0 {
		return // taking nothing is no better
	}
	fp.leaves++
	if pl.cfg.Progress != nil && fp.leaves%4096 == 0 {
		pl.cfg.Progress(fp.leaves, fp.planned)
	}
	lostF := 0.0
	for t, x := range fp.x {
		if v := fp.vals[t][fp.index(t, x)]; v != nil && x.size() > 0 {
			lostF += v.AttackerFactorsLost
		}
	}
	cost := pl.costOf(fp.used, lostU, lostF)
	c := candidate{cost: cost, value: value, tie: lostF, size: fp.used.size(), seq: int(fp.leaves), ref: len(fp.store)}
	if fp.fr.add(c) {
		a := make([]counts, len(fp.x))
		for t := range a {
			a[t] = slices.Clone(fp.x[t])
		}
		fp.store = append(fp.store, a)
	}
}

// frontForceBytes is what recording one force against one target costs
// the front's search: its slot in the target's table, and its figures
// once weighed.
const frontForceBytes = 8

// countClassAssignments counts the assignments the front's search walks:
// each class's items split among the targets it can attack (or kept), at
// most limit items in all. A class sending j items to a allowed targets
// splits them C(j+a-1, a-1) ways; the count is a sum over the items used,
// class by class, so it costs nothing next to the walk.
func countClassAssignments(p *pool, allowed [][]bool, limit int) float64 {
	ways := make([]float64, limit+1)
	ways[0] = 1
	for c := range p.classes {
		a := 0
		for t := range allowed {
			if allowed[t][c] {
				a++
			}
		}
		if a == 0 {
			continue
		}
		next := make([]float64, limit+1)
		for u, w := range ways {
			if w == 0 {
				continue
			}
			for j := 0; j <= len(p.classes[c].items) && u+j <= limit; j++ {
				next[u+j] += w * binom(j+a-1, a-1)
			}
		}
		ways = next
	}
	total := 0.0
	for _, w := range ways {
		total += w
	}
	return total
}

// tooLarge words a search over the limit.
func (pl *planner) tooLarge(n float64, what string) error {
	return fmt.Errorf("%s: %w: %.0f %s, over the limit of %.0f; cap plan.max_units, give interchangeable units the same attributes, narrow can_attack, or raise the limit (--max-forces)",
		pl.s.File, ErrTooLarge, n, what, pl.cfg.MaxForces)
}
