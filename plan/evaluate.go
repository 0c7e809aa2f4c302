package plan

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// Eval is what a force does against one hex under one table: the figures
// the frontier and its reports need, read from the outcome tally in one
// pass.
type Eval struct {
	HexTaken            stats.Estimate
	Breakthrough        float64
	AttackerFaceUp      float64
	AttackerUnitsLost   float64 // expected
	AttackerFactorsLost float64
	DefenderUnitsLost   float64
	DefenderFactorsLost float64
	Attack, Defence     float64 // the totals the base odds are read from
	Odds                string  // the base odds
	Table               string  // the table at the base odds
	Sampled             bool    // Monte Carlo: the dice tree is over the path budget
	// lostAtLeast[j] is P(at least j+1 attacking units destroyed or
	// reduced): with the smallest factors in the combat, the factors lost.
	lostAtLeast []float64
}

// Table is a CRT to plan under: its name as the scenario gives it and the
// loaded table.
type Table struct {
	Name  string
	Table *crt.Table
}

// evaluator weighs forces, once per distinct combat.
type evaluator struct {
	ctx      context.Context
	pool     *pool
	targets  []*scenario.Scenario // the hexes; one for a single-hex plan
	commit   []scenario.Unit      // committed attacking units
	tables   []Table
	air      *crt.AirTables
	budget   int
	sample   sim.Config
	workers  int // goroutines weighing forces at once
	memo     map[string]*Eval
	compiled int // distinct combats weighed
	sampled  int // of them, sampled
	main     *weigher
	weighers []*weigher
}

// scenarioOf is the scenario of force x against target t under table k.
func (e *evaluator) scenarioOf(t, k int, x counts) *scenario.Scenario {
	s := e.pool.force(e.targets[t], e.commit, e.pool.itemsOf(x))
	s.CRT = e.tables[k].Name
	return s
}

// hasUnits reports whether force x puts a land unit into the attack: a
// force of support alone is not an attack.
func (e *evaluator) hasUnits(x counts) bool {
	if len(e.commit) > 0 {
		return true
	}
	for c, k := range x {
		if k > 0 && e.pool.items[e.pool.classes[c].items[0]].Unit != nil {
			return true
		}
	}
	return false
}

// eval weighs force x against target t under table k, once.
func (e *evaluator) eval(t, k int, x counts) (*Eval, error) {
	key := string([]byte{byte(t), byte(k)}) + x.key()
	if v, ok := e.memo[key]; ok {
		return v, nil
	}
	v, err := e.weighOne(t, k, x)
	if err != nil {
		return nil, err
	}
	e.memo[key] = v
	return v, nil
}

// weighOne weighs force x against target t under table k on the calling
// goroutine and counts it, for callers that keep their own record of the
// forces weighed.
func (e *evaluator) weighOne(t, k int, x counts) (*Eval, error) {
	if e.main == nil {
		e.main = &weigher{e: e}
	}
	v, err := e.main.weigh(t, k, x)
	if err != nil {
		return nil, err
	}
	e.count(v)
	return v, nil
}

// count counts a distinct combat weighed.
func (e *evaluator) count(v *Eval) {
	e.compiled++
	if v.Sampled {
		e.sampled++
	}
}

// weighAll weighs the forces xs against target t under table k into out,
// on the evaluator's workers. Each force is weighed alone, so the figures
// do not depend on the number of workers.
func (e *evaluator) weighAll(t, k int, xs []counts, out []*Eval) error {
	workers := max(1, min(e.workers, len(xs)))
	for len(e.weighers) < workers {
		e.weighers = append(e.weighers, &weigher{e: e})
	}
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(xs); i += workers {
				if out[i], errs[w] = e.weighers[w].weigh(t, k, xs[i]); errs[w] != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	for _, v := range out[:len(xs)] {
		e.count(v)
	}
	return nil
}

// weigher compiles and weighs forces, one at a time: each goroutine has
// its own, for its scratch scenario.
type weigher struct {
	e *evaluator
	// scratch is the scenario weigh compiles, reused from force to force:
	// weigh keeps no combat, so nothing refers to it once weigh returns.
	scratch scenario.Scenario
	items   []int
}

// weigh compiles force x against target t under table k and weighs it:
// exactly, or by Monte Carlo over the path budget.
func (w *weigher) weigh(t, k int, x counts) (*Eval, error) {
	e := w.e
	if err := e.ctx.Err(); err != nil {
		return nil, err
	}
	w.items = e.pool.appendItems(w.items[:0], x)
	s := &w.scratch
	e.pool.forceInto(s, e.targets[t], e.commit, w.items)
	s.CRT = e.tables[k].Name
	c, err := combat.CompileWith(s, e.tables[k].Table, e.air, combat.Options{})
	if err != nil {
		return nil, fmt.Errorf("the force %v: %w", e.pool.ids(e.pool.itemsOf(x)), err)
	}
	tally, _, err := sim.Exact(e.ctx, c, e.budget, nil)
	sampled := false
	if errors.Is(err, sim.ErrBudget) {
		sampled = true
		var run sim.Run
		tally, run, err = sim.Sample(e.ctx, c, e.sample)
		if err == nil && (run.Partial || run.Trials == 0) {
			err = context.Canceled
			if e.ctx.Err() != nil {
				err = e.ctx.Err()
			}
		}
	}
	if err != nil {
		return nil, err
	}
	v := headline(c, tally)
	v.Sampled = sampled
	return v, nil
}

// headline reads a force's figures from its tally in one pass over the
// outcomes, adding weights in outcome order as analysis.Summarize does, so
// an exact probability here is the same number it reports.
func headline(c *combat.Combat, t *stats.Tally) *Eval {
	v := &Eval{Attack: c.Attack, Defence: c.Defence, Odds: c.AtOdds[0].Odds, Table: c.AtOdds[0].Table.String()}
	var taken, bt, up, au, af, du, df, sum float64
	var kTaken uint64
	for i := range c.Outcomes {
		o := &c.Outcomes[i]
		w := t.Prob(i)
		if !t.Exact() {
			w = float64(t.Counts[i])
		}
		if o.HexTaken {
			taken += w
			if !t.Exact() {
				kTaken += t.Counts[i]
			}
		}
		if o.Breakthrough {
			bt += w
		}
		if o.AttackerFaceUp {
			up += w
		}
		for j := range int(o.AttackerLost) + int(o.AttackerReduced) {
			for len(v.lostAtLeast) <= j {
				v.lostAtLeast = append(v.lostAtLeast, 0)
			}
			v.lostAtLeast[j] += w
		}
		au += w * float64(o.AttackerLost)
		af += w * o.AttackerFactorsLost
		du += w * float64(o.DefenderLost)
		df += w * o.DefenderFactorsLost
		sum += w
	}
	if t.Exact() {
		v.HexTaken = stats.Exact(min(taken, 1))
		v.Breakthrough, v.AttackerFaceUp = min(bt, 1), min(up, 1)
	} else {
		v.HexTaken = stats.Wilson(kTaken, t.N, stats.Z95)
		v.Breakthrough, v.AttackerFaceUp = bt/sum, up/sum
	}
	v.AttackerUnitsLost, v.AttackerFactorsLost = au/sum, af/sum
	for j := range v.lostAtLeast {
		v.lostAtLeast[j] /= sum
	}
	v.DefenderUnitsLost, v.DefenderFactorsLost = du/sum, df/sum
	return v
}
