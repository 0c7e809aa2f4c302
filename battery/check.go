package battery

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/scenario"
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

// runs is what a part's header says every result holds: the variants'
// names in order, the table each must use ("" where the scenario's own),
// and the method ("" where the engine chose per scenario).
type runs struct {
	names, crts []string
	method      string
}

// engineName names an engine in a part.
func engineName(e analysis.Engine) string {
	switch e {
	case analysis.Exact:
		return MethodExact
	case analysis.MonteCarlo:
		return MethodMonteCarlo
	case analysis.Auto:
		return "auto"
	}
	return fmt.Sprintf("engine %d", e)
}

// header reads the part's variant specs and engine as the battery read
// them (analysis.CompileVariants: a lone variant follows the scenario as
// written; scenario.Override: crt=NAME sets the table).
func (p *Part) header() (*runs, error) {
	rs := &runs{}
	switch p.Engine {
	case MethodExact, MethodMonteCarlo:
		rs.method = p.Engine
	case "auto":
	default:
		return nil, fmt.Errorf("engine %q: want exact, monte-carlo or auto", p.Engine)
	}
	specs := p.Variants
	if len(specs) == 0 {
		return nil, errors.New("no variants")
	}
	if len(specs) == 1 {
		specs = append([]string{"scenario="}, specs...)
	}
	for _, spec := range specs {
		name, over, ok := strings.Cut(spec, "=")
		if name = strings.TrimSpace(name); !ok || name == "" || slices.Contains(rs.names, name) {
			return nil, fmt.Errorf("variant %q: want NAME=OVERRIDES, each name once", spec)
		}
		if err := scenario.OneLine(spec); err != nil {
			return nil, fmt.Errorf("variant: %w", err)
		}
		// The overrides as the battery read them (a modifier in -30..30,
		// known options, each key once); a land scenario stands in for
		// the battery's, which the part does not carry.
		if _, err := scenario.Override(&scenario.Scenario{Kind: scenario.Land}, over); err != nil {
			return nil, fmt.Errorf("variant %s: %w", name, err)
		}
		crt := ""
		for _, part := range strings.Split(over, ",") {
			if key, val, _ := strings.Cut(strings.TrimSpace(part), "="); strings.TrimSpace(key) == "crt" {
				crt = strings.TrimSpace(val)
			}
		}
		rs.names, rs.crts = append(rs.names, name), append(rs.crts, crt)
	}
	return rs, nil
}

// check refuses a result no comparison could give: an unknown method, a
// missing or unknown metric, a probability outside [0, 1], an interval
// that leaves out its estimate, an exact figure with an interval, or a
// difference that is not the difference of the figures. A part's digest
// catches an edit; these catch a part written wrong, or edited and its
// digest recomputed, before a report prints 96.67% or -500%. Against the
// part's header, the variants must be its variants, in order, on the
// tables they name, and the method one its engine allows.
func (r *Result) check(rs *runs) error {
	if rs.method != "" && r.Method != rs.method {
		return fmt.Errorf("method %s, but the battery ran %s", r.Method, rs.method)
	}
	if len(r.Variants) != len(rs.names) {
		return fmt.Errorf("%d variants, but the battery ran %d", len(r.Variants), len(rs.names))
	}
	for k, v := range r.Variants {
		switch {
		case v.Name != rs.names[k]:
			return fmt.Errorf("variant %d is %q, but the battery's is %q", k+1, v.Name, rs.names[k])
		case rs.crts[k] != "" && v.CRT != rs.crts[k]:
			return fmt.Errorf("variant %s used table %q, but it names %q", v.Name, v.CRT, rs.crts[k])
		}
	}
	switch r.Method {
	case MethodExact:
		if r.Trials != 0 {
			return fmt.Errorf("an exact comparison with %d trials", r.Trials)
		}
	case MethodMonteCarlo:
		if r.Trials == 0 {
			return errors.New("a sampled comparison with no trials")
		}
		if r.Trials > sim.MaxTrials {
			return fmt.Errorf("a sampled comparison of %d trials: at most %d", r.Trials, sim.MaxTrials)
		}
	default:
		return fmt.Errorf("method %q: want %s or %s", r.Method, MethodExact, MethodMonteCarlo)
	}
	for k, v := range r.Variants {
		if v.CRT == "" {
			return fmt.Errorf("variant %s names no table", v.Name)
		}
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
// differences in [-1, 1]) and expected losses in [0, 64], the most units
// a side lists (their differences in [-64, 64]).
func (r *Result) checkFigures(fs map[string]stats.Estimate, diff bool) error {
	if len(fs) != len(analysis.CompareMetrics) {
		return fmt.Errorf("%d metrics, want %d", len(fs), len(analysis.CompareMetrics))
	}
	for _, m := range analysis.CompareMetrics {
		e, ok := fs[m.Name]
		lo, hi := 0.0, 1.0
		switch {
		case diff && m.Mean:
			lo, hi = -scenario.MaxSideUnits, scenario.MaxSideUnits
		case diff:
			lo = -1
		case m.Mean:
			hi = scenario.MaxSideUnits
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
		case m.Mean && (e.Lo < lo-2*scenario.MaxSideUnits || e.Hi > hi+2*scenario.MaxSideUnits):
			// A mean's 95% half-width is under 2 standard deviations,
			// and a loss (or a paired difference) ranging over 128
			// values deviates by at most 64.
			return fmt.Errorf("%s: the interval %v..%v is wider than losses of %d units allow", m.Name, e.Lo, e.Hi, scenario.MaxSideUnits)
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
