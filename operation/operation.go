package operation

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// Result is the answer to a fixed operation: each combat's figures, the
// order of attack and the joint figures.
type Result struct {
	Operation string   `json:"operation"`
	CRT       string   `json:"crt"`
	Order     []string `json:"order"` // the order of attack: every target after those it requires
	Combats   []Combat `json:"combats"`
	Figures   Figures  `json:"joint"`
	// States lists the possible states of hexes taken with their
	// probabilities, the likeliest first; nil (with a warning) past
	// MaxListedStates.
	States   []StateP `json:"states,omitempty"`
	Warnings []string `json:"warnings"`
	// Joint is the whole distribution, for objectives (Joint.Score).
	Joint *Joint `json:"-"`
}

// Combat is one combat of the operation.
type Combat struct {
	ID       string   `json:"id"`
	Kind     string   `json:"kind"`
	Value    float64  `json:"value"`
	Requires []string `json:"requires"`
	// PAttacked is P(every target it requires taken); 1 for a target
	// that requires none.
	PAttacked float64 `json:"p_attacked"`
	// POwn is P(hex taken | attacked): the combat's own figure.
	POwn float64 `json:"p_taken_if_attacked"`
	// PTaken is P(hex taken) in the operation: PAttacked x POwn.
	PTaken  float64           `json:"p_taken"`
	Summary *analysis.Summary `json:"summary"` // the combat's figures, as wifodds run gives them
}

// Figures are the joint figures of the hexes taken.
type Figures struct {
	Exactly       []float64 `json:"exactly"`  // P(exactly k taken), k = 0..n
	AtLeast       []float64 `json:"at_least"` // P(k or more taken), k = 0..n
	All           float64   `json:"all"`
	Sets          []SetP    `json:"sets"`
	ExpectedValue float64   `json:"expected_value"` // each hex worth its value
	TotalValue    float64   `json:"total_value"`
	ExpectedTaken float64   `json:"expected_taken"` // the expected number of hexes taken
}

// StateP is the probability that exactly the targets listed are taken.
type StateP struct {
	Taken []string `json:"taken"`
	P     float64  `json:"p"`
}

// SetP is P(every target of a named set taken).
type SetP struct {
	Name    string   `json:"name"`
	Targets []string `json:"targets"`
	P       float64  `json:"p"`
}

// Compile compiles each target of the operation s under the table and air
// tables given (the operation's own crt, or one the caller chose), in the
// order of the targets.
func Compile(s *scenario.Scenario, table *crt.Table, air *crt.AirTables, opts combat.Options) ([]*combat.Combat, error) {
	if !s.IsOperation() {
		return nil, fmt.Errorf("%s: not an operation: give targets each with its attacker (docs/scenario-format.md, Operations)", s.File)
	}
	if n := len(s.Operation.Targets); n > MaxTargets {
		return nil, fmt.Errorf("%s: %d targets: at most %d", s.File, n, MaxTargets)
	}
	out := make([]*combat.Combat, len(s.Operation.Targets))
	for i, t := range s.Operation.Targets {
		ts := *t.Scenario
		ts.CRT = s.CRT
		c, err := combat.CompileWith(&ts, table, air, opts)
		if err != nil {
			return nil, fmt.Errorf("target %s: %w", t.ID, err)
		}
		out[i] = c
	}
	return out, nil
}

// Run answers the operation s: each combat run as req says (analysis
// RunCombat; a sampled combat draws from its own seed, derived from
// req's seed and its place in the file), then the exact joint
// distribution of the hexes taken from the combats' P(hex taken).
func Run(ctx context.Context, s *scenario.Scenario, table *crt.Table, air *crt.AirTables, req analysis.Request, opts combat.Options) (*Result, error) {
	if len(req.Replay) > 0 {
		return nil, fmt.Errorf("%s: dice are replayed one combat at a time, not for an operation", s.File)
	}
	cs, err := Compile(s, table, air, opts)
	if err != nil {
		return nil, err
	}
	op := s.Operation
	res := &Result{Operation: s.Name, CRT: s.CRT, Warnings: []string{}}
	targets := make([]Target, len(cs))
	for i, c := range cs {
		r := req
		r.Sample.Seed = sim.IndependentSeed(req.Sample.Seed, uint64(i))
		sum, err := analysis.RunCombat(ctx, c, r)
		if err != nil {
			return nil, fmt.Errorf("target %s: %w", op.Targets[i].ID, err)
		}
		if opts.Explain {
			sum.Working = combat.Lines(c.Steps)
		}
		if sum.Partial {
			// The joint figures need every combat whole: a combat cut
			// short leaves nothing to report.
			cause := ctx.Err()
			if cause == nil {
				cause = analysis.ErrNoTrials
			}
			return nil, fmt.Errorf("target %s: stopped after %d trials; an operation reports no partial answer: %w", op.Targets[i].ID, sum.Trials, cause)
		}
		if sum.Method != sim.MethodExact {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s was sampled (Monte Carlo): its P(taken) is an estimate, and the joint figures follow from it", op.Targets[i].ID))
		}
		t := op.Targets[i]
		targets[i] = Target{ID: t.ID, Value: t.Value, P: sum.Probabilities.HexTaken.P, Requires: t.Requires}
		res.Combats = append(res.Combats, Combat{ID: t.ID, Kind: string(t.Scenario.Kind), Value: t.Value,
			Requires: ids(op, t.Requires), POwn: targets[i].P, Summary: sum})
	}
	j, err := NewJoint(targets)
	if err != nil {
		return nil, err
	}
	res.Joint = j
	order, _ := Order(targets)
	res.Order = ids(op, order)
	taken := j.TakenAll()
	for i := range res.Combats {
		c := &res.Combats[i]
		c.PAttacked, c.PTaken = j.Attacked(i), taken[i]
	}
	res.Figures = figures(j, op)
	if j.States() <= MaxListedStates {
		res.States = states(j, op)
	} else {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the %d states of the joint distribution are not listed (at most %d are)", j.States(), MaxListedStates))
	}
	return res, nil
}

// MaxListedStates bounds the states a Result lists: the joint figures
// summarise any number, but a list of a million states is no report.
const MaxListedStates = 4096

// states lists the joint distribution's possible states, the likeliest
// first (ties in state order).
func states(j *Joint, op *scenario.Operation) []StateP {
	out := []StateP{}
	for m := 0; m < j.States(); m++ {
		if p := j.State(m); p > 0 {
			var taken []int
			for i := range j.Targets {
				if m>>i&1 == 1 {
					taken = append(taken, i)
				}
			}
			out = append(out, StateP{Taken: ids(op, taken), P: p})
		}
	}
	slices.SortStableFunc(out, func(a, b StateP) int { return cmp.Compare(b.P, a.P) })
	return out
}

// figures are the joint figures the report gives.
func figures(j *Joint, op *scenario.Operation) Figures {
	f := Figures{Exactly: j.Exactly(), AtLeast: j.AtLeast(), All: j.All(), ExpectedValue: j.Expected(), Sets: []SetP{}}
	for k, p := range f.Exactly {
		f.ExpectedTaken += float64(k) * p
	}
	for _, t := range j.Targets {
		f.TotalValue += t.Value
	}
	for _, s := range op.Sets {
		f.Sets = append(f.Sets, SetP{Name: s.Name, Targets: ids(op, s.Targets), P: j.AllOf(Mask(s.Targets))})
	}
	return f
}

// ids names the targets listed.
func ids(op *scenario.Operation, list []int) []string {
	out := make([]string, len(list))
	for k, i := range list {
		out[k] = op.Targets[i].ID
	}
	return out
}
