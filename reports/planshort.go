package reports

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/wifodds/wifodds/plan"
)

// WritePlanShort writes a plan's short answer (issue 28 item 6): under
// each table the force to send and its key figures first, then one line
// on what the search covered. The frontier and what one more unit buys
// are WritePlanText's (`wifodds plan --all`); JSON always holds them.
func WritePlanShort(w io.Writer, name string, r *plan.Result) error {
	b := &strings.Builder{}
	for i, tp := range r.Plans {
		if i > 0 {
			b.WriteString("\n")
		}
		h := planHeader(name, tp)
		b.WriteString(h[0] + "\n\n")
		f, why := headline(tp)
		if why != "" {
			b.WriteString(why + "\n")
		}
		if f != nil {
			if len(tp.Targets) > 0 {
				writeFrontShort(b, tp, f)
			} else {
				writeHexShort(b, tp, f)
			}
		}
		fmt.Fprintf(b, "\n%s\n", h[1])
		more := "the whole frontier"
		if len(tp.Marginal) > 0 {
			more += " and what one more unit buys"
		}
		fmt.Fprintf(b, "--all: %s\n", more)
		for _, wn := range tp.Warnings {
			fmt.Fprintf(b, "warning: %s\n", wn)
		}
	}
	return writeText(w, b.String())
}

// headline is the force the short answer leads with and the line that
// introduces it: the recommendation, else the frontier's best force (the
// most likely to take the hex, or the most hexes expected) with why there
// is no recommendation.
func headline(tp *plan.TablePlan) (*plan.Force, string) {
	if tp.Recommended != nil {
		return tp.Recommended, ""
	}
	var best *plan.Force
	if n := len(tp.Frontier); n > 0 {
		best = tp.Frontier[n-1]
	}
	why := "No target set: give plan.target or --target for the cheapest force reaching it."
	if tp.Unreached != "" {
		why = fmt.Sprintf("No recommendation: %s.", tp.Unreached)
	}
	if best == nil {
		return nil, why
	}
	return best, why
}

// sendLine opens the headline force: the one to send, or when there is
// no recommendation the best the search found.
func sendLine(tp *plan.TablePlan, f *plan.Force) string {
	if f == tp.Recommended {
		return "Send"
	}
	return "Best found"
}

// estimateNote is how sure a P(hex taken) is: exact, or the Monte Carlo
// interval around it.
func estimateNote(h *plan.HexFigures) string {
	if h.Method == "exact" {
		return "exact"
	}
	return fmt.Sprintf("Monte Carlo, in %s..%s", pct(h.HexTaken.Lo), pct(h.HexTaken.Hi))
}

// cheaperLine is the frontier point just cheaper than f, so that the short
// answer says what saving a little would cost in odds ("" when f is the
// cheapest).
func cheaperLine(tp *plan.TablePlan, f *plan.Force) string {
	var prev *plan.Force
	for _, g := range tp.Frontier {
		if g == f {
			break
		}
		prev = g
	}
	if prev == nil || prev == f {
		return ""
	}
	short := ""
	if prev.Value != nil {
		if s := frontShort(prev); s != "" {
			short = " (" + strings.TrimPrefix(s, ", ") + ")"
		}
		return fmt.Sprintf("  the next cheaper assignment: cost %s, expected hexes taken %.3f%s%s\n", num(prev.Cost), *prev.Value, chanceNote(tp, prev), short)
	}
	if prev.Shortfall != nil {
		short = fmt.Sprintf(" (%.2f pts short of the target)", 100**prev.Shortfall)
	}
	return fmt.Sprintf("  the next cheaper force: cost %s, P(hex taken) %s%s: %s\n", num(prev.Cost), pct(prev.HexTaken.P), short, unitList(prev.Units))
}

func writeHexShort(b *strings.Builder, tp *plan.TablePlan, f *plan.Force) {
	h := f.HexFigures
	fmt.Fprintf(b, "%s: %s\n", sendLine(tp, f), unitList(f.Units))
	fmt.Fprintf(b, "  P(hex taken) %s (%s); %s:%s = %s on the %s table; cost %s\n",
		pct(h.HexTaken.P), estimateNote(h), num(h.Attack), num(h.Defence), h.Odds, h.Table, num(f.Cost))
	fmt.Fprintf(b, "  expected losses: attacker %.2f units (%.2f factors), defender %.2f units (%.2f factors)\n",
		h.ExpectedAttackerUnitsLost, h.ExpectedAttackerFactorsLost, h.ExpectedDefenderUnitsLost, h.ExpectedDefenderFactorsLost)
	fmt.Fprintf(b, "  P(breakthrough) %s, attackers face-up %s\n", pct(h.Breakthrough), pct(h.AttackerFaceUp))
	b.WriteString(cheaperLine(tp, f))
}

func writeFrontShort(b *strings.Builder, tp *plan.TablePlan, f *plan.Force) {
	fmt.Fprintf(b, "%s (cost %s):\n", sendLine(tp, f), num(f.Cost))
	b.WriteString(orderLine(tp, f))
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  hex\tunits\todds\tP(taken)\tatt. factors lost\tdef. factors lost")
	var attUnits, attFactors, defUnits, defFactors float64
	sampled := false
	for t, h := range f.Hexes {
		if len(h.Units) == 0 || h.HexFigures == nil {
			fmt.Fprintf(tw, "  %s\tnot attacked\t-\t-\t-\t-\n", h.Target)
			continue
		}
		// A hex that waits on others is attacked with P(attacked): its
		// P(taken) and losses in the plan are its combat's times that.
		pa := attacked(f, t)
		p := hexTaken(f, t)
		if h.Method != "exact" {
			p += fmt.Sprintf(" (MC %s..%s)", pct(h.HexTaken.Lo), pct(h.HexTaken.Hi))
			sampled = true
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s:%s = %s %s\t%s\t%.2f\t%.2f\n", h.Target, unitList(h.Units), num(h.Attack), num(h.Defence), h.Odds, h.Table,
			p, pa*h.ExpectedAttackerFactorsLost, pa*h.ExpectedDefenderFactorsLost)
		attUnits += pa * h.ExpectedAttackerUnitsLost
		attFactors += pa * h.ExpectedAttackerFactorsLost
		defUnits += pa * h.ExpectedDefenderUnitsLost
		defFactors += pa * h.ExpectedDefenderFactorsLost
	}
	tw.Flush()
	fmt.Fprintf(b, "  expected hexes taken %.3f", *f.Value)
	if j := f.Joint; j != nil {
		ks := make([]string, len(j.Exactly))
		ps := make([]string, len(j.Exactly))
		for k, p := range j.Exactly {
			ks[k], ps[k] = fmt.Sprint(k), pct(p)
		}
		fmt.Fprintf(b, "; P(all %d taken) %s; P(exactly %s) %s", len(j.Exactly)-1, pct(j.All), strings.Join(ks, ", "), strings.Join(ps, ", "))
		for _, set := range j.Sets {
			fmt.Fprintf(b, "; P(%s) %s", set.Name, pct(set.P))
		}
		if sampled {
			b.WriteString(" (from the hexes' Monte Carlo estimates)")
		}
	}
	b.WriteString("\n")
	what := "expected losses over the front"
	if hasRequires(f) {
		what += " (a hex's when it is attacked)"
	}
	fmt.Fprintf(b, "  %s: attacker %.2f units (%.2f factors), defender %.2f units (%.2f factors)\n",
		what, attUnits, attFactors, defUnits, defFactors)
	b.WriteString(objectiveLine(tp, f))
	b.WriteString(cheaperLine(tp, f))
}

// hexTaken is a front's hex's P(taken) in the plan; for a hex that waits
// on others, with its combat's own P(taken if attacked).
func hexTaken(f *plan.Force, t int) string {
	h := f.Hexes[t]
	if len(h.Requires) == 0 || f.Joint == nil || len(h.Units) == 0 {
		return pct(h.HexTaken.P)
	}
	return fmt.Sprintf("%s (%s if attacked)", pct(f.Joint.Taken[t]), pct(h.HexTaken.P))
}

// hasRequires reports whether a hex of the front waits on others.
func hasRequires(f *plan.Force) bool {
	return slices.ContainsFunc(f.Hexes, func(h *plan.HexForce) bool { return len(h.Requires) > 0 })
}

// orderLine gives the order of attack when a hex of the front waits on
// others, each such hex with what it waits on ("" when none does: the
// hexes are then attacked in any order).
func orderLine(tp *plan.TablePlan, f *plan.Force) string {
	if !hasRequires(f) {
		return ""
	}
	req := map[string][]string{}
	for _, h := range f.Hexes {
		req[h.Target] = h.Requires
	}
	var steps []string
	for _, id := range tp.Order {
		if r := req[id]; len(r) > 0 {
			steps = append(steps, fmt.Sprintf("%s (if %s taken)", id, strings.Join(r, " and ")))
		} else {
			steps = append(steps, id)
		}
	}
	return "  order of attack: " + strings.Join(steps, ", then ") + "\n"
}

// objectiveLine says in one line why a chance objective sends f: its
// chance, and what the assignment taking the most expected hexes for no
// more would give instead ("" for the expected objective).
func objectiveLine(tp *plan.TablePlan, f *plan.Force) string {
	if f.Chance == nil {
		return ""
	}
	line := fmt.Sprintf("  the objective: %s %s", tp.Objective, pct(*f.Chance))
	e := tp.ExpectedPlan
	switch {
	case f != tp.Recommended || e == nil:
	case sameAssignment(e, f):
		line += "; it is also the most expected hexes for its cost"
	default:
		var at []string
		for _, h := range e.Hexes {
			if len(h.Units) > 0 {
				at = append(at, fmt.Sprintf("%s at %s", unitList(h.Units), h.Target))
			}
		}
		line += fmt.Sprintf(": the most expected hexes for cost %s (%.3f: %s) would give only %s", num(e.Cost), *e.Value, strings.Join(at, "; "), pct(*e.Chance))
	}
	return line + "\n"
}

// sameAssignment reports whether two front forces send the same units to
// each hex.
func sameAssignment(a, b *plan.Force) bool {
	if len(a.Hexes) != len(b.Hexes) {
		return false
	}
	for i := range a.Hexes {
		if !slices.Equal(a.Hexes[i].Units, b.Hexes[i].Units) {
			return false
		}
	}
	return true
}
