package reports

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/operation"
	"github.com/wifodds/wifodds/sim"
)

// WriteOperationText writes a fixed operation's answer short: one line a
// combat, then the joint figures (docs/operations.md); with working, each
// combat's --explain steps follow.
func WriteOperationText(w io.Writer, r *operation.Result, working bool) error {
	b := &strings.Builder{}
	combats := "combats"
	if len(r.Combats) == 1 {
		combats = "combat"
	}
	fmt.Fprintf(b, "%s: an operation of %d %s, CRT %s; order of attack: %s\n", r.Operation, len(r.Combats), combats, r.CRT, strings.Join(r.Order, ", "))
	method := "exact (every dice path of every combat)"
	var sampled []string
	for _, c := range r.Combats {
		if s := c.Summary; s.Method != sim.MethodExact {
			sampled = append(sampled, fmt.Sprintf("%s %s trials", c.ID, Thousands(s.Trials)))
		}
	}
	if len(sampled) > 0 {
		method = "Monte Carlo for " + strings.Join(sampled, ", ") + " (each its own seed, from --seed); the joint figures follow exactly from the combats' figures"
	}
	fmt.Fprintf(b, "method: %s\n\n", method)
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "target\tkind\ttotals\todds\trequires\tattacked\ttaken if attacked\ttaken")
	for _, c := range r.Combats {
		req := "-"
		if len(c.Requires) > 0 {
			req = strings.Join(c.Requires, ", ")
		}
		s := c.Summary
		fmt.Fprintf(tw, "%s\t%s\t%s:%s\t%s\t%s\t%s\t%s\t%s\n", c.ID, c.Kind, num(s.Odds.Attack), num(s.Odds.Defence),
			topShare(s), req, pct(c.PAttacked), pct(c.POwn), pct(c.PTaken))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	f := r.Figures
	b.WriteString("\n")
	tw = tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "P(all taken)\t%s\n", pct(f.All))
	fmt.Fprintf(tw, "P(exactly k taken)\t%s\n", byK(f.Exactly, 0))
	fmt.Fprintf(tw, "P(at least k taken)\t%s\n", byK(f.AtLeast, 1))
	for _, s := range f.Sets {
		fmt.Fprintf(tw, "P(%s: %s taken)\t%s\n", s.Name, strings.Join(s.Targets, ", "), pct(s.P))
	}
	fmt.Fprintf(tw, "expected hexes taken\t%.3f of %d\n", f.ExpectedTaken, len(r.Combats))
	if f.TotalValue != float64(len(r.Combats)) {
		fmt.Fprintf(tw, "expected value taken\t%.3f of %s\n", f.ExpectedValue, num(f.TotalValue))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, m := range r.Warnings {
		fmt.Fprintf(b, "warning: %s\n", m)
	}
	if working {
		for _, c := range r.Combats {
			fmt.Fprintf(b, "\nworking, %s:\n", c.ID)
			for _, l := range c.Summary.Working {
				fmt.Fprintf(b, "  %s\n", l)
			}
		}
	}
	return writeText(w, b.String())
}

// topShare is a combat's odds: the level it is fought at, or the likeliest
// with a note that others occur (pre-combat steps can move the odds).
func topShare(s *analysis.Summary) string {
	best, n := "", 0
	top := -1.0
	for _, e := range s.OddsLevels {
		if e.Value > 0 {
			n++
			if e.Value > top {
				best, top = e.Key, e.Value
			}
		}
	}
	if n > 1 {
		return fmt.Sprintf("%s (%s; %d levels)", best, pct(top), n)
	}
	return best
}

// byK lists figures by k from the first k given: "0: 10.00%, 1: ...".
func byK(ps []float64, from int) string {
	parts := make([]string, 0, len(ps))
	for k := from; k < len(ps); k++ {
		parts = append(parts, fmt.Sprintf("%d: %s", k, pct(ps[k])))
	}
	return strings.Join(parts, ", ")
}
