package reports

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/battery"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// topMovers is how many differences the text, Markdown and HTML reports
// list; JSON and CSV have them all.
const topMovers = 25

func batteryHeader(r *battery.Report) string {
	method := r.Method
	if method == sim.MethodMonteCarlo {
		method = "Monte Carlo with common random numbers"
	}
	vs := make([]string, len(r.Variants))
	copy(vs, r.Variants)
	if len(vs) > 0 {
		vs[0] += " (baseline)"
	}
	return fmt.Sprintf("battery %s: %d scenarios, variants %s; %s", r.Battery, len(r.Scenarios), strings.Join(vs, ", "), method)
}

// metricValue of a row's figure: a percentage or a mean.
func batteryValue(metric string, v float64) string {
	if isMean(metric) {
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
	return pct(v)
}

func batteryDiff(metric string, d stats.Estimate, exact bool) string {
	var s string
	if isMean(metric) {
		s = fmt.Sprintf("%+.3f", d.P)
		if !exact {
			s += fmt.Sprintf(" [%+.3f, %+.3f]", d.Lo, d.Hi)
		}
		return s
	}
	s = fmt.Sprintf("%+.2f pts", 100*d.P)
	if !exact {
		s += fmt.Sprintf(" [%+.2f, %+.2f]", 100*d.Lo, 100*d.Hi)
	}
	return s
}

func isMean(metric string) bool {
	for _, m := range analysis.CompareMetrics {
		if m.Name == metric {
			return m.Mean
		}
	}
	return false
}

func label(metric string) string {
	if l, ok := metricLabels[metric]; ok {
		return l
	}
	return metric
}

// WriteBatteryText writes a battery for a designer to read: how far each
// variant moves the scenarios, then the largest differences.
func WriteBatteryText(w io.Writer, r *battery.Report) error {
	b := &strings.Builder{}
	b.WriteString(batteryHeader(r) + "\n\n")
	if len(r.Summary) > 0 {
		b.WriteString("How many scenarios each variant moves (significant moves, in percentage points):\n")
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "variant\tmetric\tup >1\t>5\t>10\tdown >1\t>5\t>10\tmoved\t")
		for _, m := range r.Summary {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d of %d\t\n", m.Variant, label(m.Metric), m.Up[0], m.Up[1], m.Up[2], m.Down[0], m.Down[1], m.Down[2], m.Moved, m.Of)
		}
		tw.Flush()
		b.WriteString("\n")
	}
	n := min(topMovers, len(r.Movers))
	fmt.Fprintf(b, "Largest differences from %s (%d of %d):\n", r.Variants[0], n, len(r.Movers))
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\tmetric\tvariant\tbaseline\tvalue\tdifference\t")
	exact := r.Method == sim.MethodExact
	for _, row := range r.Movers[:n] {
		mark := ""
		if !row.Significant {
			mark = " (not significant)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s%s\t\n", row.Scenario, label(row.Metric), row.Variant, batteryValue(row.Metric, row.Baseline),
			batteryValue(row.Metric, row.Value), batteryDiff(row.Metric, row.Diff, exact), mark)
	}
	tw.Flush()
	return writeText(w, b.String())
}

// WriteBatteryCSV writes every scenario, variant and metric as tidy CSV.
func WriteBatteryCSV(w io.Writer, r *battery.Report) error {
	cw, flush := newCSV(w)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	cw.Write([]string{"index", "scenario", "variant", "crt", "metric", "value", "lo", "hi", "difference", "difference_lo", "difference_hi", "significant"})
	for _, s := range r.Scenarios {
		for k, v := range s.Variants {
			for _, m := range analysis.CompareMetrics {
				e := v.Metrics[m.Name]
				row := []string{strconv.Itoa(s.Index + 1), s.Name, v.Name, v.CRT, m.Name, g(e.P), g(e.Lo), g(e.Hi), "", "", "", ""}
				if k > 0 {
					d := v.Diff[m.Name]
					row[8], row[9], row[10] = g(d.P), g(d.Lo), g(d.Hi)
					row[11] = strconv.FormatBool(battery.Significant(s.Method, d))
				}
				cw.Write(row)
			}
		}
	}
	return flush()
}

// WriteBatteryMarkdown writes the summary and the largest differences.
func WriteBatteryMarkdown(w io.Writer, r *battery.Report) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "## %s\n\n", mdEscape(batteryHeader(r)))
	if len(r.Summary) > 0 {
		b.WriteString("| variant | metric | up >1 pt | >5 | >10 | down >1 pt | >5 | >10 | moved |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, m := range r.Summary {
			fmt.Fprintf(b, "| %s | %s | %d | %d | %d | %d | %d | %d | %d of %d |\n", mdEscape(m.Variant), label(m.Metric), m.Up[0], m.Up[1], m.Up[2], m.Down[0], m.Down[1], m.Down[2], m.Moved, m.Of)
		}
		b.WriteString("\n")
	}
	exact := r.Method == sim.MethodExact
	b.WriteString("| scenario | metric | variant | baseline | value | difference |\n|---|---|---|---:|---:|---:|\n")
	for _, row := range r.Movers[:min(topMovers, len(r.Movers))] {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", mdEscape(row.Scenario), label(row.Metric), mdEscape(row.Variant),
			batteryValue(row.Metric, row.Baseline), batteryValue(row.Metric, row.Value), batteryDiff(row.Metric, row.Diff, exact))
	}
	return writeText(w, b.String())
}

// WriteBatteryHTML writes one page: the summary, a heat map of every
// scenario's differences by metric (one per variant after the first),
// coloured for the attacker, and the largest differences.
func WriteBatteryHTML(w io.Writer, r *battery.Report) error {
	esc := template.HTMLEscapeString
	tb := &strings.Builder{}
	if len(r.Summary) > 0 {
		tb.WriteString("<h2>How many scenarios each variant moves</h2><table><tr><th>variant</th><th>metric</th><th>up &gt;1 pt</th><th>&gt;5</th><th>&gt;10</th><th>down &gt;1 pt</th><th>&gt;5</th><th>&gt;10</th><th>moved</th></tr>")
		for _, m := range r.Summary {
			fmt.Fprintf(tb, "<tr><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d of %d</td></tr>",
				esc(m.Variant), label(m.Metric), m.Up[0], m.Up[1], m.Up[2], m.Down[0], m.Down[1], m.Down[2], m.Moved, m.Of)
		}
		tb.WriteString("</table>")
	}
	exact := r.Method == sim.MethodExact
	for k := 1; k < len(r.Variants); k++ {
		fmt.Fprintf(tb, "<h2>%s against %s: every scenario</h2><table class=\"heat\"><tr><th>scenario</th>", esc(r.Variants[k]), esc(r.Variants[0]))
		for _, m := range analysis.CompareMetrics {
			fmt.Fprintf(tb, "<th>%s</th>", label(m.Name))
		}
		tb.WriteString("</tr>")
		for _, s := range r.Scenarios {
			fmt.Fprintf(tb, "<tr><td>%s</td>", esc(s.Name))
			for _, m := range analysis.CompareMetrics {
				d := s.Variants[k].Diff[m.Name]
				fmt.Fprintf(tb, `<td style="background:%s">%s</td>`, heatColour(m.Name, d.P, battery.Significant(s.Method, d)), esc(batteryDiff(m.Name, d, exact)))
			}
			tb.WriteString("</tr>")
		}
		tb.WriteString("</table>")
	}
	fmt.Fprintf(tb, "<h2>Largest differences (%d of %d)</h2><table><tr><th>scenario</th><th>metric</th><th>variant</th><th>baseline</th><th>value</th><th>difference</th></tr>", min(topMovers, len(r.Movers)), len(r.Movers))
	for _, row := range r.Movers[:min(topMovers, len(r.Movers))] {
		fmt.Fprintf(tb, `<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class="%s">%s</td></tr>`, esc(row.Scenario), label(row.Metric), esc(row.Variant),
			batteryValue(row.Metric, row.Baseline), batteryValue(row.Metric, row.Value), forAttacker(row.Metric, row.Diff.P), esc(batteryDiff(row.Metric, row.Diff, exact)))
	}
	tb.WriteString("</table>")
	tb.WriteString(`<p class="key">Cells are coloured by the difference from the baseline: green where it helps the attacker, red where it hurts, paler for smaller moves; grey where the difference is not significant.</p>`)
	pg := htmlPage{Title: "wifodds battery: " + r.Battery, Tables: template.HTML(tb.String()), Meta: []string{batteryHeader(r), "hash " + r.Hash}}
	return writePage(w, pg, nil)
}

// heatColour shades a difference: green helps the attacker, red hurts,
// full at 20 points (or 1 unit for a mean).
func heatColour(metric string, d float64, sig bool) string {
	if !sig {
		return "#f2f2f2"
	}
	scale := 0.2
	if isMean(metric) {
		scale = 1
	}
	a := math.Min(1, math.Abs(d)/scale)*0.75 + 0.1
	if forAttacker(metric, d) == "better" {
		return fmt.Sprintf("rgba(10,107,45,%.2f)", a)
	}
	return fmt.Sprintf("rgba(176,33,27,%.2f)", a)
}
