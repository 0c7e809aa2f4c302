package analysis

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// NotAllowed is the result of an airdrop that may not be made (AWAW 10.55C).
const NotAllowed = "not allowed"

// Summary is what a run reports (docs/rules.md §7): the probability of every CRT
// result and of the hex taken, breakthrough and attackers staying face-up,
// the loss distributions of each side, and how the run was made. It is the
// model every report format renders.
type Summary struct {
	Scenario string   `json:"scenario"`
	Kind     string   `json:"kind"`
	CRT      string   `json:"crt"`
	Table    string   `json:"table"` // the scenario's table setting: auto, assault or blitz
	Options  []string `json:"options"`
	sim.Run

	Notional      *float64                  `json:"notional_unit,omitempty"` // invasions and paradrops
	Odds          OddsTotals                `json:"odds"`
	OddsLevels    map[string]float64        `json:"odds_levels"`
	Tables        map[string]float64        `json:"tables"`
	Results       map[string]float64        `json:"results"`
	ResultCIs     map[string]stats.Estimate `json:"result_intervals"`
	Probabilities Probabilities             `json:"probabilities"`
	Distributions Distributions             `json:"distributions"`
	DistCIs       DistributionIntervals     `json:"distribution_intervals"`
	Means         Means                     `json:"means"`
	LossesByType  LossesByType              `json:"losses_by_type"`
	PreCombat     *PreCombat                `json:"pre_combat,omitempty"`
	Reconstructed ReconstructedUse          `json:"reconstructed"`
	Replay        *Replayed                 `json:"replay,omitempty"`
	Warnings      []string                  `json:"warnings"`
	Working       []string                  `json:"working,omitempty"` // the --explain steps

	// ResultOrder lists Results' keys from the attacker's worst to best,
	// for readable reports.
	ResultOrder []string `json:"-"`
}

// OddsTotals are the totals the odds were computed from.
type OddsTotals struct {
	Attack  float64 `json:"attack"`
	Defence float64 `json:"defence"`
}

// Probabilities are the headline events.
type Probabilities struct {
	HexTaken          stats.Estimate `json:"hex_taken"`
	Breakthrough      stats.Estimate `json:"breakthrough"`
	AttackerFaceUp    stats.Estimate `json:"attacker_face_up"`
	DefenderRetreated stats.Estimate `json:"defender_retreated"`
	DefenderShattered stats.Estimate `json:"defender_shattered"`
	// NotAllowed is the chance an airdrop may not be made (below 1:1 under
	// the A World at War rules); present only where that can happen.
	NotAllowed *stats.Estimate `json:"not_allowed,omitempty"`
}

// Distributions are loss distributions: P(units lost == i) by index, and
// P(factors lost == v) by the factor value.
type Distributions struct {
	AttackerUnitsLost   []float64          `json:"attacker_units_lost"`
	DefenderUnitsLost   []float64          `json:"defender_units_lost"`
	AttackerFactorsLost map[string]float64 `json:"attacker_factors_lost"`
	DefenderFactorsLost map[string]float64 `json:"defender_factors_lost"`
	// Kampfgruppe: corps replaced by divisions, counted apart from the
	// units destroyed; present with the kampfgruppe option.
	AttackerUnitsReduced []float64 `json:"attacker_units_reduced,omitempty"`
	DefenderUnitsReduced []float64 `json:"defender_units_reduced,omitempty"`
}

// DistributionIntervals are Distributions with 95% intervals.
type DistributionIntervals struct {
	AttackerUnitsLost   []stats.Estimate          `json:"attacker_units_lost"`
	DefenderUnitsLost   []stats.Estimate          `json:"defender_units_lost"`
	AttackerFactorsLost map[string]stats.Estimate `json:"attacker_factors_lost"`
	DefenderFactorsLost map[string]stats.Estimate `json:"defender_factors_lost"`
}

// Means are expected losses with their intervals.
type Means struct {
	AttackerUnitsLost   stats.Mean `json:"attacker_units_lost"`
	DefenderUnitsLost   stats.Mean `json:"defender_units_lost"`
	AttackerFactorsLost stats.Mean `json:"attacker_factors_lost"`
	DefenderFactorsLost stats.Mean `json:"defender_factors_lost"`
}

// PreCombat is what the pre-combat random steps did: defenders turned
// face-down by ground strikes, ground-support aircraft destroyed and
// aborted by AA fire, and the tactical factors that pressed the attack.
type PreCombat struct {
	DefendersStruck   []float64          `json:"defenders_struck"`
	AircraftDestroyed []float64          `json:"aircraft_destroyed"`
	AircraftAborted   []float64          `json:"aircraft_aborted"`
	SupportFactors    map[string]float64 `json:"support_factors"`
}

// LossesByType is each side's expected units lost by unit type, and the
// chance of losing at least one unit of the type.
type LossesByType struct {
	Attacker map[string]TypeLoss `json:"attacker"`
	Defender map[string]TypeLoss `json:"defender"`
}

// TypeLoss is the losses of one unit type.
type TypeLoss struct {
	Mean  stats.Mean     `json:"mean"`
	AnyOf stats.Estimate `json:"at_least_one"`
}

// lossesByType works out per-type losses from the units removed
// (destroyed or reduced): a side always loses its units in its loss order,
// so the first n of the order are the ones removed.
func lossesByType(t *stats.Tally, us []scenario.Unit, order []int, lost func(i int) int) map[string]TypeLoss {
	out := map[string]TypeLoss{}
	for _, typ := range unitTypesOf(us) {
		count := func(i int) int {
			n := 0
			for _, u := range order[:lost(i)] {
				if us[u].Type == typ {
					n++
				}
			}
			return n
		}
		out[string(typ)] = TypeLoss{
			Mean:  t.Mean(func(i int) float64 { return float64(count(i)) }),
			AnyOf: t.Event(func(i int) bool { return count(i) > 0 }),
		}
	}
	return out
}

func unitTypesOf(us []scenario.Unit) []scenario.UnitType {
	seen := map[scenario.UnitType]bool{}
	var out []scenario.UnitType
	for i := range us {
		if !seen[us[i].Type] {
			seen[us[i].Type] = true
			out = append(out, us[i].Type)
		}
	}
	return out
}

// ReconstructedUse says whether the answer leans on reconstructed table
// values (docs/rules.md §0).
type ReconstructedUse struct {
	Used        bool           `json:"used"`
	Probability stats.Estimate `json:"probability"` // of reading a reconstructed value
}

// Summarize aggregates a tally of c's outcomes.
func Summarize(c *combat.Combat, t *stats.Tally, run sim.Run) *Summary {
	s := c.Scenario
	sum := &Summary{
		Scenario: s.Name, Kind: string(s.Kind), CRT: s.CRT, Table: s.Table, Options: []string{},
		Run:        run,
		Odds:       OddsTotals{c.Attack, c.Defence},
		OddsLevels: map[string]float64{}, Tables: map[string]float64{},
		Results: map[string]float64{}, ResultCIs: map[string]stats.Estimate{},
		Warnings: []string{},
	}
	if s.Kind != scenario.Land {
		n := c.Notional
		sum.Notional = &n
	}
	for o := range s.Options {
		sum.Options = append(sum.Options, o)
	}
	sort.Strings(sum.Options)
	out := c.Outcomes
	is := func(f func(o *combat.Outcome) bool) func(int) bool { return func(i int) bool { return f(&out[i]) } }
	for lv, l := range c.CRT.Levels {
		e := t.Event(is(func(o *combat.Outcome) bool { return int(o.Level) == lv }))
		if e.P > 0 {
			sum.OddsLevels[l.String()] = e.P
		}
	}
	for _, k := range crt.Kinds {
		sum.Tables[k.String()] = t.Event(is(func(o *combat.Outcome) bool { return o.Table == k })).P
	}
	type ranked struct {
		code string
		o    *combat.Outcome
	}
	var codes []ranked
	codeOf := make([]string, len(out))
	for i := range out {
		codeOf[i] = out[i].Result.String()
		if out[i].NotAllowed {
			codeOf[i] = NotAllowed
		}
	}
	for i := range out {
		code := codeOf[i]
		if _, ok := sum.ResultCIs[code]; ok || !c.Reachable[i] {
			continue
		}
		e := t.Event(func(j int) bool { return codeOf[j] == code })
		sum.ResultCIs[code] = e
		sum.Results[code] = e.P
		codes = append(codes, ranked{code, &out[i]})
	}
	sort.SliceStable(codes, func(a, b int) bool {
		if c := codes[a].o.CompareForAttacker(codes[b].o); c != 0 {
			return c < 0
		}
		return codes[a].code < codes[b].code
	})
	for _, r := range codes {
		sum.ResultOrder = append(sum.ResultOrder, r.code)
	}
	p := &sum.Probabilities
	p.HexTaken = t.Event(is(func(o *combat.Outcome) bool { return o.HexTaken }))
	p.Breakthrough = t.Event(is(func(o *combat.Outcome) bool { return o.Breakthrough }))
	p.AttackerFaceUp = t.Event(is(func(o *combat.Outcome) bool { return o.AttackerFaceUp }))
	p.DefenderRetreated = t.Event(is(func(o *combat.Outcome) bool { return o.DefenderRetreated > 0 }))
	p.DefenderShattered = t.Event(is(func(o *combat.Outcome) bool { return o.DefenderShattered > 0 }))
	if c.AirdropLimited() {
		e := t.Event(is(func(o *combat.Outcome) bool { return o.NotAllowed }))
		p.NotAllowed = &e
	}

	di := &sum.DistCIs
	di.AttackerUnitsLost = t.Distribution(nil, func(i int) int { return int(out[i].AttackerLost) })
	di.DefenderUnitsLost = t.Distribution(nil, func(i int) int { return int(out[i].DefenderLost) })
	di.AttackerFactorsLost = factorDist(t, func(i int) float64 { return out[i].AttackerFactorsLost })
	di.DefenderFactorsLost = factorDist(t, func(i int) float64 { return out[i].DefenderFactorsLost })
	d := &sum.Distributions
	d.AttackerUnitsLost, d.DefenderUnitsLost = points(di.AttackerUnitsLost), points(di.DefenderUnitsLost)
	d.AttackerFactorsLost, d.DefenderFactorsLost = pointMap(di.AttackerFactorsLost), pointMap(di.DefenderFactorsLost)

	if s.Has(scenario.Kampfgruppe) {
		d.AttackerUnitsReduced = points(t.Distribution(nil, func(i int) int { return int(out[i].AttackerReduced) }))
		d.DefenderUnitsReduced = points(t.Distribution(nil, func(i int) int { return int(out[i].DefenderReduced) }))
	}
	m := &sum.Means
	m.AttackerUnitsLost = t.Mean(func(i int) float64 { return float64(out[i].AttackerLost) })
	m.DefenderUnitsLost = t.Mean(func(i int) float64 { return float64(out[i].DefenderLost) })
	m.AttackerFactorsLost = t.Mean(func(i int) float64 { return out[i].AttackerFactorsLost })
	m.DefenderFactorsLost = t.Mean(func(i int) float64 { return out[i].DefenderFactorsLost })

	sum.LossesByType = LossesByType{
		Attacker: lossesByType(t, s.Attacker.Units, c.AttOrder, func(i int) int { return int(out[i].AttackerLost + out[i].AttackerReduced) }),
		Defender: lossesByType(t, s.Defender.Units, c.DefOrder, func(i int) int { return int(out[i].DefenderLost + out[i].DefenderReduced) }),
	}
	if c.HasPreCombat() {
		sum.PreCombat = &PreCombat{
			DefendersStruck:   points(t.Distribution(nil, func(i int) int { return int(out[i].Struck) })),
			AircraftDestroyed: points(t.Distribution(nil, func(i int) int { return int(out[i].AirHit) })),
			AircraftAborted:   points(t.Distribution(nil, func(i int) int { return int(out[i].AirAborted) })),
			SupportFactors:    pointMap(factorDist(t, func(i int) float64 { return out[i].Support })),
		}
	}
	sum.Reconstructed.Probability = t.Event(is(func(o *combat.Outcome) bool { return o.Reconstructed }))
	sum.Reconstructed.Used = sum.Reconstructed.Probability.P > 0
	if sum.Reconstructed.Used {
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("reconstructed table values (docs/rules.md §0) decide %.1f%% of outcomes; load the printed table with crt: FILE for official values",
			100*sum.Reconstructed.Probability.P))
	}
	return sum
}

// factorDist is the distribution of a factor total, keyed by its value.
func factorDist(t *stats.Tally, value func(i int) float64) map[string]stats.Estimate {
	vals := map[float64]bool{}
	for i := 0; i < t.Len(); i++ {
		if t.Prob(i) > 0 {
			vals[value(i)] = true
		}
	}
	out := make(map[string]stats.Estimate, len(vals))
	for v := range vals {
		out[strconv.FormatFloat(v, 'f', -1, 64)] = t.Event(func(i int) bool { return value(i) == v })
	}
	return out
}

func points(es []stats.Estimate) []float64 {
	out := make([]float64, len(es))
	for i, e := range es {
		out[i] = e.P
	}
	return out
}

func pointMap(es map[string]stats.Estimate) map[string]float64 {
	out := make(map[string]float64, len(es))
	for k, e := range es {
		out[k] = e.P
	}
	return out
}
