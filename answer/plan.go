package answer

import (
	"context"

	"github.com/wifodds/wifodds/plan"
	"github.com/wifodds/wifodds/sim"
)

// PlanFlags are `wifodds plan`'s flags.
type PlanFlags struct {
	Target    float64    // overrides the plan file's when > 0 (a front: expected hexes taken)
	MaxForces float64    // most forces or assignments to weigh
	Budget    int        // most dice paths an exact answer may walk per combat
	Sample    sim.Config // Monte Carlo for a combat over the budget
	Workers   int        // goroutines weighing forces
	Progress  func(done, planned uint64)
}

// Plan answers `wifodds plan`: the tables are plan.crts, else the
// scenario's crt.
func Plan(ctx context.Context, in Input, f PlanFlags) (*plan.Result, error) {
	s, err := in.parse()
	switch {
	case err != nil:
		return nil, err
	case !s.IsPlan():
		return nil, &InputError{ErrNotPlan}
	case f.Target > 1 && len(s.Targets) == 0:
		return nil, inputf("target %v: a chance is at most 1", f.Target)
	}
	names := s.Plan.CRTs
	if len(names) == 0 {
		names = []string{s.CRT}
	}
	var tables []plan.Table
	for _, n := range names {
		t, err := in.Tables.CRT(s, n)
		if err != nil {
			return nil, err
		}
		tables = append(tables, plan.Table{Name: n, Table: t})
	}
	air, err := in.Tables.Air(s)
	if err != nil {
		return nil, err
	}
	return plan.Plan(ctx, s, plan.Config{Tables: tables, Air: air, Budget: f.Budget, Sample: f.Sample,
		MaxForces: f.MaxForces, Target: f.Target, Workers: f.Workers, Progress: f.Progress})
}
