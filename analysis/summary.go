package analysis

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

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

	Notional      *float64              `json:"notional_unit,omitempty"` // invasions and paradrops
	Odds          OddsTotals            `json:"odds"`
	OddsLevels    Keyed[float64]        `json:"odds_levels"`
	Tables        Keyed[float64]        `json:"tables"`
	Results       Keyed[float64]        `json:"results"`
	ResultCIs     Keyed[stats.Estimate] `json:"result_intervals"`
	Probabilities Probabilities         `json:"probabilities"`
	Distributions Distributions         `json:"distributions"`
	DistCIs       DistributionIntervals `json:"distribution_intervals"`
	Means         Means                 `json:"means"`
	LossesByType  LossesByType          `json:"losses_by_type"`
	PreCombat     *PreCombat            `json:"pre_combat,omitempty"`
	Reconstructed ReconstructedUse      `json:"reconstructed"`
	Replay        *Replayed             `json:"replay,omitempty"`
	Warnings      []string              `json:"warnings"`
	Working       []string              `json:"working,omitempty"` // the --explain steps

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
	AttackerUnitsLost   []float64      `json:"attacker_units_lost"`
	DefenderUnitsLost   []float64      `json:"defender_units_lost"`
	AttackerFactorsLost Keyed[float64] `json:"attacker_factors_lost"`
	DefenderFactorsLost Keyed[float64] `json:"defender_factors_lost"`
	// Kampfgruppe: corps replaced by divisions, counted apart from the
	// units destroyed; present with the kampfgruppe option.
	AttackerUnitsReduced []float64 `json:"attacker_units_reduced,omitempty"`
	DefenderUnitsReduced []float64 `json:"defender_units_reduced,omitempty"`
}

// DistributionIntervals are Distributions with 95% intervals.
type DistributionIntervals struct {
	AttackerUnitsLost   []stats.Estimate      `json:"attacker_units_lost"`
	DefenderUnitsLost   []stats.Estimate      `json:"defender_units_lost"`
	AttackerFactorsLost Keyed[stats.Estimate] `json:"attacker_factors_lost"`
	DefenderFactorsLost Keyed[stats.Estimate] `json:"defender_factors_lost"`
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
	DefendersStruck   []float64      `json:"defenders_struck"`
	AircraftDestroyed []float64      `json:"aircraft_destroyed"`
	AircraftAborted   []float64      `json:"aircraft_aborted"`
	SupportFactors    Keyed[float64] `json:"support_factors"`
}

// LossesByType is each side's expected units lost by unit type, and the
// chance of losing at least one unit of the type.
type LossesByType struct {
	Attacker Keyed[TypeLoss] `json:"attacker"`
	Defender Keyed[TypeLoss] `json:"defender"`
}

// TypeLoss is the losses of one unit type.
type TypeLoss struct {
	Mean  stats.Mean     `json:"mean"`
	AnyOf stats.Estimate `json:"at_least_one"`
}

// ReconstructedUse says whether the answer leans on reconstructed table
// values (docs/rules.md §0).
type ReconstructedUse struct {
	Used        bool           `json:"used"`
	Probability stats.Estimate `json:"probability"` // of reading a reconstructed value
}

// Summarize aggregates a tally of c's outcomes. It reads every event in
// one pass over the outcomes with an accumulator each (stats.Acc), adding
// outcomes in index order as Tally.Event does, so the figures are Event's
// to the bit; outcomes that never happen add nothing and are skipped.
//
// The planner and the web app summarise thousands of exact answers a
// request, so Summarize builds only what it returns: its working arrays
// live on the stack for combats of up to scratchOutcomes outcomes, and the
// names of results, odds levels and factor totals are kept written
// (crt.Result.String, factorKey).
func Summarize(c *combat.Combat, t *stats.Tally, run sim.Run) *Summary {
	s := c.Scenario
	out := c.Outcomes
	n := len(out)
	sum := &Summary{
		Scenario: s.Name, Kind: string(s.Kind), CRT: s.CRT, Table: s.Table, Options: make([]string, 0, len(s.Options)),
		Run:      run,
		Odds:     OddsTotals{c.Attack, c.Defence},
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

	// Working arrays, by outcome.
	var intBuf [3 * scratchOutcomes]int
	var floatBuf [2 * scratchOutcomes]float64
	ints, floats := intBuf[:], floatBuf[:]
	if n > scratchOutcomes {
		ints, floats = make([]int, 3*n), make([]float64, 2*n)
	}
	happens := ints[:0:n] // the outcomes with weight: the only ones any sum adds
	codeAt := ints[n : 2*n]
	values := ints[2*n : 3*n]
	ws := t.MeanWeights(floats[:0:n])
	vals := floats[n : 2*n]
	for i := 0; i < n; i++ {
		if t.Prob(i) > 0 {
			happens = append(happens, i)
		}
	}

	// Odds levels, tables, the headline events and the reconstructed share.
	var levelBuf [32]stats.Acc
	levels := levelBuf[:]
	if len(c.CRT.Levels) > len(levelBuf) {
		levels = make([]stats.Acc, len(c.CRT.Levels))
	}
	var tables [2]stats.Acc
	var hex, bt, up, ret, shat, notAllowed, recon stats.Acc
	for _, i := range happens {
		o := &out[i]
		if lv := int(o.Level); lv >= 0 && lv < len(c.CRT.Levels) {
			levels[lv].Add(t, i)
		}
		tables[o.Table].Add(t, i)
		if o.HexTaken {
			hex.Add(t, i)
		}
		if o.Breakthrough {
			bt.Add(t, i)
		}
		if o.AttackerFaceUp {
			up.Add(t, i)
		}
		if o.DefenderRetreated > 0 {
			ret.Add(t, i)
		}
		if o.DefenderShattered > 0 {
			shat.Add(t, i)
		}
		if o.NotAllowed {
			notAllowed.Add(t, i)
		}
		if o.Reconstructed {
			recon.Add(t, i)
		}
	}
	read := 0
	for lv := range c.CRT.Levels {
		if levels[lv].Estimate(t).P > 0 {
			read++
		}
	}
	odds := make([]KV[float64], 0, read)
	for lv, l := range c.CRT.Levels {
		if e := levels[lv].Estimate(t); e.P > 0 {
			odds = append(odds, KV[float64]{l.String(), e.P})
		}
	}
	sum.OddsLevels = keyedOf(odds)
	kinds := make([]KV[float64], len(crt.Kinds))
	for i, k := range crt.Kinds {
		kinds[i] = KV[float64]{k.String(), tables[k].Estimate(t).P}
	}
	sum.Tables = keyedOf(kinds)
	p := &sum.Probabilities
	p.HexTaken, p.Breakthrough, p.AttackerFaceUp = hex.Estimate(t), bt.Estimate(t), up.Estimate(t)
	p.DefenderRetreated, p.DefenderShattered = ret.Estimate(t), shat.Estimate(t)
	if c.AirdropLimited() {
		e := notAllowed.Estimate(t)
		p.NotAllowed = &e
	}

	// Each CRT result's code, in the order the reachable outcomes first
	// give it, ranked from the attacker's worst to best.
	var codeBuf [24]rankedCode
	codes := codeBuf[:0]
	for i := range out {
		code := out[i].Result.String()
		if out[i].NotAllowed {
			code = NotAllowed
		}
		codeAt[i] = -1
		for k := range codes {
			if codes[k].code == code {
				codeAt[i] = k
				break
			}
		}
		if codeAt[i] < 0 && c.Reachable[i] {
			codeAt[i] = len(codes)
			codes = append(codes, rankedCode{code: code, o: &out[i]})
		}
	}
	for _, i := range happens {
		if k := codeAt[i]; k >= 0 {
			codes[k].acc.Add(t, i)
		}
	}
	// In code order for the keyed figures (sorted once for both), then
	// ranked; the ranking breaks ties by code, so it is the same from any
	// starting order.
	slices.SortFunc(codes, func(a, b rankedCode) int { return strings.Compare(a.code, b.code) })
	results, resultCIs := make(Keyed[float64], len(codes)), make(Keyed[stats.Estimate], len(codes))
	for k := range codes {
		e := codes[k].acc.Estimate(t)
		resultCIs[k] = KV[stats.Estimate]{codes[k].code, e}
		results[k] = KV[float64]{codes[k].code, e.P}
	}
	sum.Results, sum.ResultCIs = results, resultCIs
	slices.SortStableFunc(codes, func(a, b rankedCode) int {
		if c := a.o.CompareForAttacker(b.o); c != 0 {
			return c
		}
		return strings.Compare(a.code, b.code)
	})
	sum.ResultOrder = make([]string, len(codes))
	for k, r := range codes {
		sum.ResultOrder[k] = r.code
	}

	// Loss distributions and means.
	intDist := func(value func(o *combat.Outcome) int) []stats.Estimate {
		for i := range out {
			values[i] = value(&out[i])
		}
		return distribution(t, happens, values)
	}
	floatDist := func(value func(o *combat.Outcome) float64) Keyed[stats.Estimate] {
		for i := range out {
			vals[i] = value(&out[i])
		}
		return valueDistribution(t, happens, vals)
	}
	di := &sum.DistCIs
	di.AttackerUnitsLost = intDist(func(o *combat.Outcome) int { return int(o.AttackerLost) })
	di.DefenderUnitsLost = intDist(func(o *combat.Outcome) int { return int(o.DefenderLost) })
	di.AttackerFactorsLost = floatDist(func(o *combat.Outcome) float64 { return o.AttackerFactorsLost })
	di.DefenderFactorsLost = floatDist(func(o *combat.Outcome) float64 { return o.DefenderFactorsLost })
	d := &sum.Distributions
	d.AttackerUnitsLost, d.DefenderUnitsLost = points(di.AttackerUnitsLost), points(di.DefenderUnitsLost)
	d.AttackerFactorsLost, d.DefenderFactorsLost = pointMap(di.AttackerFactorsLost), pointMap(di.DefenderFactorsLost)
	if s.Has(scenario.Kampfgruppe) {
		d.AttackerUnitsReduced = points(intDist(func(o *combat.Outcome) int { return int(o.AttackerReduced) }))
		d.DefenderUnitsReduced = points(intDist(func(o *combat.Outcome) int { return int(o.DefenderReduced) }))
	}
	mean := func(value func(o *combat.Outcome) float64) stats.Mean {
		for i := range out {
			vals[i] = value(&out[i])
		}
		return stats.MeanOf(vals, ws, t.N)
	}
	m := &sum.Means
	m.AttackerUnitsLost = mean(func(o *combat.Outcome) float64 { return float64(o.AttackerLost) })
	m.DefenderUnitsLost = mean(func(o *combat.Outcome) float64 { return float64(o.DefenderLost) })
	m.AttackerFactorsLost = mean(func(o *combat.Outcome) float64 { return o.AttackerFactorsLost })
	m.DefenderFactorsLost = mean(func(o *combat.Outcome) float64 { return o.DefenderFactorsLost })

	for i := range out {
		values[i] = int(out[i].AttackerLost + out[i].AttackerReduced)
	}
	sum.LossesByType.Attacker = lossesByType(t, happens, ws, vals, s.Attacker.Units, c.AttOrder, values)
	for i := range out {
		values[i] = int(out[i].DefenderLost + out[i].DefenderReduced)
	}
	sum.LossesByType.Defender = lossesByType(t, happens, ws, vals, s.Defender.Units, c.DefOrder, values)
	if c.HasPreCombat() {
		sum.PreCombat = &PreCombat{
			DefendersStruck:   points(intDist(func(o *combat.Outcome) int { return int(o.Struck) })),
			AircraftDestroyed: points(intDist(func(o *combat.Outcome) int { return int(o.AirHit) })),
			AircraftAborted:   points(intDist(func(o *combat.Outcome) int { return int(o.AirAborted) })),
			SupportFactors:    pointMap(floatDist(func(o *combat.Outcome) float64 { return o.Support })),
		}
	}
	sum.Reconstructed.Probability = recon.Estimate(t)
	sum.Reconstructed.Used = sum.Reconstructed.Probability.P > 0
	if sum.Reconstructed.Used {
		sum.Warnings = append(sum.Warnings, "reconstructed table values (docs/rules.md §0) decide "+
			strconv.FormatFloat(100*sum.Reconstructed.Probability.P, 'f', 1, 64)+
			"% of outcomes; load the printed table with crt: FILE for official values")
	}
	return sum
}

// scratchOutcomes is the most outcomes Summarize works on in arrays on
// its stack: a plain combat's few dozen, with room.
const scratchOutcomes = 64

// rankedCode is a CRT result's code, an outcome that gives it (to rank it
// for the attacker) and its probability.
type rankedCode struct {
	code string
	o    *combat.Outcome
	acc  stats.Acc
}

// distribution is P(value == v) for v = 0 up to the largest value an
// outcome that happens takes, as Tally.Distribution gives it.
func distribution(t *stats.Tally, happens []int, value []int) []stats.Estimate {
	top := -1
	for _, i := range happens {
		top = max(top, value[i])
	}
	var buf [32]stats.Acc
	accs := buf[:]
	if top+1 > len(buf) {
		accs = make([]stats.Acc, top+1)
	}
	for _, i := range happens {
		if v := value[i]; v >= 0 {
			accs[v].Add(t, i)
		}
	}
	out := make([]stats.Estimate, top+1)
	for v := range out {
		out[v] = accs[v].Estimate(t)
	}
	return out
}

// valueDistribution is the distribution of a factor total, keyed by its
// value.
func valueDistribution(t *stats.Tally, happens []int, value []float64) Keyed[stats.Estimate] {
	type valueAcc struct {
		v   float64
		acc stats.Acc
	}
	var buf [16]valueAcc
	accs := buf[:0]
	for _, i := range happens {
		k := 0
		for k < len(accs) && accs[k].v != value[i] {
			k++
		}
		if k == len(accs) {
			accs = append(accs, valueAcc{v: value[i]})
		}
		accs[k].acc.Add(t, i)
	}
	out := make([]KV[stats.Estimate], len(accs))
	for k := range accs {
		out[k] = KV[stats.Estimate]{factorKey(accs[k].v), accs[k].acc.Estimate(t)}
	}
	return keyedOf(out)
}

// factorKey names a factor total as the summary keys it: the shortest
// decimal that reads back as the value.
func factorKey(v float64) string {
	// Factor totals are whole or half factors, mostly under 128: those
	// names are written once.
	if h := v * 2; h >= 0 && h < float64(len(halfNames())) && h == float64(int(h)) && !(v == 0 && math.Signbit(v)) {
		return halfNames()[int(h)]
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// halfNames are factorKey's names of 0, 0.5, 1, ... 127.5.
var halfNames = sync.OnceValue(func() *[256]string {
	var names [256]string
	for h := range names {
		names[h] = strconv.FormatFloat(float64(h)/2, 'f', -1, 64)
	}
	return &names
})

// lossesByType works out per-type losses from the units removed
// (destroyed or reduced), lost by outcome: a side always loses its units
// in its loss order, so the first n of the order are the ones removed.
// vals is working space, one per outcome.
func lossesByType(t *stats.Tally, happens []int, ws, vals []float64, us []scenario.Unit, order []int, lost []int) Keyed[TypeLoss] {
	var typeBuf [8]scenario.UnitType
	types := typeBuf[:0]
	for i := range us {
		if !slices.Contains(types, us[i].Type) {
			types = append(types, us[i].Type)
		}
	}
	res := make([]KV[TypeLoss], 0, len(types))
	var prefixBuf [64]int
	prefix := prefixBuf[:]
	if len(order)+1 > len(prefixBuf) {
		prefix = make([]int, len(order)+1)
	}
	for _, typ := range types {
		// prefix[m] is how many of the first m units lost are of the type.
		prefix[0] = 0
		for m, u := range order {
			prefix[m+1] = prefix[m]
			if us[u].Type == typ {
				prefix[m+1]++
			}
		}
		var any stats.Acc
		for i := range vals {
			vals[i] = float64(prefix[min(lost[i], len(order))])
		}
		for _, i := range happens {
			if vals[i] > 0 {
				any.Add(t, i)
			}
		}
		res = append(res, KV[TypeLoss]{string(typ), TypeLoss{Mean: stats.MeanOf(vals, ws, t.N), AnyOf: any.Estimate(t)}})
	}
	return keyedOf(res)
}

func points(es []stats.Estimate) []float64 {
	out := make([]float64, len(es))
	for i, e := range es {
		out[i] = e.P
	}
	return out
}

func pointMap(es Keyed[stats.Estimate]) Keyed[float64] {
	out := make(Keyed[float64], len(es))
	for i, e := range es {
		out[i] = KV[float64]{e.Key, e.Value.P}
	}
	return out
}
