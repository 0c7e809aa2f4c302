package plan

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// DefaultMaxForces bounds the distinct force states (one hex) or states of
// assignments (a front) a plan searches unless the caller says otherwise.
// Any limit is checked against the memory it would need before the
// search allocates anything.
const DefaultMaxForces = 2_000_000

// ErrTooLarge is returned (wrapped) when a plan has more forces or
// assignments than the caller allows.
var ErrTooLarge = errors.New("the plan has too many forces to weigh")

// Config is how to plan.
type Config struct {
	Tables    []Table        // the CRTs to plan under, loaded by the caller; at least one
	Air       *crt.AirTables // air tables for AA fire at ground support, or nil for the built-in ones
	Budget    int            // most dice paths an exact answer may walk per combat (<= 0: sim.DefaultPathBudget)
	Sample    sim.Config     // Monte Carlo for a combat over the budget
	MaxForces float64        // most states of forces (one hex) or assignments (a front) to search (<= 0: DefaultMaxForces)
	Workers   int            // goroutines weighing forces (<= 0: one); the answer does not depend on it
	Target    float64        // a target overriding the plan file's, when > 0
	// Progress, when set, sees the forces weighed so far and planned.
	Progress func(done, planned uint64)
}

// Plan weighs the forces a plan file allows under each table and returns
// the frontiers and recommendations. It does no I/O.
func Plan(ctx context.Context, s *scenario.Scenario, cfg Config) (*Result, error) {
	pls, err := planners(ctx, s, cfg)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	for _, pl := range pls {
		var tp *TablePlan
		if len(s.Targets) > 0 {
			tp, err = pl.front()
		} else {
			tp, err = pl.hex()
		}
		if err != nil {
			return nil, err
		}
		res.Plans = append(res.Plans, tp)
	}
	res.TablePlan = res.Plans[0]
	return res, nil
}

// settled is cfg with its defaults filled in, and the target it plans
// for: cfg.Target when given, else the plan file's.
func (cfg Config) settled(s *scenario.Scenario) (Config, float64, error) {
	if len(cfg.Tables) == 0 {
		return cfg, 0, errors.New("plan: no table to plan under")
	}
	if cfg.MaxForces <= 0 {
		cfg.MaxForces = DefaultMaxForces
	}
	if cfg.Budget <= 0 {
		cfg.Budget = sim.DefaultPathBudget
	}
	target := s.Plan.Target
	if cfg.Target > 0 {
		target = cfg.Target
	}
	return cfg, target, nil
}

// planners checks a plan and readies a planner for each table.
func planners(ctx context.Context, s *scenario.Scenario, cfg Config) ([]*planner, error) {
	if !s.IsPlan() {
		return nil, fmt.Errorf("%s: not a plan: list the units the attack may add under attacker.available (docs/scenario-format.md, Plans)", s.File)
	}
	cfg, target, err := cfg.settled(s)
	if err != nil {
		return nil, err
	}
	var targets []*scenario.Scenario
	var ids []string
	for _, t := range s.Targets {
		targets = append(targets, t.Scenario)
		ids = append(ids, t.ID)
	}
	if len(targets) == 0 {
		targets = []*scenario.Scenario{s}
	}
	p := newPool(s, ids)
	var out []*planner
	for k := range cfg.Tables {
		e := &evaluator{ctx: ctx, pool: p, targets: targets, commit: s.Attacker.Units, tables: cfg.Tables,
			air: cfg.Air, budget: cfg.Budget, sample: cfg.Sample, memo: map[string]*Eval{}, workers: max(cfg.Workers, 1)}
		out = append(out, &planner{e: e, s: s, k: k, cfg: cfg, target: target})
	}
	return out, nil
}

// planner plans under one table.
type planner struct {
	e      *evaluator
	s      *scenario.Scenario
	k      int // the table
	cfg    Config
	target float64
	// attacks counts the forces (or assignments) weighed that put a land
	// unit into an attack, to say why nothing reaches the target.
	attacks int
}

// costOf is what force x costs under the plan's measure, given its
// expected losses.
func (pl *planner) costOf(x counts, attUnits, attFactors float64) float64 {
	switch pl.s.Plan.Cost {
	case scenario.CommittedUnits:
		return float64(x.size())
	case scenario.CommittedBuildPoints:
		return pl.e.pool.buildPoints(x)
	case scenario.ExpectedFactorsLost:
		return attFactors
	case scenario.ExpectedUnitsLost:
		return attUnits
	}
	return pl.e.pool.factors(x)
}

// maxUnits is the most items a force may send.
func (pl *planner) maxUnits() int {
	if m := pl.s.Plan.MaxUnits; m > 0 {
		return m
	}
	return len(pl.e.pool.items)
}

// figures are the full figures of force x against target t, as `wifodds
// run` reports them: compiled again and summarised by analysis.
func (pl *planner) figures(t int, x counts) (*HexFigures, error) {
	e := pl.e
	return Figures(e.ctx, e.scenarioOf(t, pl.k, x), e.tables[pl.k], e.air, analysis.Request{Engine: analysis.Auto, Budget: e.budget, Sample: e.sample})
}

// forceOf describes force x with the totals every force carries.
func (pl *planner) forceOf(x counts, cost float64) *Force {
	p := pl.e.pool
	units := p.ids(p.itemsOf(x))
	return &Force{Units: units, Cost: cost, CommittedFactors: p.factors(x), CommittedUnits: x.size(), BuildPoints: p.buildPoints(x)}
}

// countForces is how many count vectors enumerate visits, and how many
// subsets of items they stand for.
func countForces(p *pool, allowed []bool, limit int) (vectors, subsets float64) {
	// ways[n]: (vectors, subsets) using n items over the classes so far.
	vs := make([]float64, limit+1)
	ss := make([]float64, limit+1)
	vs[0], ss[0] = 1, 1
	var hqs []int // the HQ classes: one HQ at most, of any of them
	for c := range p.classes {
		if !allowed[c] {
			continue
		}
		if p.isHQ(c) {
			hqs = append(hqs, c)
			continue
		}
		n := len(p.classes[c].items)
		nv := make([]float64, limit+1)
		ns := make([]float64, limit+1)
		for used := 0; used <= limit; used++ {
			if vs[used] == 0 {
				continue
			}
			for k := 0; k <= n && used+k <= limit; k++ {
				nv[used+k] += vs[used]
				ns[used+k] += ss[used] * binom(n, k)
			}
		}
		vs, ss = nv, ns
	}
	if len(hqs) > 0 {
		nv, ns := slices.Clone(vs), slices.Clone(ss)
		for used := range limit {
			for _, c := range hqs {
				nv[used+1] += vs[used]
				ns[used+1] += ss[used] * float64(len(p.classes[c].items))
			}
		}
		vs, ss = nv, ns
	}
	for i := range vs {
		vectors += vs[i]
		subsets += ss[i]
	}
	return vectors, subsets
}
