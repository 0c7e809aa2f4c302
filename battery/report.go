package battery

import (
	"cmp"
	"math"
	"slices"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// Report is a battery's answer: every scenario's comparison, every
// difference from the first variant ranked by size, and how many scenarios
// each variant moves.
type Report struct {
	Battery   string     `json:"battery"`
	Hash      string     `json:"hash"`
	Variants  []string   `json:"variants"`
	Method    string     `json:"method"` // exact, monte-carlo, or mixed
	Scenarios []Result   `json:"scenarios"`
	Movers    []Row      `json:"movers"`
	Summary   []Movement `json:"summary"`
}

// Row is one difference: a scenario's metric under a variant against the
// first variant.
type Row struct {
	Index       int            `json:"index"`
	Scenario    string         `json:"scenario"`
	Metric      string         `json:"metric"`
	Variant     string         `json:"variant"`
	Baseline    float64        `json:"baseline"`
	Value       float64        `json:"value"`
	Diff        stats.Estimate `json:"difference"`
	Significant bool           `json:"significant"`
}

// Movement counts how far a variant moves one probability across the
// scenarios, in percentage points.
type Movement struct {
	Variant string `json:"variant"`
	Metric  string `json:"metric"`
	Up      [3]int `json:"up_by_more_than_1_5_10_points"`
	Down    [3]int `json:"down_by_more_than_1_5_10_points"`
	Moved   int    `json:"moved"` // by any significant amount
	Of      int    `json:"of"`
}

// exactTol is the smallest exact difference that counts: below it two
// figures differ only by rounding.
const exactTol = 1e-12

// NewReport assembles the report from every scenario's result.
func NewReport(name, hash string, results []Result) *Report {
	r := &Report{Battery: name, Hash: hash, Scenarios: results, Movers: []Row{}, Summary: []Movement{}}
	if len(results) == 0 {
		return r
	}
	for _, v := range results[0].Variants {
		r.Variants = append(r.Variants, v.Name)
	}
	r.Method = results[0].Method
	for _, s := range results {
		if s.Method != r.Method {
			r.Method = "mixed"
		}
	}
	for _, s := range results {
		for k := 1; k < len(s.Variants); k++ {
			v := s.Variants[k]
			for _, m := range analysis.CompareMetrics {
				d := v.Diff[m.Name]
				r.Movers = append(r.Movers, Row{Index: s.Index, Scenario: s.Name, Metric: m.Name, Variant: v.Name,
					Baseline: s.Variants[0].Metrics[m.Name].P, Value: v.Metrics[m.Name].P, Diff: d, Significant: Significant(s.Method, d)})
			}
		}
	}
	metricOrder := func(name string) int {
		return slices.IndexFunc(analysis.CompareMetrics, func(m analysis.CompareMetric) bool { return m.Name == name })
	}
	slices.SortStableFunc(r.Movers, func(a, b Row) int {
		if c := cmp.Compare(math.Abs(b.Diff.P), math.Abs(a.Diff.P)); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Index, b.Index); c != 0 {
			return c
		}
		return cmp.Compare(metricOrder(a.Metric), metricOrder(b.Metric))
	})
	for _, name := range r.Variants[min(1, len(r.Variants)):] {
		for _, m := range analysis.CompareMetrics {
			if m.Mean {
				continue
			}
			mv := Movement{Variant: name, Metric: m.Name}
			for _, row := range r.Movers {
				if row.Variant != name || row.Metric != m.Name {
					continue
				}
				mv.Of++
				if row.Significant {
					mv.Moved++
				}
				for i, pts := range []float64{0.01, 0.05, 0.10} {
					switch {
					case row.Diff.P > pts && row.Significant:
						mv.Up[i]++
					case row.Diff.P < -pts && row.Significant:
						mv.Down[i]++
					}
				}
			}
			r.Summary = append(r.Summary, mv)
		}
	}
	return r
}

// Significant reports whether a difference is real: any exact difference
// beyond rounding, or a sampled one whose 95% interval leaves out 0.
func Significant(method string, d stats.Estimate) bool {
	if method == sim.MethodExact {
		return math.Abs(d.P) > exactTol
	}
	return d.Lo > 0 || d.Hi < 0
}
