package analysis

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// CompareMetric is a headline quantity compared across variants.
type CompareMetric struct {
	Name  string
	Mean  bool // an expected value rather than a probability
	value func(o *combat.Outcome) float64
}

// Value is the metric's value for one outcome: 0 or 1 for a
// probability, a count of units for a mean.
func (m CompareMetric) Value(o *combat.Outcome) float64 { return m.value(o) }

func indicator(f func(o *combat.Outcome) bool) func(o *combat.Outcome) float64 {
	return func(o *combat.Outcome) float64 {
		if f(o) {
			return 1
		}
		return 0
	}
}

// CompareMetrics are the quantities compare reports for every variant.
var CompareMetrics = []CompareMetric{
	{"hex_taken", false, indicator(func(o *combat.Outcome) bool { return o.HexTaken })},
	{"breakthrough", false, indicator(func(o *combat.Outcome) bool { return o.Breakthrough })},
	{"attacker_face_up", false, indicator(func(o *combat.Outcome) bool { return o.AttackerFaceUp })},
	{"attacker_units_lost", true, func(o *combat.Outcome) float64 { return float64(o.AttackerLost) }},
	{"defender_units_lost", true, func(o *combat.Outcome) float64 { return float64(o.DefenderLost) }},
}

// NamedCombat is a scenario variant: its name, overrides and compiled combat.
type NamedCombat struct {
	Name      string
	Overrides string
	Combat    *combat.Combat
}

// Comparison is a comparison of variants of one scenario: each variant's
// headline metrics and result mix, and each metric's difference from the
// first variant with its 95% interval.
type Comparison struct {
	Scenario string          `json:"scenario"`
	Method   string          `json:"method"`
	Trials   uint64          `json:"trials,omitempty"`
	Seed     *uint64         `json:"seed,omitempty"`
	CRN      bool            `json:"common_random_numbers"`
	Elapsed  float64         `json:"elapsed_seconds"`
	Partial  bool            `json:"partial"`
	Variants []VariantResult `json:"variants"`
	Warnings []string        `json:"warnings"`
}

// VariantResult is one variant of a comparison.
type VariantResult struct {
	Name      string                    `json:"name"`
	Overrides string                    `json:"overrides"`
	CRT       string                    `json:"crt"`
	Metrics   map[string]stats.Estimate `json:"metrics"`
	Diff      map[string]stats.Estimate `json:"difference_from_first,omitempty"`
	Test      *stats.ChiSquared         `json:"result_test,omitempty"`
	Results   Keyed[float64]            `json:"results"`
	Summary   *Summary                  `json:"-"`
	combat    *combat.Combat
}

// CompareExact compares variants by exact enumeration: every difference is
// exact.
func CompareExact(ctx context.Context, scenario string, vs []NamedCombat, budget int) (*Comparison, error) {
	cmp := &Comparison{Scenario: scenario, Method: sim.MethodExact, Warnings: []string{}}
	var first []float64
	for k, v := range vs {
		t, run, err := sim.Exact(ctx, v.Combat, budget, nil)
		if err != nil {
			return nil, fmt.Errorf("variant %s: %w", v.Name, err)
		}
		r := variantResult(v, t, run)
		means := make([]float64, len(CompareMetrics))
		for i, m := range CompareMetrics {
			means[i] = r.Metrics[m.Name].P
		}
		if k == 0 {
			first = means
		} else {
			r.Diff = map[string]stats.Estimate{}
			for i, m := range CompareMetrics {
				r.Diff[m.Name] = stats.Exact(means[i] - first[i])
			}
		}
		cmp.Variants = append(cmp.Variants, r)
	}
	return cmp, nil
}

// CompareSampled compares variants by Monte Carlo, each against the first
// on the same trials. With crn the variants share their random numbers; the
// differences then have far tighter intervals than independent runs give.
func CompareSampled(ctx context.Context, scenario string, vs []NamedCombat, cfg sim.Config, crn bool) (*Comparison, error) {
	seed := cfg.Seed
	cmp := &Comparison{Scenario: scenario, Method: sim.MethodMonteCarlo, Seed: &seed, CRN: crn, Warnings: []string{}}
	if len(vs) == 1 {
		vs = append(vs, vs[0]) // a lone variant is compared with itself
		defer func() { cmp.Variants = cmp.Variants[:1] }()
	}
	first := vs[0]
	for k := 1; k < len(vs); k++ {
		seedB := cfg.Seed
		if !crn {
			seedB = sim.IndependentSeed(cfg.Seed, uint64(k))
		}
		j, err := sim.SampleJoint(ctx, first.Combat, vs[k].Combat, cfg, seedB)
		if err != nil {
			return nil, err
		}
		cmp.Trials, cmp.Partial = j.Trials, cmp.Partial || j.Partial
		if j.Trials == 0 {
			return cmp, nil
		}
		ma, mb := j.Marginal(0), j.Marginal(1)
		if k == 1 {
			cmp.Variants = append(cmp.Variants, variantResult(first, &stats.Tally{Counts: ma, N: j.Trials}, mcRun(j.Trials)))
		}
		r := variantResult(vs[k], &stats.Tally{Counts: mb, N: j.Trials}, mcRun(j.Trials))
		r.Diff = pairedDiffs(first.Combat, vs[k].Combat, j)
		test := stats.ChiSquaredTwoSample(resultCounts(first.Combat, vs[k].Combat, ma, mb))
		r.Test = &test
		cmp.Variants = append(cmp.Variants, r)
	}
	return cmp, nil
}

func variantResult(v NamedCombat, t *stats.Tally, run sim.Run) VariantResult {
	c := v.Combat
	sum := Summarize(c, t, run)
	r := VariantResult{Name: v.Name, Overrides: v.Overrides, CRT: crtLabel(c), Metrics: map[string]stats.Estimate{}, Results: sum.Results, Summary: sum, combat: c}
	for _, m := range CompareMetrics {
		if m.Mean {
			mm := t.Mean(func(i int) float64 { return m.value(&c.Outcomes[i]) })
			r.Metrics[m.Name] = stats.Estimate{P: mm.Mean, Lo: mm.Lo, Hi: mm.Hi}
		} else {
			r.Metrics[m.Name] = t.Event(func(i int) bool { return m.value(&c.Outcomes[i]) != 0 })
		}
	}
	return r
}

// pairedDiffs is each metric's difference (second minus first) from a joint
// tally, with the paired 95% interval: the mean of the per-trial
// differences plus or minus z times their standard error.
func pairedDiffs(a, b *combat.Combat, j *sim.Joint) map[string]stats.Estimate {
	out := map[string]stats.Estimate{}
	n := float64(j.Trials)
	for _, m := range CompareMetrics {
		var s, s2 float64
		for ia := 0; ia < j.NA; ia++ {
			va := m.value(&a.Outcomes[ia])
			for ib := 0; ib < j.NB; ib++ {
				c := j.Counts[ia*j.NB+ib]
				if c == 0 {
					continue
				}
				d := m.value(&b.Outcomes[ib]) - va
				s += float64(c) * d
				s2 += float64(c) * d * d
			}
		}
		mean := s / n
		v := 0.0
		if n > 1 {
			v = max(0, (s2-n*mean*mean)/(n-1))
		}
		se := math.Sqrt(v / n)
		out[m.Name] = stats.Estimate{P: mean, Lo: mean - stats.Z95*se, Hi: mean + stats.Z95*se}
	}
	return out
}

// resultCounts lines up two variants' counts by result code.
func resultCounts(a, b *combat.Combat, ca, cb []uint64) ([]uint64, []uint64) {
	idx := map[string]int{}
	var codes []string
	code := func(o *combat.Outcome) string {
		if o.NotAllowed {
			return NotAllowed
		}
		return o.Result.String()
	}
	for _, c := range []*combat.Combat{a, b} {
		for i := range c.Outcomes {
			k := code(&c.Outcomes[i])
			if _, ok := idx[k]; !ok {
				idx[k] = len(codes)
				codes = append(codes, k)
			}
		}
	}
	ra, rb := make([]uint64, len(codes)), make([]uint64, len(codes))
	for i, n := range ca {
		ra[idx[code(&a.Outcomes[i])]] += n
	}
	for i, n := range cb {
		rb[idx[code(&b.Outcomes[i])]] += n
	}
	return ra, rb
}

// ResultCodes lists every result code any variant can give, from the
// attacker's worst to best (as the run report orders them).
func (c *Comparison) ResultCodes() []string {
	type coded struct {
		code string
		o    *combat.Outcome
	}
	seen := map[string]bool{}
	var all []coded
	for _, v := range c.Variants {
		cb := v.combat
		for i := range cb.Outcomes {
			o := &cb.Outcomes[i]
			code := o.Result.String()
			if o.NotAllowed {
				code = NotAllowed
			}
			if _, ok := v.Results.Get(code); ok && !seen[code] {
				seen[code] = true
				all = append(all, coded{code, o})
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if b := all[i].o.CompareForAttacker(all[j].o); b != 0 {
			return b < 0
		}
		return all[i].code < all[j].code
	})
	out := make([]string, len(all))
	for i, a := range all {
		out[i] = a.code
	}
	return out
}

// mcRun is the run record of one variant of a sampled comparison; the
// comparison itself records the seed and whether it was cut short.
func mcRun(trials uint64) sim.Run {
	return sim.Run{Method: sim.MethodMonteCarlo, Trials: trials, Chunk: sim.ChunkSize}
}

// Compare compares variants as req says: exactly with Exact, or with Auto
// when every variant's dice tree fits the budget; otherwise by Monte Carlo,
// on common random numbers unless independent is set. Progress is
// req.Sample.Progress. A sampled comparison interrupted before its first
// chunk returns ErrNoTrials.
func Compare(ctx context.Context, scenario string, vs []NamedCombat, req Request, independent bool) (*Comparison, error) {
	start := time.Now()
	engine := req.Engine
	if engine == Auto {
		engine = Exact
		for _, v := range vs {
			e, _, err := choose(ctx, v.Combat, req)
			if err != nil {
				return nil, err
			}
			if e == MonteCarlo {
				engine = MonteCarlo
				break
			}
		}
	}
	var cmp *Comparison
	var err error
	if engine == MonteCarlo {
		cmp, err = CompareSampled(ctx, scenario, vs, req.Sample, !independent)
		if err == nil && cmp.Trials == 0 {
			err = ErrNoTrials
		}
	} else {
		cmp, err = CompareExact(ctx, scenario, vs, req.Budget)
	}
	if err != nil {
		return nil, err
	}
	cmp.Elapsed = time.Since(start).Seconds()
	return cmp, nil
}
