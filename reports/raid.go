package reports

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// WriteRaidText writes a bombardment summary for a player to read.
func WriteRaidText(w io.Writer, s *analysis.RaidSummary) error {
	b := &strings.Builder{}
	what := "one raid"
	if s.Raids > 1 {
		what = fmt.Sprintf("a campaign of %d raids (totals; losses carried forward, aborted bombers return)", s.Raids)
	}
	fmt.Fprintf(b, "%s: strategic bombardment, %s, tables %s\n", s.Scenario, what, s.AirTables)
	mc := s.Method != sim.MethodExact
	writeRun(b, &s.Run)
	if s.AA.Dice > 0 {
		fmt.Fprintf(b, "AA fire: %d factors, %d dice on the %d table\n", s.AA.Factors, s.AA.Dice, s.AA.Table)
	} else {
		fmt.Fprintf(b, "AA fire: %d factors, none\n", s.AA.Factors)
	}
	b.WriteString("\n")
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	for _, k := range raidEvents() {
		e, ok := s.Probabilities[k]
		if !ok {
			continue
		}
		writeEstimate(tw, "P("+strings.ReplaceAll(k, "_", " ")+")", e, mc)
	}
	tw.Flush()
	b.WriteString("\n")
	for _, m := range combat.RaidMetrics {
		fmt.Fprintf(b, "%s: %s  (mean %s)\n", m.Label, nonZero(s.DistCIs[m.Name]), mean(s.Means[m.Name], mc))
	}
	if len(s.Bombers) > 0 {
		b.WriteString("\n")
		tw = tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "bomber\tdestroyed\taborted\t")
		for _, bf := range s.Bombers {
			lost := pct(bf.Destroyed.P)
			if bf.Carrier {
				lost = pct(bf.Damaged.P) + " (damaged: a carrier)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t\n", bf.Name, lost, pct(bf.Aborted.P))
		}
		tw.Flush()
	}
	if r := s.Replay; r != nil {
		b.WriteString("\n")
		fmt.Fprintf(b, "replay of dice %v: destroyed %v, aborted %v, %d factors bombed, %d build points lost", r.Dice, r.Destroyed, r.Aborted, r.Factors, r.BP)
		if len(r.Damaged) > 0 {
			fmt.Fprintf(b, ", carriers damaged %v", r.Damaged)
		}
		if r.Star {
			b.WriteString(", asterisk:")
			if r.Factory {
				b.WriteString(" a factory destroyed;")
			}
			if r.Oil {
				b.WriteString(" an oil point lost;")
			}
			if r.AAUnit != "" {
				fmt.Fprintf(b, " AA unit %s destroyed", r.AAUnit)
			}
		}
		b.WriteString("\n")
		fmt.Fprintf(b, "luck: this outcome has probability %s; at least as many build points lost %s\n", pct(r.Probability), pct(r.AtLeastAsGood))
		writeDiceNotes(b, r.RandomRolls, r.UnusedDice)
	}
	for _, warn := range s.Warnings {
		fmt.Fprintf(b, "note: %s\n", warn)
	}
	return writeText(w, trimLines(b.String()))
}

// nonZero lists the values with any probability, so long factor
// distributions stay readable.
func nonZero(es []stats.Estimate) string {
	if n := countNonZero(es); n > 15 {
		return fmt.Sprintf("%d values from %d to %d; 5%% quantile %d, median %d, 95%% quantile %d",
			n, quantile(es, 0), quantile(es, 1), quantile(es, 0.05), quantile(es, 0.5), quantile(es, 0.95))
	}
	var parts []string
	for v, e := range es {
		if e.P > 0 {
			parts = append(parts, fmt.Sprintf("%d: %s", v, pct(e.P)))
		}
	}
	return strings.Join(parts, "  ")
}

func countNonZero(es []stats.Estimate) int {
	n := 0
	for _, e := range es {
		if e.P > 0 {
			n++
		}
	}
	return n
}

// quantile is the least value whose cumulative probability reaches q (the
// least and greatest values with any probability for q = 0 and 1).
func quantile(es []stats.Estimate, q float64) int {
	cum := 0.0
	last := 0
	for v, e := range es {
		if e.P == 0 {
			continue
		}
		if q == 0 {
			return v
		}
		cum += e.P
		last = v
		if q < 1 && cum >= q-1e-12 {
			return v
		}
	}
	return last
}

// raidEvents are the headline probabilities of a raid, in report order:
// build points lost, an asterisk, then each metric's "at least one".
func raidEvents() []string {
	var ev []string
	for _, m := range combat.RaidMetrics {
		if m.Event != "" {
			ev = append(ev, m.Event)
		}
	}
	return append([]string{ev[0], "asterisk"}, ev[1:]...)
}
