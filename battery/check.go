package battery

import (
	"errors"
	"fmt"
	"math"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// The methods a scenario's comparison uses.
const (
	MethodExact      = sim.MethodExact
	MethodMonteCarlo = sim.MethodMonteCarlo
)

// diffTol is how far a difference may stray from the two figures it is
// the difference of: a sampled difference is summed over paired trials,
// the figures over each variant's, so they agree only to rounding.
const diffTol = 1e-9

// check refuses a result no comparison could give: an unknown method, a
// missing or unknown metric, a probability outside [0, 1], an interval
// that leaves out its estimate, an exact figure with an interval, or a
// difference that is not the difference of the figures. A part's digest
// catches an edit; these catch a part written wrong, or edited and its
// digest recomputed, before a report prints 96.67% or -500%.
func (r *Result) check() error {
	switch r.Method {
	case MethodExact:
		if r.Trials != 0 {
			return fmt.Errorf("an exact comparison with %d trials", r.Trials)
		}
	case MethodMonteCarlo:
		if r.Trials == 0 {
			return errors.New("a sampled comparison with no trials")
		}
	default:
		return fmt.Errorf("method %q: want %s or %s", r.Method, MethodExact, MethodMonteCarlo)
	}
	if len(r.Variants) == 0 {
		return errors.New("no variants")
	}
	names := map[string]bool{}
	for k, v := range r.Variants {
		switch {
		case v.Name == "" || v.CRT == "":
			return fmt.Errorf("variant %d has no name or no CRT", k+1)
		case names[v.Name]:
			return fmt.Errorf("variant %s twice", v.Name)
		}
		names[v.Name] = true
		if err := r.checkFigures(v.Metrics, false); err != nil {
			return fmt.Errorf("variant %s: %w", v.Name, err)
		}
		if k == 0 {
			if v.Diff != nil {
				return fmt.Errorf("variant %s: the baseline has a difference from itself", v.Name)
			}
			continue
		}
		if err := r.checkFigures(v.Diff, true); err != nil {
			return fmt.Errorf("variant %s: difference: %w", v.Name, err)
		}
		base := r.Variants[0].Metrics
		for _, m := range analysis.CompareMetrics {
			d, want := v.Diff[m.Name].P, v.Metrics[m.Name].P-base[m.Name].P
			if math.Abs(d-want) > diffTol*(1+math.Abs(want)) {
				return fmt.Errorf("variant %s: the difference in %s is %v, but the figures differ by %v", v.Name, m.Name, d, want)
			}
		}
	}
	return nil
}

// checkFigures checks one variant's metrics, or its differences from the
// baseline: exactly compare's metrics, finite, each interval holding its
// estimate (and no interval when exact), probabilities in [0, 1] (their
// differences in [-1, 1]) and expected losses not negative.
func (r *Result) checkFigures(fs map[string]stats.Estimate, diff bool) error {
	if len(fs) != len(analysis.CompareMetrics) {
		return fmt.Errorf("%d metrics, want %d", len(fs), len(analysis.CompareMetrics))
	}
	for _, m := range analysis.CompareMetrics {
		e, ok := fs[m.Name]
		lo, hi := 0.0, 1.0
		switch {
		case diff && m.Mean:
			lo, hi = math.Inf(-1), math.Inf(1)
		case diff:
			lo = -1
		case m.Mean:
			hi = math.Inf(1)
		}
		switch {
		case !ok:
			return fmt.Errorf("no %s", m.Name)
		case !finite(e.P) || !finite(e.Lo) || !finite(e.Hi):
			return fmt.Errorf("%s: %v..%v..%v is not a number", m.Name, e.Lo, e.P, e.Hi)
		case !(e.Lo <= e.P && e.P <= e.Hi):
			return fmt.Errorf("%s: %v lies outside its interval %v..%v", m.Name, e.P, e.Lo, e.Hi)
		case r.Method == MethodExact && (e.Lo != e.P || e.Hi != e.P):
			return fmt.Errorf("%s: an exact figure %v with an interval %v..%v", m.Name, e.P, e.Lo, e.Hi)
		case e.P < lo || e.P > hi:
			return fmt.Errorf("%s: %v is outside %v..%v", m.Name, e.P, lo, hi)
		case !diff && !m.Mean && (e.Lo < 0 || e.Hi > 1):
			return fmt.Errorf("%s: the interval %v..%v leaves 0..1", m.Name, e.Lo, e.Hi)
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
