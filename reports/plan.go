package reports

import (
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/wifodds/wifodds/plan"
)

// costLabels word a plan's cost measure.
var costLabels = map[string]string{
	"committed_factors":      "attack factors sent",
	"committed_units":        "units sent",
	"committed_build_points": "build points sent",
	"expected_factors_lost":  "expected attacking factors lost",
	"expected_units_lost":    "expected attacking units lost",
}

// planHeader is the lines that open a plan under one table.
func planHeader(name string, tp *plan.TablePlan) []string {
	front := len(tp.Targets) > 0
	goal := "P(hex taken)"
	if front {
		goal = "expected hexes taken"
	}
	if tp.Objective != "" {
		goal = tp.Objective
	}
	head := fmt.Sprintf("%s: CRT %s, cost = %s", name, tp.CRT, costLabels[tp.Cost])
	if tp.Target != nil {
		if front && tp.Objective == "" {
			head += fmt.Sprintf(", target %s >= %s", goal, num(*tp.Target))
		} else {
			head += fmt.Sprintf(", target %s >= %s", goal, pct(*tp.Target))
		}
	}
	what := fmt.Sprintf("weighed %s forces (%s distinct combats) standing for %s subsets of the available units",
		Thousands(uint64(tp.Forces)), Thousands(uint64(tp.DistinctCombats)), Thousands(uint64(tp.EvaluatedSubsets)))
	if front {
		what = fmt.Sprintf("weighed %s assignments (%s distinct combats) standing for %s assignments of the available units to %d hexes",
			Thousands(uint64(tp.Forces)), Thousands(uint64(tp.DistinctCombats)), Thousands(uint64(tp.EvaluatedSubsets)), len(tp.Targets))
	}
	return []string{head, what + fmt.Sprintf("; %d on the frontier", len(tp.Frontier))}
}

// unitList names a force's units for reading.
func unitList(units []string) string {
	if len(units) == 0 {
		return "(none: the committed units alone)"
	}
	return strings.Join(units, ", ")
}

// hexUnits names the units a front sends to one of its hexes: none sent
// means the hex is not attacked (a front has no committed units).
func hexUnits(front bool, units []string) string {
	if front && len(units) == 0 {
		return "(not attacked)"
	}
	return unitList(units)
}

// figuresLine is a force's figures against one hex in a sentence.
func figuresLine(f *plan.HexFigures) string {
	s := fmt.Sprintf("%s:%s = %s on the %s table; P(hex taken) %s, P(breakthrough) %s, attackers face-up %s; expected losses: attacker %.2f units (%.2f factors), defender %.2f units (%.2f factors)",
		num(f.Attack), num(f.Defence), f.Odds, f.Table, pct(f.HexTaken.P), pct(f.Breakthrough), pct(f.AttackerFaceUp),
		f.ExpectedAttackerUnitsLost, f.ExpectedAttackerFactorsLost, f.ExpectedDefenderUnitsLost, f.ExpectedDefenderFactorsLost)
	if f.Method != "exact" {
		s += fmt.Sprintf(" [Monte Carlo: P(hex taken) in %s..%s]", pct(f.HexTaken.Lo), pct(f.HexTaken.Hi))
	}
	return s
}

// WritePlanText writes a plan for a player to read.
func WritePlanText(w io.Writer, name string, r *plan.Result) error {
	b := &strings.Builder{}
	for i, tp := range r.Plans {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, l := range planHeader(name, tp) {
			b.WriteString(l + "\n")
		}
		b.WriteString("\n")
		writeRecommendation(b, tp)
		if len(tp.Targets) > 0 {
			writeFrontText(b, tp)
		} else {
			writeHexFrontierText(b, tp)
		}
		writeMarginalText(b, tp)
		for _, wn := range tp.Warnings {
			fmt.Fprintf(b, "warning: %s\n", wn)
		}
	}
	return writeText(w, b.String())
}

func writeRecommendation(b *strings.Builder, tp *plan.TablePlan) {
	switch {
	case tp.Recommended != nil:
		f := tp.Recommended
		fmt.Fprintf(b, "Recommended: %s\n  cost %s", unitList(f.Units), num(f.Cost))
		if f.Value != nil {
			fmt.Fprintf(b, ", expected hexes taken %.3f%s\n", *f.Value, chanceNote(tp, f))
			b.WriteString(orderLine(tp, f))
			for t, h := range f.Hexes {
				waits := ""
				if len(h.Requires) > 0 && f.Joint != nil {
					waits = fmt.Sprintf(" (attacked only if %s taken: P(attacked) %s, P(taken) %s; its figures if attacked)",
						strings.Join(h.Requires, " and "), pct(f.Joint.Attacked[t]), pct(f.Joint.Taken[t]))
				}
				fmt.Fprintf(b, "  %s: %s%s\n    %s\n", h.Target, hexUnits(true, h.Units), waits, figuresLine(h.HexFigures))
			}
			b.WriteString(objectiveLine(tp, f))
		} else {
			fmt.Fprintf(b, "\n  %s\n", figuresLine(f.HexFigures))
		}
	case tp.Unreached != "":
		fmt.Fprintf(b, "No recommendation: %s.\n", tp.Unreached)
	default:
		b.WriteString("No target set: give plan.target or --target for the cheapest force reaching it.\n")
	}
	b.WriteString("\n")
}

func writeHexFrontierText(b *strings.Builder, tp *plan.TablePlan) {
	b.WriteString("Frontier (cheapest first; no force does better for less):\n")
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "cost\tP(hex taken)\tshort of target\todds\ttable\tP(breakthrough)\tface-up\tatt. units lost\tatt. factors lost\tdef. units lost\t")
	for _, f := range tp.Frontier {
		short := ""
		if f.Shortfall != nil {
			short = fmt.Sprintf("%.2f pts", 100**f.Shortfall)
		}
		mark := ""
		if f == tp.Recommended {
			mark = " <- recommended"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%.2f\t%.2f\t  %s%s\n", num(f.Cost), pct(f.HexTaken.P), short, f.Odds, f.Table,
			pct(f.Breakthrough), pct(f.AttackerFaceUp), f.ExpectedAttackerUnitsLost, f.ExpectedAttackerFactorsLost, f.ExpectedDefenderUnitsLost,
			unitList(f.Units), mark)
	}
	tw.Flush()
	b.WriteString("\n")
}

// chanceNote is a front's force's chance objective, or "" for the
// expected hexes taken.
func chanceNote(tp *plan.TablePlan, f *plan.Force) string {
	if f.Chance == nil {
		return ""
	}
	return fmt.Sprintf(", %s %s", tp.Objective, pct(*f.Chance))
}

// frontShort is how far a front's force falls short of the target: in
// hexes, or in points of a chance objective.
func frontShort(f *plan.Force) string {
	switch {
	case f.Shortfall == nil:
		return ""
	case f.Chance != nil:
		return fmt.Sprintf(", %.2f pts short of the target", 100**f.Shortfall)
	}
	return fmt.Sprintf(", %.3f short of the target", *f.Shortfall)
}

func writeFrontText(b *strings.Builder, tp *plan.TablePlan) {
	if tp.Objective != "" {
		fmt.Fprintf(b, "Frontier (cheapest first; no assignment reaches a higher %s for less):\n", tp.Objective)
	} else {
		b.WriteString("Frontier (cheapest first; no assignment takes more hexes for less):\n")
	}
	for _, f := range tp.Frontier {
		mark := ""
		if f == tp.Recommended {
			mark = "  <- recommended"
		}
		fmt.Fprintf(b, "cost %s: expected hexes taken %.3f%s%s%s\n", num(f.Cost), *f.Value, chanceNote(tp, f), frontShort(f), mark)
		for t, h := range f.Hexes {
			if len(h.Units) == 0 {
				fmt.Fprintf(b, "  %-12s not attacked\n", h.Target)
				continue
			}
			fmt.Fprintf(b, "  %-12s %s at %s (%s), P(taken) %s: %s\n", h.Target, num(h.Attack)+":"+num(h.Defence), h.Odds, h.Table, hexTaken(f, t), unitList(h.Units))
		}
	}
	b.WriteString("\n")
}

func writeMarginalText(b *strings.Builder, tp *plan.TablePlan) {
	if len(tp.Marginal) == 0 {
		return
	}
	b.WriteString("What one more unit buys (from the recommended force):\n")
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	for _, ch := range tp.Marginal {
		sign := "+"
		if ch.Action == "drop" {
			sign = "-"
		}
		switch {
		case ch.NoAttack:
			fmt.Fprintf(tw, "  %s %s\tno land unit would be left to attack\t\n", sign, ch.Unit)
		default:
			note := ""
			if ch.OverCap {
				note = " (over plan.max_units)"
			}
			fmt.Fprintf(tw, "  %s %s\tP(hex taken) %s (%+.2f pts)\tcost %+g%s\n", sign, ch.Unit, pct(ch.HexTaken), 100*ch.HexTakenChange, ch.CostChange, note)
		}
	}
	tw.Flush()
	b.WriteString("\n")
}

// WritePlanCSV writes the frontier of every table as tidy CSV: one row a
// frontier point and hex.
func WritePlanCSV(w io.Writer, r *plan.Result) error {
	cw, flush := newCSV(w)
	head := []string{"crt", "point", "recommended", "cost", "expected_hexes_taken", "hex", "units", "hex_taken", "hex_taken_lo", "hex_taken_hi",
		"odds", "table", "attack", "defence", "breakthrough", "attacker_face_up",
		"expected_attacker_units_lost", "expected_attacker_factors_lost", "expected_defender_units_lost", "expected_defender_factors_lost", "method"}
	// A chance objective adds its chance, the frontier's figure, last.
	chance := len(r.Plans) > 0 && r.Plans[0].Objective != ""
	if chance {
		head = append(head, "objective_chance")
	}
	// A front whose hexes wait on others adds what each waits on, its
	// P(attacked) and its P(taken) in the plan (its combat's figures are
	// if attacked).
	waits := len(r.Plans) > 0 && planWaits(r.Plans[0])
	if waits {
		head = append(head, "requires", "p_attacked", "p_taken_in_plan")
	}
	cw.Write(head)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, tp := range r.Plans {
		for i, f := range tp.Frontier {
			rows := []*plan.HexForce{{Units: f.Units, HexFigures: f.HexFigures}}
			value := ""
			if f.Value != nil {
				rows, value = f.Hexes, g(*f.Value)
			}
			for t, h := range rows {
				row := []string{tp.CRT, strconv.Itoa(i + 1), strconv.FormatBool(f == tp.Recommended), g(f.Cost), value, h.Target,
					strings.Join(h.Units, "+"), g(h.HexTaken.P), g(h.HexTaken.Lo), g(h.HexTaken.Hi), h.Odds, h.Table, g(h.Attack), g(h.Defence),
					g(h.Breakthrough), g(h.AttackerFaceUp), g(h.ExpectedAttackerUnitsLost), g(h.ExpectedAttackerFactorsLost),
					g(h.ExpectedDefenderUnitsLost), g(h.ExpectedDefenderFactorsLost), h.Method}
				if chance && f.Chance != nil {
					row = append(row, g(*f.Chance))
				}
				if waits && f.Joint != nil {
					row = append(row, strings.Join(h.Requires, "+"), g(f.Joint.Attacked[t]), g(f.Joint.Taken[t]))
				}
				cw.Write(row)
			}
		}
	}
	return flush()
}

// WritePlanMarkdown writes a plan as Markdown tables.
func WritePlanMarkdown(w io.Writer, name string, r *plan.Result) error {
	b := &strings.Builder{}
	for _, tp := range r.Plans {
		h := planHeader(name, tp)
		fmt.Fprintf(b, "## %s\n\n%s.\n\n", h[0], h[1])
		if f := tp.Recommended; f != nil {
			fmt.Fprintf(b, "**Recommended:** %s (cost %s%s)\n\n", unitList(f.Units), num(f.Cost), chanceNote(tp, f))
		} else if tp.Unreached != "" {
			fmt.Fprintf(b, "**No recommendation:** %s.\n\n", tp.Unreached)
		}
		front := len(tp.Targets) > 0
		if front {
			b.WriteString("| cost | hex | units | P(hex taken) | odds | table | P(breakthrough) | att. units lost | att. factors lost | def. units lost |\n|---:|---|---|---:|---|---|---:|---:|---:|---:|\n")
		} else {
			b.WriteString("| cost | units | P(hex taken) | odds | table | P(breakthrough) | att. units lost | att. factors lost | def. units lost |\n|---:|---|---:|---|---|---:|---:|---:|---:|\n")
		}
		for _, f := range tp.Frontier {
			rows := []*plan.HexForce{{Units: f.Units, HexFigures: f.HexFigures}}
			if f.Value != nil {
				rows = f.Hexes
			}
			cost := num(f.Cost)
			if f == tp.Recommended {
				cost = "**" + cost + "**"
			}
			for t, h := range rows {
				hex := ""
				if front {
					hex = " " + mdEscape(h.Target) + " |"
				}
				pa := attacked(f, t)
				fmt.Fprintf(b, "| %s |%s %s | %s | %s | %s | %s | %.2f | %.2f | %.2f |\n", cost, hex, mdEscape(hexUnits(front, h.Units)), rowTaken(f, t, h), h.Odds, h.Table,
					pct(h.Breakthrough), pa*h.ExpectedAttackerUnitsLost, pa*h.ExpectedAttackerFactorsLost, pa*h.ExpectedDefenderUnitsLost)
			}
		}
		if planWaits(tp) {
			fmt.Fprintf(b, "\n%s; %s.\n", strings.TrimSpace(orderLine(tp, tp.Frontier[0])), waitsNote)
		}
		if len(tp.Marginal) > 0 {
			b.WriteString("\n| change to the recommendation | P(hex taken) | change | cost change |\n|---|---:|---:|---:|\n")
			for _, ch := range tp.Marginal {
				if ch.NoAttack {
					fmt.Fprintf(b, "| %s %s | no attack left | | |\n", ch.Action, mdEscape(ch.Unit))
					continue
				}
				fmt.Fprintf(b, "| %s %s | %s | %+.2f pts | %+g |\n", ch.Action, mdEscape(ch.Unit), pct(ch.HexTaken), 100*ch.HexTakenChange, ch.CostChange)
			}
		}
		for _, wn := range tp.Warnings {
			fmt.Fprintf(b, "\n> %s\n", wn)
		}
		b.WriteString("\n")
	}
	return writeText(w, b.String())
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// WritePlanHTML writes a plan as one self-contained page: the
// recommendation, the frontier of each table, the chart and the scenario.
func WritePlanHTML(w io.Writer, name string, r *plan.Result, scenarioText string, chart Chart) error {
	tb := &strings.Builder{}
	esc := template.HTMLEscapeString
	pg := htmlPage{Title: "wifodds plan: " + name, Scenario: scenarioText}
	for _, tp := range r.Plans {
		h := planHeader(name, tp)
		fmt.Fprintf(tb, "<h2>CRT %s</h2><p>%s.</p>", esc(tp.CRT), esc(h[1]))
		if f := tp.Recommended; f != nil {
			fmt.Fprintf(tb, "<p><strong>Recommended:</strong> %s, cost %s%s.</p>", esc(unitList(f.Units)), num(f.Cost), esc(chanceNote(tp, f)))
		} else if tp.Unreached != "" {
			fmt.Fprintf(tb, "<p><strong>No recommendation:</strong> %s.</p>", esc(tp.Unreached))
		}
		front := len(tp.Targets) > 0
		hexHead := ""
		if front {
			hexHead = "<th>hex</th>"
		}
		tb.WriteString("<table><tr><th>units</th><th>cost</th>" + hexHead + "<th>P(hex taken)</th><th>odds</th><th>table</th><th>P(breakthrough)</th><th>att. units lost</th><th>att. factors lost</th><th>def. units lost</th></tr>")
		for _, f := range tp.Frontier {
			rows := []*plan.HexForce{{Units: f.Units, HexFigures: f.HexFigures}}
			if f.Value != nil {
				rows = f.Hexes
			}
			for t, hx := range rows {
				pa := attacked(f, t)
				units := esc(hexUnits(front, hx.Units))
				if f == tp.Recommended {
					units = "<strong>" + units + "</strong>"
				}
				hexCell := ""
				if front {
					hexCell = "<td>" + esc(hx.Target) + "</td>"
				}
				fmt.Fprintf(tb, "<tr><td>%s</td><td>%s</td>%s<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%.2f</td><td>%.2f</td><td>%.2f</td></tr>",
					units, num(f.Cost), hexCell, esc(rowTaken(f, t, hx)), esc(hx.Odds), esc(hx.Table), pct(hx.Breakthrough),
					pa*hx.ExpectedAttackerUnitsLost, pa*hx.ExpectedAttackerFactorsLost, pa*hx.ExpectedDefenderUnitsLost)
			}
		}
		tb.WriteString("</table>")
		if planWaits(tp) {
			fmt.Fprintf(tb, "<p>%s; %s.</p>", esc(strings.TrimSpace(orderLine(tp, tp.Frontier[0]))), esc(waitsNote))
		}
		if len(tp.Marginal) > 0 {
			tb.WriteString("<table><tr><th>change to the recommendation</th><th>P(hex taken)</th><th>change</th><th>cost change</th></tr>")
			for _, ch := range tp.Marginal {
				if ch.NoAttack {
					fmt.Fprintf(tb, "<tr><td>%s %s</td><td>no attack left</td><td></td><td></td></tr>", ch.Action, esc(ch.Unit))
					continue
				}
				fmt.Fprintf(tb, "<tr><td>%s %s</td><td>%s</td><td>%+.2f pts</td><td>%+g</td></tr>", ch.Action, esc(ch.Unit), pct(ch.HexTaken), 100*ch.HexTakenChange, ch.CostChange)
			}
			tb.WriteString("</table>")
		}
		pg.Notes = append(pg.Notes, tp.Warnings...)
	}
	pg.Meta = planHeader(name, r.TablePlan)[:1]
	pg.Tables = template.HTML(tb.String())
	return writePage(w, pg, []Chart{chart})
}

// waitsNote says how a front's tables count a hex that waits on others.
const waitsNote = "a hex that waits on others is taken with P(attacked) x its combat's chance (given if attacked), and its losses count only when it is attacked"

// planWaits reports whether a hex of the plan's front waits on others.
func planWaits(tp *plan.TablePlan) bool {
	return len(tp.Frontier) > 0 && hasRequires(tp.Frontier[0])
}

// attacked is P(attacked) of a front force's hex t (1 on one hex, or for
// a hex that waits on none).
func attacked(f *plan.Force, t int) float64 {
	if f.Value == nil || f.Joint == nil {
		return 1
	}
	return f.Joint.Attacked[t]
}

// rowTaken is a table row's P(hex taken): one hex's, or a front's hex's
// in the plan (hexTaken).
func rowTaken(f *plan.Force, t int, h *plan.HexForce) string {
	if f.Value == nil {
		return pct(h.HexTaken.P)
	}
	return hexTaken(f, t)
}
