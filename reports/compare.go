package reports

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

var metricLabels = map[string]string{
	"hex_taken":           "P(hex taken)",
	"breakthrough":        "P(breakthrough)",
	"attacker_face_up":    "P(attackers face-up)",
	"attacker_units_lost": "attacking units lost (mean)",
	"defender_units_lost": "defending units lost (mean)",
}

func metricValue(m analysis.CompareMetric, e stats.Estimate) string {
	if m.Mean {
		return strconv.FormatFloat(e.P, 'f', 3, 64)
	}
	return pct(e.P)
}

func interval(m analysis.CompareMetric, e stats.Estimate) string {
	if m.Mean {
		return fmt.Sprintf("[%.3f, %.3f]", e.Lo, e.Hi)
	}
	return fmt.Sprintf("[%s, %s]", pct(e.Lo), pct(e.Hi))
}

func diffInterval(m analysis.CompareMetric, e stats.Estimate) string {
	if m.Mean {
		return fmt.Sprintf("[%+.3f, %+.3f]", e.Lo, e.Hi)
	}
	return fmt.Sprintf("[%+.2f, %+.2f] pts", 100*e.Lo, 100*e.Hi)
}

func signedValue(m analysis.CompareMetric, e stats.Estimate) string {
	if m.Mean {
		return fmt.Sprintf("%+.3f", e.P)
	}
	return fmt.Sprintf("%+.2f pts", 100*e.P)
}

func compareHeader(c *analysis.Comparison) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d variants, ", c.Scenario, len(c.Variants))
	if c.Method == sim.MethodExact {
		b.WriteString("exact")
	} else {
		crn := "common random numbers"
		if !c.CRN {
			crn = "independent streams"
		}
		fmt.Fprintf(&b, "Monte Carlo, %s trials each, seed %d, %s", Thousands(c.Trials), *c.Seed, crn)
	}
	if c.Partial {
		b.WriteString(" (PARTIAL: interrupted)")
	}
	return b.String()
}

// WriteCompareText writes a comparison for a designer to read.
func WriteCompareText(w io.Writer, c *analysis.Comparison) error {
	b := &strings.Builder{}
	b.WriteString(compareHeader(c) + "\n\n")
	mc := c.Method != sim.MethodExact
	for i, v := range c.Variants {
		fmt.Fprintf(b, "%s", v.Name)
		if v.Overrides != "" {
			fmt.Fprintf(b, " (%s)", v.Overrides)
		}
		fmt.Fprintf(b, ", CRT %s\n", v.CRT)
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		for _, m := range analysis.CompareMetrics {
			e := v.Metrics[m.Name]
			line := "  " + metricLabels[m.Name] + "\t" + metricValue(m, e)
			if mc {
				line += "\t" + interval(m, e)
			}
			if i > 0 {
				d := v.Diff[m.Name]
				line += "\t" + signedValue(m, d) + " vs " + c.Variants[0].Name
				if mc {
					line += " " + diffInterval(m, d)
				}
			}
			fmt.Fprintln(tw, line+"\t")
		}
		tw.Flush()
		fmt.Fprintf(b, "  results: %s\n", mix(v.Results, c.ResultCodes()))
		if v.Test != nil && i > 0 {
			fmt.Fprintf(b, "  result mix differs from %s? chi-squared %.1f, %d df, p = %.3g\n", c.Variants[0].Name, v.Test.Statistic, v.Test.DF, v.Test.P)
		}
		b.WriteString("\n")
	}
	for _, warn := range c.Warnings {
		fmt.Fprintf(b, "note: %s\n", warn)
	}
	return writeText(w, trimLines(b.String()))
}

func mix(results analysis.Keyed[float64], codes []string) string {
	var parts []string
	for _, code := range codes {
		if p, ok := results.Get(code); ok && p > 0 {
			parts = append(parts, code+" "+pct(p))
		}
	}
	return strings.Join(parts, ", ")
}

// WriteCompareCSV writes a comparison as tidy CSV: one row per variant and
// metric (result probabilities included), with the difference from the
// first variant.
func WriteCompareCSV(w io.Writer, c *analysis.Comparison) error {
	cw, flush := newCSV(w)
	_ = cw.Write([]string{"scenario", "method", "trials", "seed", "variant", "overrides", "crt", "metric", "value", "lo", "hi", "diff", "diff_lo", "diff_hi"})
	trials, seed := "", ""
	if c.Method != sim.MethodExact {
		trials, seed = strconv.FormatUint(c.Trials, 10), strconv.FormatUint(*c.Seed, 10)
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }
	for i, v := range c.Variants {
		row := func(metric string, e stats.Estimate, d *stats.Estimate) {
			r := []string{c.Scenario, c.Method, trials, seed, v.Name, v.Overrides, v.CRT, metric, f(e.P), f(e.Lo), f(e.Hi), "", "", ""}
			if d != nil {
				r[11], r[12], r[13] = f(d.P), f(d.Lo), f(d.Hi)
			}
			_ = cw.Write(r)
		}
		for _, m := range analysis.CompareMetrics {
			var d *stats.Estimate
			if i > 0 {
				x := v.Diff[m.Name]
				d = &x
			}
			row(m.Name, v.Metrics[m.Name], d)
		}
		for _, code := range c.ResultCodes() {
			e, ok := v.Summary.ResultCIs.Get(code)
			if !ok {
				e = stats.Exact(0)
			}
			row("result "+code, e, nil)
		}
	}
	return flush()
}

// WriteCompareMarkdown writes a comparison as Markdown tables.
func WriteCompareMarkdown(w io.Writer, c *analysis.Comparison) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "# %s\n\n%s\n\n", c.Scenario, compareHeader(c))
	b.WriteString("| metric |")
	for _, v := range c.Variants {
		fmt.Fprintf(b, " %s |", v.Name)
	}
	b.WriteString("\n|---|")
	for range c.Variants {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	b.WriteString("| CRT |")
	for _, v := range c.Variants {
		fmt.Fprintf(b, " %s |", v.CRT)
	}
	b.WriteString("\n")
	for _, m := range analysis.CompareMetrics {
		fmt.Fprintf(b, "| %s |", metricLabels[m.Name])
		for i, v := range c.Variants {
			cell := metricValue(m, v.Metrics[m.Name])
			if i > 0 {
				cell += " (" + signedValue(m, v.Diff[m.Name]) + ")"
			}
			fmt.Fprintf(b, " %s |", cell)
		}
		b.WriteString("\n")
	}
	for _, code := range c.ResultCodes() {
		fmt.Fprintf(b, "| result `%s` |", code)
		for _, v := range c.Variants {
			fmt.Fprintf(b, " %s |", pct(v.Results.Value(code)))
		}
		b.WriteString("\n")
	}
	for _, warn := range c.Warnings {
		fmt.Fprintf(b, "\n_note: %s_\n", warn)
	}
	return writeText(w, b.String())
}

// WriteSweepText writes a sweep: per CRT and modifier, a row per step,
// marking where the odds level changes.
func WriteSweepText(w io.Writer, s *analysis.Sweep) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "%s: sweep of the %s total, exact\n", s.Scenario, s.Axis)
	key := ""
	var tw *tabwriter.Writer
	for _, st := range s.Steps {
		if k := fmt.Sprintf("%s %d", st.CRT, st.Modifier); k != key {
			if tw != nil {
				tw.Flush()
			}
			key = k
			fmt.Fprintf(b, "\nCRT %s, modifier %+d\n", st.CRT, st.Modifier)
			tw = tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "attack\tdefence\todds\tP(hex taken)\tP(breakthrough)\tattacking units lost\tdefending units lost\t")
		}
		mark := ""
		if st.OddsChanged {
			mark = "  <- reaches " + st.Odds
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.3f\t%.3f\t%s\n", num(st.Attack), num(st.Defence), st.Odds, pct(st.HexTaken), pct(st.Breakthrough), st.AttackerLost, st.DefenderLost, mark)
	}
	if tw != nil {
		tw.Flush()
	}
	for _, r := range s.Reached {
		fmt.Fprintf(b, "target: P(hex taken) %s %s\n", pct(r.Target), reachedText(s.Axis, r))
	}
	for _, n := range s.Notes {
		fmt.Fprintf(b, "note: %s\n", n)
	}
	return writeText(w, trimLines(b.String()))
}

// WriteSweepCSV writes a sweep as tidy CSV, one row per step.
func WriteSweepCSV(w io.Writer, s *analysis.Sweep) error {
	cw, flush := newCSV(w)
	_ = cw.Write([]string{"scenario", "method", "crt", "modifier", "attack", "defence", "odds", "odds_changed", "hex_taken", "breakthrough", "attacker_units_lost", "defender_units_lost"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }
	for _, st := range s.Steps {
		_ = cw.Write([]string{s.Scenario, s.Method, st.CRT, strconv.Itoa(st.Modifier), f(st.Attack), f(st.Defence), st.Odds,
			strconv.FormatBool(st.OddsChanged), f(st.HexTaken), f(st.Breakthrough), f(st.AttackerLost), f(st.DefenderLost)})
	}
	return flush()
}

// WriteSweepMarkdown writes a sweep as Markdown tables.
func WriteSweepMarkdown(w io.Writer, s *analysis.Sweep) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "# %s: sweep of the %s total\n", s.Scenario, s.Axis)
	key := ""
	for _, st := range s.Steps {
		if k := fmt.Sprintf("%s %d", st.CRT, st.Modifier); k != key {
			key = k
			fmt.Fprintf(b, "\n## CRT %s, modifier %+d\n\n| attack | defence | odds | P(hex taken) | P(breakthrough) | attacking lost | defending lost |\n|---|---|---|---|---|---|---|\n", st.CRT, st.Modifier)
		}
		odds := st.Odds
		if st.OddsChanged {
			odds = "**" + odds + "**"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %.3f | %.3f |\n", num(st.Attack), num(st.Defence), odds, pct(st.HexTaken), pct(st.Breakthrough), st.AttackerLost, st.DefenderLost)
	}
	for _, n := range s.Notes {
		fmt.Fprintf(b, "\n_note: %s_\n", n)
	}
	return writeText(w, b.String())
}

// reachedText words where a sweep reaches its target.
func reachedText(axis analysis.Axis, r analysis.Reached) string {
	where := fmt.Sprintf("under %s, modifier %+d", r.CRT, r.Modifier)
	switch {
	case !r.Found:
		return "is not reached in the range swept " + where
	case axis == analysis.Defence:
		return fmt.Sprintf("holds up to a defence of %s (%s, %s) %s", num(r.Total), r.Odds, pct(r.HexTaken), where)
	}
	return fmt.Sprintf("is first reached at an attack of %s (%s, %s) %s", num(r.Total), r.Odds, pct(r.HexTaken), where)
}
