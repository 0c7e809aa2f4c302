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

// reserveCostLabels word a defender's plan's cost measure.
var reserveCostLabels = map[string]string{
	"committed_factors":      "defence factors added",
	"committed_units":        "reserves added",
	"committed_build_points": "build points of the reserves added",
}

// maxDefenceRows bounds the frontier rows the text report shows, so that
// the answer stays short; --all (and JSON, CSV and Markdown) give every
// row.
const maxDefenceRows = 10

// defenceHeader is the lines that open a defender's plan under one table.
func defenceHeader(name string, dp *plan.DefencePlan) []string {
	head := fmt.Sprintf("%s: the defender's question, CRT %s, cost = %s", name, dp.CRT, reserveCostLabels[dp.Cost])
	if dp.Target != nil {
		head += fmt.Sprintf(", target P(hex held) >= %s", pct(*dp.Target))
	}
	who := "The attacker answers each set of reserves with its best response: the force from attacker.available most likely to take the hex."
	if dp.Attacker == "fixed" {
		who = "The attacker's force is fixed: the units under attacker.units attack whatever reserves are added."
	}
	what := fmt.Sprintf("Weighed %s reserve sets (%s distinct defences, %s attacking combats); %d on the frontier",
		Thousands(uint64(dp.ReserveSets)), Thousands(uint64(dp.DistinctDefences)), Thousands(uint64(dp.AttackerCombats)), len(dp.Frontier))
	if dp.OverStacking > 0 {
		what += fmt.Sprintf("; %d over the stacking limit skipped", dp.OverStacking)
	}
	return []string{head, who, what}
}

// reserveList names a reserve set for reading.
func reserveList(units []string) string {
	if len(units) == 0 {
		return "(none: the hex's own defenders)"
	}
	return strings.Join(units, ", ")
}

// responseLine is the attacker's best response in a few words.
func responseLine(r *plan.Reserve) string {
	f := r.Response
	if f == nil {
		return "no attack can take the hex"
	}
	return fmt.Sprintf("%s at %s (%s)", attackerList(f.Units), f.Odds, f.Table)
}

// attackerList names the attacker's response: the units it adds from
// attacker.available, or its fixed (committed) units alone.
func attackerList(units []string) string {
	if len(units) == 0 {
		return "the attacker's units (attacker.units)"
	}
	return strings.Join(units, ", ")
}

// WriteDefenceText writes a defender's plan for a player to read: the
// recommendation and its key figures first, then the frontier: at most
// maxDefenceRows rows of it unless all.
func WriteDefenceText(w io.Writer, name string, d *plan.Defence, all bool) error {
	b := &strings.Builder{}
	for i, dp := range d.Plans {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, l := range defenceHeader(name, dp) {
			b.WriteString(l + "\n")
		}
		b.WriteString("\n")
		switch r := dp.Recommended; {
		case r != nil:
			against := "the attacker's best response"
			if dp.Attacker == "fixed" {
				against = "the attacker's force"
			}
			fmt.Fprintf(b, "Recommended reserves: %s\n  cost %s; P(hex held) %s against %s\n", reserveList(r.Units), num(r.Cost), pct(r.HexHeld), against)
			if r.Response != nil {
				fmt.Fprintf(b, "  %s: %s\n    %s\n", against, attackerList(r.Response.Units), figuresLine(r.Response.HexFigures))
			} else {
				fmt.Fprintf(b, "  %s: no attack can take the hex\n", against)
			}
		case dp.Unreached != "":
			fmt.Fprintf(b, "No recommendation: %s.\n", dp.Unreached)
		default:
			b.WriteString("No target set: give plan.target or --target (the P(hex held) wanted) for the cheapest reserves reaching it.\n")
		}
		b.WriteString("\nFrontier (cheapest first; no reserves hold the hex better for less):\n")
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
		what := "attacker's best response"
		if dp.Attacker == "fixed" {
			what = "attacker's force"
		}
		fmt.Fprintln(tw, "cost\tP(hex held)\tshort of target\t  reserves; "+what)
		for j, r := range dp.Frontier {
			if j == maxDefenceRows && !all {
				fmt.Fprintf(tw, "\t\t\t  ... %d more: --all\n", len(dp.Frontier)-j)
				break
			}
			short := ""
			if r.Shortfall != nil {
				short = fmt.Sprintf("%.2f pts", 100**r.Shortfall)
			}
			mark := ""
			if r == dp.Recommended {
				mark = " <- recommended"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t  %s; %s%s\n", num(r.Cost), pct(r.HexHeld), short, reserveList(r.Units), responseLine(r), mark)
		}
		tw.Flush()
		for _, wn := range dp.Warnings {
			fmt.Fprintf(b, "warning: %s\n", wn)
		}
	}
	return writeText(w, b.String())
}

// WriteDefenceCSV writes the frontier of every table as tidy CSV: one row
// a reserve set, with the attacker's best response.
func WriteDefenceCSV(w io.Writer, d *plan.Defence) error {
	cw, flush := newCSV(w)
	cw.Write([]string{"crt", "point", "recommended", "cost", "reserves", "hex_held", "hex_taken", "attacker_units", "odds", "table",
		"expected_attacker_factors_lost", "expected_defender_factors_lost", "method"})
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, dp := range d.Plans {
		for i, r := range dp.Frontier {
			row := []string{dp.CRT, strconv.Itoa(i + 1), strconv.FormatBool(r == dp.Recommended), g(r.Cost), strings.Join(r.Units, "+"),
				g(r.HexHeld), g(r.HexTaken)}
			if f := r.Response; f != nil {
				row = append(row, strings.Join(f.Units, "+"), f.Odds, f.Table, g(f.ExpectedAttackerFactorsLost), g(f.ExpectedDefenderFactorsLost), f.Method)
			} else {
				row = append(row, "", "", "", "", "", "")
			}
			cw.Write(row)
		}
	}
	return flush()
}

// WriteDefenceMarkdown writes a defender's plan as Markdown tables.
func WriteDefenceMarkdown(w io.Writer, name string, d *plan.Defence) error {
	b := &strings.Builder{}
	for _, dp := range d.Plans {
		h := defenceHeader(name, dp)
		fmt.Fprintf(b, "## %s\n\n%s %s.\n\n", h[0], h[1], h[2])
		if r := dp.Recommended; r != nil {
			fmt.Fprintf(b, "**Recommended reserves:** %s (cost %s, P(hex held) %s)\n\n", mdEscape(reserveList(r.Units)), num(r.Cost), pct(r.HexHeld))
		} else if dp.Unreached != "" {
			fmt.Fprintf(b, "**No recommendation:** %s.\n\n", mdEscape(dp.Unreached))
		}
		b.WriteString("| cost | reserves | P(hex held) | attacker's best response |\n|---:|---|---:|---|\n")
		for _, r := range dp.Frontier {
			cost := num(r.Cost)
			if r == dp.Recommended {
				cost = "**" + cost + "**"
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", cost, mdEscape(reserveList(r.Units)), pct(r.HexHeld), mdEscape(responseLine(r)))
		}
		for _, wn := range dp.Warnings {
			fmt.Fprintf(b, "\n> %s\n", wn)
		}
		b.WriteString("\n")
	}
	return writeText(w, b.String())
}

// WriteDefenceHTML writes a defender's plan as one self-contained page.
func WriteDefenceHTML(w io.Writer, name string, d *plan.Defence, scenarioText string) error {
	tb := &strings.Builder{}
	esc := template.HTMLEscapeString
	pg := htmlPage{Title: "wifodds plan (defender): " + name, Scenario: scenarioText}
	for _, dp := range d.Plans {
		h := defenceHeader(name, dp)
		fmt.Fprintf(tb, "<h2>CRT %s</h2><p>%s %s.</p>", esc(dp.CRT), esc(h[1]), esc(h[2]))
		if r := dp.Recommended; r != nil {
			fmt.Fprintf(tb, "<p><strong>Recommended reserves:</strong> %s, cost %s, P(hex held) %s.</p>", esc(reserveList(r.Units)), num(r.Cost), pct(r.HexHeld))
		} else if dp.Unreached != "" {
			fmt.Fprintf(tb, "<p><strong>No recommendation:</strong> %s.</p>", esc(dp.Unreached))
		}
		tb.WriteString("<table><tr><th>reserves</th><th>cost</th><th>P(hex held)</th><th>attacker's best response</th></tr>")
		for _, r := range dp.Frontier {
			units := esc(reserveList(r.Units))
			if r == dp.Recommended {
				units = "<strong>" + units + "</strong>"
			}
			fmt.Fprintf(tb, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>", units, num(r.Cost), pct(r.HexHeld), esc(responseLine(r)))
		}
		tb.WriteString("</table>")
		pg.Notes = append(pg.Notes, dp.Warnings...)
	}
	pg.Meta = defenceHeader(name, d.DefencePlan)[:1]
	pg.Tables = template.HTML(tb.String())
	return writePage(w, pg, nil)
}
