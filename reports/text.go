package reports

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// writeRun writes how a run was made: the method, and whether it was cut
// short or missed its precision target.
func writeRun(b *strings.Builder, r *sim.Run) {
	switch r.Method {
	case sim.MethodExact:
		fmt.Fprintf(b, "method: exact (%s dice paths)\n", Thousands(uint64(r.Paths)))
	default:
		fmt.Fprintf(b, "method: Monte Carlo, %s trials, seed %d, %d workers, %.2fs\n", Thousands(r.Trials), *r.Seed, r.Workers, r.Elapsed)
	}
	if r.Partial {
		fmt.Fprintf(b, "PARTIAL: interrupted after %s trials; the figures below are from those trials only\n", Thousands(r.Trials))
	}
	if p := r.Precision; p != nil && p.Reached {
		fmt.Fprintf(b, "precision: every headline 95%% interval within ±%s (target ±%s)\n", pct(p.Achieved), pct(p.Target))
	} else if p != nil && !r.Partial {
		fmt.Fprintf(b, "PRECISION NOT REACHED: the widest headline 95%% interval is ±%s after %s trials, the --max-trials cap; the target was ±%s\n", pct(p.Achieved), Thousands(r.Trials), pct(p.Target))
	}
}

// WriteText writes a run summary for a player to read.
func WriteText(w io.Writer, s *analysis.Summary) error {
	b := &strings.Builder{}
	what := s.Kind
	if what == "land" {
		what = "land combat"
	}
	fmt.Fprintf(b, "%s: %s, CRT %s, table %s", s.Scenario, what, s.CRT, s.Table)
	if len(s.Options) > 0 {
		fmt.Fprintf(b, ", options %s", strings.Join(s.Options, ", "))
	}
	b.WriteString("\n")
	writeRun(b, &s.Run)
	fmt.Fprintf(b, "totals: attack %s, defence %s", num(s.Odds.Attack), num(s.Odds.Defence))
	if s.Notional != nil {
		fmt.Fprintf(b, " (the defence includes the notional unit, %s factors before terrain)", num(*s.Notional))
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "odds: %s\n", shares(s.OddsLevels))
	fmt.Fprintf(b, "table: %s\n", shares(s.Tables))
	b.WriteString("\n")
	mc := s.Method != sim.MethodExact
	b.WriteString("results read attacker/defender: a number is units lost, - no loss (attackers face-down), * attackers\n" +
		"stay face-up, R the defenders retreat, S they are shattered, B breakthrough; grouped by the attacker's\n" +
		"part, its worst first, then the defender's, its mildest first\n\n")
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	if mc {
		fmt.Fprintln(tw, "result\tprobability\t95% interval\t")
	} else {
		fmt.Fprintln(tw, "result\tprobability\t")
	}
	prev := ""
	for _, code := range byParts(s.ResultOrder) {
		// A blank row between attacker outcomes groups the rows.
		if att, _, _ := strings.Cut(code, "/"); prev != "" && att != prev {
			fmt.Fprintln(tw, "\t\t")
		}
		prev, _, _ = strings.Cut(code, "/")
		writeEstimate(tw, code, s.ResultCIs.Value(code), mc)
	}
	fmt.Fprintln(tw, "\t\t")
	p := s.Probabilities
	taken, up := "hex taken", "attackers face-up"
	if s.Kind != "land" {
		taken, up = s.Kind+" succeeds (hex taken)", "attackers stay face-up"
	}
	writeEstimate(tw, taken, p.HexTaken, mc)
	writeEstimate(tw, "breakthrough", p.Breakthrough, mc)
	writeEstimate(tw, up, p.AttackerFaceUp, mc)
	// R and S act on the defenders a result leaves: with none left, an S
	// shatters nobody, so the lines say "survivors" (a 2S that destroys
	// both defenders counts under neither).
	writeEstimate(tw, "survivors retreat", p.DefenderRetreated, mc)
	writeEstimate(tw, "survivors shattered", p.DefenderShattered, mc)
	if p.NotAllowed != nil {
		writeEstimate(tw, "airdrop not allowed (below 1:1)", *p.NotAllowed, mc)
	}
	tw.Flush()
	b.WriteString("\n")
	fmt.Fprintf(b, "attacking units lost:  %s  (mean %s)\n", dist(s.DistCIs.AttackerUnitsLost), mean(s.Means.AttackerUnitsLost, mc))
	fmt.Fprintf(b, "defending units lost:  %s  (mean %s)\n", dist(s.DistCIs.DefenderUnitsLost), mean(s.Means.DefenderUnitsLost, mc))
	if d := s.Distributions; d.AttackerUnitsReduced != nil {
		fmt.Fprintf(b, "attacking corps reduced to divisions: %s\n", plainDist(d.AttackerUnitsReduced))
		fmt.Fprintf(b, "defending corps reduced to divisions (retreated): %s\n", plainDist(d.DefenderUnitsReduced))
	}
	fmt.Fprintf(b, "attacking factors lost: %s  (mean %s)\n", factorDist(s.DistCIs.AttackerFactorsLost, estimateP), mean(s.Means.AttackerFactorsLost, mc))
	fmt.Fprintf(b, "defending factors lost: %s  (mean %s)\n", factorDist(s.DistCIs.DefenderFactorsLost, estimateP), mean(s.Means.DefenderFactorsLost, mc))
	if pc := s.PreCombat; pc != nil {
		fmt.Fprintf(b, "defenders turned face-down by ground strikes: %s\n", plainDist(pc.DefendersStruck))
		if len(pc.AircraftDestroyed) > 1 || len(pc.AircraftAborted) > 1 {
			fmt.Fprintf(b, "ground-support aircraft destroyed: %s; aborted: %s\n", plainDist(pc.AircraftDestroyed), plainDist(pc.AircraftAborted))
			fmt.Fprintf(b, "tactical factors pressing the attack: %s\n", factorDist(pc.SupportFactors, func(p float64) float64 { return p }))
		}
	}
	for _, side := range []struct {
		name  string
		types analysis.Keyed[analysis.TypeLoss]
	}{{"attacking", s.LossesByType.Attacker}, {"defending", s.LossesByType.Defender}} {
		if len(side.types) < 2 {
			continue
		}
		// In key order, as the list keeps them.
		parts := make([]string, len(side.types))
		for i, e := range side.types {
			parts[i] = fmt.Sprintf("%s %.3f", e.Key, e.Value.Mean.Mean)
		}
		fmt.Fprintf(b, "%s units lost by type (mean): %s\n", side.name, strings.Join(parts, ", "))
	}
	if r := s.Replay; r != nil {
		b.WriteString("\n")
		// The code, then what it does in words (combat.Combat.Words), which
		// also say the units lost and whether the hex is taken.
		fmt.Fprintf(b, "replay of dice %v%s: %s on %s at %s. %s\n", r.Dice, rollWords(r.CRTRoll), r.Result, r.Table, r.Odds, r.Words)
		fmt.Fprintf(b, "luck: this outcome has probability %s; an outcome at least as good for the attacker %s\n", pct(r.Probability), pct(r.AtLeastAsGood))
		writeDiceNotes(b, r.RandomRolls, r.UnusedDice)
	}
	for _, warn := range s.Warnings {
		fmt.Fprintf(b, "note: %s\n", warn)
	}
	return writeText(w, trimLines(b.String()))
}

// rollWords says what the modifier did to the CRT roll the table read, as
// the page says it: " (modifier +1: the combat's 5 reads as 6)", and under
// wild results, whose two rolls a new player wondered about (which is
// whose, and whether +1 helps the defender's): " (modifier +1 on both
// rolls, higher being better for the attacker: the attacker's 5 reads as
// 6 and picks the defender's part, the defender's 1 reads as 2 and picks
// the attacker's)" (docs/rules.md §2.4, AsA 3.14); nothing when no roll
// was read.
func rollWords(r *analysis.CRTRoll) string {
	if r == nil || len(r.Dice) == 0 || len(r.ReadAs) != len(r.Dice) {
		return ""
	}
	m := fmt.Sprintf("modifier %+d", r.Modifier)
	if len(r.Dice) == 2 {
		return fmt.Sprintf(" (%s on both rolls, higher being better for the attacker: the attacker's %d reads as %d and picks the defender's part, the defender's %d reads as %d and picks the attacker's)",
			m, r.Dice[0], r.ReadAs[0], r.Dice[1], r.ReadAs[1])
	}
	return fmt.Sprintf(" (%s: the combat's %d reads as %d)", m, r.Dice[0], r.ReadAs[0])
}

// trimLines drops the trailing spaces tabwriter leaves after the last column.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// writeDiceNotes says when a replay needed more rolls than were listed, or
// fewer.
func writeDiceNotes(b *strings.Builder, random, unused int) {
	if random > 0 {
		fmt.Fprintf(b, "note: the listed dice ran out; %d more roll(s) were drawn at random\n", random)
	}
	if unused > 0 {
		fmt.Fprintf(b, "note: %d listed roll(s) were not needed\n", unused)
	}
}

// WriteExplain writes the working behind a combat, one step a line.
func WriteExplain(w io.Writer, steps []combat.Step) error {
	b := &strings.Builder{}
	b.WriteString("working:\n")
	for _, st := range steps {
		fmt.Fprintf(b, "  %s\n", st)
	}
	b.WriteString("\n")
	return writeText(w, b.String())
}

func writeEstimate(w io.Writer, label string, e stats.Estimate, mc bool) {
	if mc {
		fmt.Fprintf(w, "%s\t%s\t[%s, %s]\t\n", label, pct(e.P), pct(e.Lo), pct(e.Hi))
	} else {
		fmt.Fprintf(w, "%s\t%s\t\n", label, pct(e.P))
	}
}

func pct(p float64) string { return strconv.FormatFloat(100*p, 'f', 2, 64) + "%" }

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func mean(m stats.Mean, mc bool) string {
	if !mc {
		return strconv.FormatFloat(m.Mean, 'f', 3, 64)
	}
	return fmt.Sprintf("%.3f ± %.3f", m.Mean, m.Hi-m.Mean)
}

// shares writes the named shares that happen, the largest first (ties in
// name order).
func shares(k analysis.Keyed[float64]) string {
	var happen []analysis.KV[float64]
	for _, e := range k {
		if e.Value > 0 {
			happen = append(happen, e)
		}
	}
	// Stable on a list in name order: equal shares stay in name order.
	sort.SliceStable(happen, func(i, j int) bool { return happen[i].Value > happen[j].Value })
	parts := make([]string, len(happen))
	for i, e := range happen {
		parts[i] = e.Key + " " + pct(e.Value)
	}
	return strings.Join(parts, ", ")
}

func dist(es []stats.Estimate) string {
	parts := make([]string, 0, len(es))
	for i, e := range es {
		parts = append(parts, fmt.Sprintf("%d: %s", i, pct(e.P)))
	}
	return strings.Join(parts, "  ")
}

func plainDist(ps []float64) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprintf("%d: %s", i, pct(p))
	}
	return strings.Join(parts, "  ")
}

// factorDist writes a distribution keyed by factor totals, smallest total
// first; p is a value's probability.
func factorDist[V any](k analysis.Keyed[V], p func(V) float64) string {
	byTotal := slices.Clone(k)
	slices.SortFunc(byTotal, func(a, b analysis.KV[V]) int {
		x, _ := strconv.ParseFloat(a.Key, 64)
		y, _ := strconv.ParseFloat(b.Key, 64)
		return cmp.Compare(x, y)
	})
	parts := make([]string, len(byTotal))
	for i, e := range byTotal {
		parts[i] = e.Key + ": " + pct(p(e.Value))
	}
	return strings.Join(parts, "  ")
}

func estimateP(e stats.Estimate) float64 { return e.P }

// Thousands writes n with commas between groups of three digits.
func Thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// byParts orders result codes by the attacker's part, worst for the
// attacker first (most units lost, then -, then *), then by the defender's
// part, mildest first (-, then units lost, then R, S, B); other labels
// (an airdrop not allowed) come last.
func byParts(codes []string) []string {
	out := append([]string(nil), codes...)
	sort.SliceStable(out, func(i, j int) bool {
		ai, di, oki := resultParts(out[i])
		aj, dj, okj := resultParts(out[j])
		switch {
		case oki != okj:
			return oki
		case ai != aj:
			return ai < aj
		}
		return di < dj
	})
	return out
}

// resultParts ranks a result code's parts: the attacker's from worst (-9,
// nine units lost) to best (1, face-up), the defender's from mildest (0,
// no loss), by units lost and then R, S, B. ok is false for a label that is
// not a result code.
func resultParts(code string) (att, def int, ok bool) {
	r, err := crt.ParseResult(code)
	if err != nil {
		return 0, 0, false
	}
	switch {
	case r.AttackerLoss > 0:
		att = -int(r.AttackerLoss)
	case r.FaceUp:
		att = 1
	}
	if r.DefenderLoss > 0 || r.Effect != crt.NoEffect {
		def = 1 + 4*int(r.DefenderLoss) + int(r.Effect)
	}
	return att, def, true
}
