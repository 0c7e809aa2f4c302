package analysis

import (
	"fmt"
	"sort"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// RaidSummary is what a bombardment run reports (docs/rules.md §7): the
// distributions of build points lost, factories, oil points and AA units
// destroyed, bombers destroyed and aborted and factors that bombed, with
// means and intervals, and each bomber's fate.
type RaidSummary struct {
	Scenario  string `json:"scenario"`
	Kind      string `json:"kind"`
	AirTables string `json:"air_tables"`
	Raids     int    `json:"raids"`
	sim.Run

	AA            AAFire                      `json:"aa"`
	Probabilities map[string]stats.Estimate   `json:"probabilities"`
	Distributions map[string][]float64        `json:"distributions"`
	DistCIs       map[string][]stats.Estimate `json:"distribution_intervals"`
	Means         map[string]stats.Mean       `json:"means"`
	Bombers       []BomberFate                `json:"bombers,omitempty"`
	Reconstructed bool                        `json:"reconstructed_tables"`
	Replay        *RaidReplay                 `json:"replay,omitempty"`
	Warnings      []string                    `json:"warnings"`
	Working       []string                    `json:"working,omitempty"` // the --explain steps
}

// AAFire is the first raid's anti-aircraft fire.
type AAFire struct {
	Factors int `json:"factors"`
	Dice    int `json:"dice"`
	Table   int `json:"table"`
}

// BomberFate is the chance one bomber is destroyed (damaged, for a
// carrier) or aborted in a raid.
type BomberFate struct {
	Name      string         `json:"name"`
	Carrier   bool           `json:"carrier,omitempty"`
	Destroyed stats.Estimate `json:"destroyed"`
	Damaged   stats.Estimate `json:"damaged"`
	Aborted   stats.Estimate `json:"aborted"`
}

// SummarizeRaid aggregates a tally of one raid's outcomes.
func SummarizeRaid(r *combat.Raid, t *stats.Tally, run sim.Run) *RaidSummary {
	totals := make([]combat.CampaignTotals, len(r.Outcomes))
	for i := range r.Outcomes {
		totals[i] = r.Outcomes[i].Totals()
	}
	sum := summarizeTotals(r, totals, t, run, 1)
	out := r.Outcomes
	bs := r.Scenario.Raid.Bombers
	for pos, b := range r.AAOrder() {
		hit := t.Event(func(i int) bool { return pos < int(out[i].Hit) })
		fate := BomberFate{Name: bs[b].Name, Carrier: bs[b].Carrier, Destroyed: hit, Damaged: stats.Exact(0),
			Aborted: t.Event(func(i int) bool { return pos >= int(out[i].Hit) && pos < int(out[i].Hit+out[i].Aborted) })}
		if bs[b].Carrier {
			fate.Destroyed, fate.Damaged = stats.Exact(0), hit
		}
		sum.Bombers = append(sum.Bombers, fate)
	}
	sum.Probabilities["asterisk"] = t.Event(func(i int) bool { return out[i].Star })
	return sum
}

// SummarizeCampaign aggregates the totals of a campaign of raids.
func SummarizeCampaign(r *combat.Raid, keys map[uint64]uint64, run sim.Run, raids int) *RaidSummary {
	ks := make([]uint64, 0, len(keys))
	for k := range keys {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	totals := make([]combat.CampaignTotals, len(ks))
	counts := make([]uint64, len(ks))
	for i, k := range ks {
		totals[i], counts[i] = combat.UnpackCampaign(k), keys[k]
	}
	return summarizeTotals(r, totals, &stats.Tally{Counts: counts, N: run.Trials}, run, raids)
}

func summarizeTotals(r *combat.Raid, totals []combat.CampaignTotals, t *stats.Tally, run sim.Run, raids int) *RaidSummary {
	sum := newRaidSummary(r, run, raids)
	// Each metric's figures in one pass over the totals that happen (a
	// campaign has hundreds), adding in index order as Tally.Event does,
	// so every figure is the same to the bit.
	n := t.Len()
	happens := make([]int, 0, n)
	for i := range n {
		if t.Prob(i) > 0 {
			happens = append(happens, i)
		}
	}
	values, vals, ws := make([]int, n), make([]float64, n), t.MeanWeights(nil)
	for k, m := range combat.RaidMetrics {
		for i := range totals {
			values[i], vals[i] = totals[i][k], float64(totals[i][k])
		}
		sum.addMetric(m, t, happens, values, stats.MeanOf(vals, ws, t.N))
	}
	return sum.tables(r)
}

// summarizeMarginals is an exact campaign's summary from each metric's
// distribution (combat.CampaignMarginals): the figures summarizeTotals
// gives from the joint totals, each metric's values weighed on their own.
func summarizeMarginals(r *combat.Raid, marg *combat.CampaignMarginals, run sim.Run, raids int) *RaidSummary {
	sum := newRaidSummary(r, run, raids)
	for k, m := range combat.RaidMetrics {
		t := &stats.Tally{Weights: marg[k]}
		n := len(marg[k])
		happens, values, vals := make([]int, 0, n), make([]int, n), make([]float64, n)
		for v, p := range marg[k] {
			values[v], vals[v] = v, float64(v)
			if p > 0 {
				happens = append(happens, v)
			}
		}
		sum.addMetric(m, t, happens, values, stats.MeanOf(vals, marg[k], 0))
	}
	return sum.tables(r)
}

// newRaidSummary is a raid's summary with its header filled in and no
// figures yet.
func newRaidSummary(r *combat.Raid, run sim.Run, raids int) *RaidSummary {
	s := r.Scenario
	return &RaidSummary{
		Scenario: s.Name, Kind: string(s.Kind), AirTables: s.Raid.AirTables, Raids: raids, Run: run,
		AA:            AAFire{r.AAFactors, r.AADice, r.AATable},
		Probabilities: map[string]stats.Estimate{}, Distributions: map[string][]float64{},
		DistCIs: map[string][]stats.Estimate{}, Means: map[string]stats.Mean{}, Warnings: []string{},
	}
}

// addMetric adds metric m's figures: its distribution, its mean and the
// chance it is not 0, from the outcomes of t that happen and each one's
// value of m.
func (sum *RaidSummary) addMetric(m combat.RaidMetric, t *stats.Tally, happens, values []int, mean stats.Mean) {
	d := distribution(t, happens, values)
	sum.DistCIs[m.Name] = d
	sum.Distributions[m.Name] = points(d)
	sum.Means[m.Name] = mean
	if m.Event != "" {
		var any stats.Acc
		for _, i := range happens {
			if values[i] > 0 {
				any.Add(t, i)
			}
		}
		sum.Probabilities[m.Event] = any.Estimate(t)
	}
}

// tables notes, with a warning, when the raid's air tables are
// reconstructed.
func (sum *RaidSummary) tables(r *combat.Raid) *RaidSummary {
	tb := r.Tables
	sum.Reconstructed = tb.ChartSrc.Provenance == crt.Reconstructed || tb.AASrc.Provenance == crt.Reconstructed || tb.SBSrc.Provenance == crt.Reconstructed
	if sum.Reconstructed {
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("the AA chart, AA tables or SB table of %s are reconstructed (docs/rules.md §0, 5); load the printed ones with air_tables: FILE", tb.File))
	}
	return sum
}

// RaidReplay is a forced-dice raid and where it sits in the distribution.
type RaidReplay struct {
	Dice          []int              `json:"dice"`
	DiceUsed      int                `json:"dice_used"`
	RandomRolls   int                `json:"random_rolls"`
	UnusedDice    int                `json:"unused_dice"`
	Outcome       combat.RaidOutcome `json:"-"`
	Destroyed     []string           `json:"destroyed"`
	Damaged       []string           `json:"damaged"`
	Aborted       []string           `json:"aborted"`
	Factors       int                `json:"factors_bombing"`
	BP            int                `json:"bp_lost"`
	Star          bool               `json:"asterisk"`
	Factory       bool               `json:"factory_destroyed"`
	Oil           bool               `json:"oil_point_lost"`
	AAUnit        string             `json:"aa_unit_destroyed,omitempty"`
	Probability   float64            `json:"probability"`
	AtLeastAsGood float64            `json:"at_least_as_good"` // P(at least as many build points lost)
}

// ReplayRaid resolves one raid with the listed rolls, then rolls from then.
func ReplayRaid(r *combat.Raid, rolls []int, then sim.Dice) (*RaidReplay, error) {
	f := &sim.Forced{Rolls: rolls, Then: then}
	idx := combat.ResolveRaid(r, f)
	if f.Err != nil {
		return nil, &ReplayError{f.Bad, f.Err}
	}
	o := r.Outcomes[idx]
	rp := &RaidReplay{Dice: rolls, DiceUsed: f.Used, RandomRolls: f.Drawn, UnusedDice: len(rolls) - f.Used, Outcome: o,
		Factors: int(o.Factors), BP: int(o.BP), Star: o.Star, Factory: o.Factory, Oil: o.Oil, Destroyed: []string{}, Damaged: []string{}, Aborted: []string{}}
	bs := r.Scenario.Raid.Bombers
	for k, i := range r.AAOrder() {
		switch {
		case k < int(o.Hit) && bs[i].Carrier:
			rp.Damaged = append(rp.Damaged, bs[i].Name)
		case k < int(o.Hit):
			rp.Destroyed = append(rp.Destroyed, bs[i].Name)
		case k < int(o.Hit+o.Aborted):
			rp.Aborted = append(rp.Aborted, bs[i].Name)
		}
	}
	if o.AALost >= 0 {
		rp.AAUnit = combat.AAName(r.Scenario.Raid.AA[o.AALost], int(o.AALost))
	}
	return rp, nil
}

// Audit fills in the replayed raid's probability and the probability of at
// least as many build points lost.
func (rp *RaidReplay) Audit(r *combat.Raid, t *stats.Tally) {
	rp.Probability = t.Event(func(i int) bool { return r.Outcomes[i] == rp.Outcome }).P
	rp.AtLeastAsGood = t.Event(func(i int) bool { return int(r.Outcomes[i].BP) >= rp.BP }).P
}
