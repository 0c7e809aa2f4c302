package query

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/plan"
	"github.com/wifodds/wifodds/sim"
)

// Bounds a link cannot raise: they keep one request's work and answer
// small whatever it asks.
const (
	maxDice     = 64 // rolls of dice=
	maxVariants = 12 // variant= parameters
)

// Run answers run (`wifodds run --format json`) for the parameters method,
// trials, seed, budget, explain, raids, dice, crt and cell (repeated: the
// table's cells edited, TABLE/ODDS/ROLL:RESULT).
func Run(ctx context.Context, in answer.Input, v url.Values, lim Limits) (*answer.RunAnswer, error) {
	q := reader{v}
	req, err := q.request(lim)
	if err != nil {
		return nil, err
	}
	f := answer.RunFlags{Request: req, Cells: v["cell"]}
	if f.Explain, err = q.boolean("explain"); err != nil {
		return nil, err
	}
	// As the CLI's --raids: the range first, then the kind it applies to
	// (0 when not asked).
	if v.Has("raids") {
		if f.Raids, err = q.intIn("raids", 1, 1, combat.MaxRaids); err != nil {
			return nil, err
		}
	}
	if d := v.Get("dice"); d != "" {
		if f.Dice, err = sim.ParseRolls(d); err != nil {
			return nil, bad("dice=%s: %v", d, err)
		}
		if len(f.Dice) > maxDice {
			return nil, bad("dice=%s: at most %d rolls", d, maxDice)
		}
	}
	if c := v.Get("crt"); c != "" {
		in.CRT = c
	}
	a, err := answer.Run(ctx, in, f)
	var re *analysis.ReplayError
	switch {
	case errors.As(err, &re):
		return nil, bad("dice: %v", err)
	case errors.Is(err, answer.ErrRaidsNotBombardment):
		return nil, bad("raids=%s: %v", v.Get("raids"), answer.ErrRaidsNotBombardment)
	case errors.Is(err, answer.ErrCellsBombardment):
		return nil, bad("cell=%s: %v", v.Get("cell"), answer.ErrCellsBombardment)
	}
	return a, err
}

// Weights answers weights (the page's Table tab) for the parameters crt
// and cell (repeated): the combat's table with every cell's weight.
func Weights(ctx context.Context, in answer.Input, v url.Values) (*answer.TableWeights, error) {
	if c := v.Get("crt"); c != "" {
		in.CRT = c
	}
	return answer.Weights(ctx, in, answer.WeightsFlags{Cells: v["cell"]})
}

// Compare answers compare (`wifodds compare`) for the parameters variant
// (NAME=OVERRIDES, one or more), method, trials, seed, budget and
// independent.
func Compare(ctx context.Context, in answer.Input, v url.Values, lim Limits) (*analysis.Comparison, error) {
	q := reader{v}
	req, err := q.request(lim)
	if err != nil {
		return nil, err
	}
	specs := v["variant"]
	if len(specs) == 0 {
		return nil, bad("give at least one variant=NAME=OVERRIDES, e.g. variant=alt=crt=2d6")
	}
	if len(specs) > maxVariants {
		return nil, bad("at most %d variants", maxVariants)
	}
	independent, err := q.boolean("independent")
	if err != nil {
		return nil, err
	}
	return answer.Compare(ctx, in, answer.CompareFlags{Request: req, Variants: specs, Independent: independent})
}

// Sweep answers sweep (`wifodds sweep`) for the parameters attack or
// defence (LO..HI), modifier, crt (a comma-separated list), target and
// budget.
func Sweep(ctx context.Context, in answer.Input, v url.Values, lim Limits) (*analysis.Sweep, error) {
	q := reader{v}
	f := answer.SweepFlags{Axis: analysis.Attack, Progress: lim.Progress}
	spec := v.Get("attack")
	if d := v.Get("defence"); d != "" {
		if spec != "" {
			return nil, bad("sweep one total: attack or defence")
		}
		f.Axis, spec = analysis.Defence, d
	}
	if spec == "" {
		return nil, bad("give attack=LO..HI or defence=LO..HI")
	}
	var err error
	if f.Totals, err = q.rangeOf(string(f.Axis), spec); err != nil {
		return nil, err
	}
	if r := f.Totals; r.Lo < 0 || r.Hi > analysis.MaxSweepTotal || r.Hi-r.Lo >= analysis.MaxSweepSteps {
		return nil, bad("%s=%s: totals from 0 to %d, at most %d steps", f.Axis, spec, analysis.MaxSweepTotal, analysis.MaxSweepSteps)
	}
	if m := v.Get("modifier"); m != "" {
		mr, err := q.rangeOf("modifier", m)
		if err != nil {
			return nil, err
		}
		if mr.Lo < -crt.MaxModifier || mr.Hi > crt.MaxModifier {
			return nil, bad("modifier=%s: within -%d..%d", m, crt.MaxModifier, crt.MaxModifier)
		}
		for x := mr.Lo; x <= mr.Hi; x++ {
			f.Modifiers = append(f.Modifiers, x)
		}
	}
	if _, f.Budget, err = q.sampling(lim); err != nil {
		return nil, err
	}
	if c := v.Get("crt"); c != "" {
		f.CRTs = strings.Split(c, ",")
	}
	// Checked before anything is computed: the steps' summaries are held
	// until the answer is written, about 2 kB of memory each.
	totals, mods, tables := f.Totals.Hi-f.Totals.Lo+1, max(len(f.Modifiers), 1), max(len(f.CRTs), 1)
	if n := totals * mods * tables; n > MaxSweepCombats {
		return nil, bad("a sweep of %d combats (%d totals x %d modifiers x %d tables): a request computes at most %d; narrow %s or modifier, or run `wifodds sweep` for more",
			n, totals, mods, tables, MaxSweepCombats, f.Axis)
	}
	if f.Target, err = q.float("target", 0, 1); err != nil {
		return nil, err
	}
	sw, err := answer.Sweep(ctx, in, f)
	var none *answer.NoStepError
	if errors.As(err, &none) {
		return nil, bad("no step of %s is at or above what the units already bring: %s", spec, strings.Join(none.Notes, "; "))
	}
	return sw, err
}

// Plan answers plan (`wifodds plan --format json`), the attacker's or the
// defender's, for the parameters target, max_forces, trials, seed and
// budget.
func Plan(ctx context.Context, in answer.Input, v url.Values, lim Limits) (any, error) {
	q := reader{v}
	target, err := q.float("target", 0, 1000)
	if err != nil {
		return nil, err
	}
	maxForces, err := q.count("max_forces", 2_000_000, plan.DefaultMaxForces)
	if err != nil {
		return nil, err
	}
	smp, budget, err := q.sampling(lim)
	if err != nil {
		return nil, err
	}
	return answer.PlanSide(ctx, in, answer.PlanFlags{Target: target, MaxForces: float64(maxForces), Budget: budget,
		Sample: smp, Workers: lim.Workers, Progress: lim.Progress})
}
