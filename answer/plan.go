package answer

import (
	"context"

	"github.com/wifodds/wifodds/plan"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// PlanFlags are `wifodds plan`'s flags.
type PlanFlags struct {
	Target    float64    // overrides the plan file's when > 0 (a front: expected hexes taken; a defender's plan: P(hex held))
	MaxForces float64    // most forces or assignments to weigh
	Budget    int        // most dice paths an exact answer may walk per combat
	Sample    sim.Config // Monte Carlo for a combat over the budget
	Workers   int        // goroutines weighing forces
	Progress  func(done, planned uint64)
}

// Plan answers `wifodds plan` for an attacker's plan: the tables are
// plan.crts, else the scenario's crt. A defender's plan is answered by
// Defend (or PlanSide, for either).
func Plan(ctx context.Context, in Input, f PlanFlags) (*plan.Result, error) {
	s, cfg, err := planInput(in, f)
	if err != nil {
		return nil, err
	}
	if s.Plan.Side == scenario.DefenderSide {
		return nil, inputf("a defender's plan (plan.side: defender) is answered by the defender's question, not the attack planner")
	}
	return plan.Plan(ctx, s, cfg)
}

// Defend answers `wifodds plan` for a defender's plan (plan.side:
// defender): the cheapest reserves that hold the hex against the
// attacker's best response.
func Defend(ctx context.Context, in Input, f PlanFlags) (*plan.Defence, error) {
	s, cfg, err := planInput(in, f)
	if err != nil {
		return nil, err
	}
	if s.Plan.Side != scenario.DefenderSide {
		return nil, inputf("not a defender's plan: give plan.side: defender and the reserves under defender.available")
	}
	return plan.Defend(ctx, s, cfg)
}

// PlanSide answers `wifodds plan` for the side the plan file plans: a
// *plan.Result for the attacker, a *plan.Defence for the defender. The
// server and the browser build answer /api/plan with it.
func PlanSide(ctx context.Context, in Input, f PlanFlags) (any, error) {
	s, cfg, err := planInput(in, f)
	if err != nil {
		return nil, err
	}
	if s.Plan.Side == scenario.DefenderSide {
		return plan.Defend(ctx, s, cfg)
	}
	return plan.Plan(ctx, s, cfg)
}

// planInput parses a plan file, checks the flags against it and opens
// its tables.
func planInput(in Input, f PlanFlags) (*scenario.Scenario, plan.Config, error) {
	s, err := in.parse()
	switch {
	case err != nil:
		return nil, plan.Config{}, err
	case !s.IsPlan():
		return nil, plan.Config{}, &InputError{ErrNotPlan}
	case f.Target > 1 && (len(s.Targets) == 0 || s.Plan.Side == scenario.DefenderSide || s.Plan.IsChance()):
		return nil, plan.Config{}, inputf("target %v: a chance is at most 1", f.Target)
	}
	names := s.Plan.CRTs
	if len(names) == 0 {
		names = []string{s.CRT}
	}
	var tables []plan.Table
	for _, n := range names {
		t, err := in.Tables.CRT(s, n)
		if err != nil {
			return nil, plan.Config{}, err
		}
		tables = append(tables, plan.Table{Name: n, Table: t})
	}
	air, err := in.Tables.Air(s)
	if err != nil {
		return nil, plan.Config{}, err
	}
	return s, plan.Config{Tables: tables, Air: air, Budget: f.Budget, Sample: f.Sample,
		MaxForces: f.MaxForces, Target: f.Target, Workers: f.Workers, Progress: f.Progress}, nil
}
