package analysis

import (
	"math"
	"slices"
	"sort"
	"strconv"
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

	Notional   *float64       `json:"notional_unit,omitempty"` // invasions and paradrops
	Odds       OddsTotals     `json:"odds"`
	OddsLevels Keyed[float64] `json:"odds_levels"`
	Tables     Keyed[float64] `json:"tables"`
	// TableChoices say, at each final odds level, which table was read,
	// who chose it and why (docs/rules.md §2.3), so a table left on auto
	// can be checked.
	TableChoices  []combat.TableChoice  `json:"table_choices"`
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
// request, so Summarize builds only what it returns, in named phases: the
// pass over the outcomes (tallyOutcomes), then each group of figures
// written into a few slices sized once the pass has counted them (one a
// kind of element, cut into the summary's lists), where it used to
// allocate each list apart. Its working arrays live on the stack for
// combats of up to scratchOutcomes outcomes, and the names of results,
// odds levels and factor totals are kept written (crt.Result.String,
// factorKey).
func Summarize(c *combat.Combat, t *stats.Tally, run sim.Run) *Summary {
	sum := summaryHeader(c, run)
	n := len(c.Outcomes)
	// The working arrays are Summarize's own locals, so they stay on its
	// stack: a summarizer pointing into its own arrays would not.
	var (
		intBuf   [3 * scratchOutcomes]int
		floatBuf [2 * scratchOutcomes]float64
		levelBuf [32]stats.Acc
		codeBuf  [24]rankedCode
		unitBuf  [2][32]stats.Acc
		facBuf   [2][16]valueAcc
	)
	z := summarizer{levels: levelBuf[:], codes: codeBuf[:0], units: [2][]stats.Acc{unitBuf[0][:], unitBuf[1][:]},
		facs: [2][]valueAcc{facBuf[0][:0], facBuf[1][:0]}}
	ints, floats := intBuf[:], floatBuf[:]
	if n > scratchOutcomes {
		ints, floats = make([]int, 3*n), make([]float64, 2*n)
	}
	z.codeAt, z.values = ints[n:2*n], ints[2*n:3*n]
	// ws and vals go to stats.MeanOf, whose values leak (so floatBuf is
	// on the heap): they are passed apart, not kept in z.
	ws, vals := t.MeanWeights(floats[:0:n]), floats[n:2*n]
	if len(c.CRT.Levels) > len(z.levels) {
		z.levels = make([]stats.Acc, len(c.CRT.Levels))
	}
	// The methods write into the working arrays but never store a slice
	// of them in z (which would move them to the heap): what grows is
	// returned and kept here.
	z.happens = happening(t, ints[:0:n])
	z.codes = z.resultCodes(c, z.codes)
	z.units = z.unitAccs(c, z.units)
	z.facs = z.tallyOutcomes(c, t, z.facs)
	var a arenas
	a.allocate(c, &z, sum)
	z.oddsAndEvents(c, t, &a, sum)
	z.results(c, t, &a, sum)
	z.losses(c, t, ws, vals, &a, sum)
	if c.HasPreCombat() {
		sum.PreCombat = z.preCombat(c, t, vals)
	}
	sum.Reconstructed.Probability = z.recon.Estimate(t)
	sum.Reconstructed.Used = sum.Reconstructed.Probability.P > 0
	if sum.Reconstructed.Used {
		sum.Warnings = append(sum.Warnings, "reconstructed table values (docs/rules.md §0) decide "+
			strconv.FormatFloat(100*sum.Reconstructed.Probability.P, 'f', 1, 64)+
			"% of outcomes; load the printed table with crt: FILE for official values")
	}
	return sum
}

// summaryHeader is what a summary says about the combat and the run,
// before any figure.
func summaryHeader(c *combat.Combat, run sim.Run) *Summary {
	s := c.Scenario
	sum := &Summary{
		Scenario: s.Name, Kind: string(s.Kind), CRT: s.CRT, Table: s.Table, Options: make([]string, 0, len(s.Options)),
		Run:          run,
		Odds:         OddsTotals{c.Attack, c.Defence},
		TableChoices: c.TableChoices(),
		Warnings:     []string{},
	}
	if s.Kind != scenario.Land {
		n := c.Notional
		sum.Notional = &n
	}
	for o := range s.Options {
		sum.Options = append(sum.Options, o)
	}
	sort.Strings(sum.Options)
	return sum
}

// summarizer is Summarize's working state: the accumulators of its one
// pass over the outcomes and the working arrays they use. It holds no
// pointer but into Summarize's working arrays: the combat and
// the tally are passed to each phase apart, since escape analysis does not
// tell one field's pointees from another's, and the combat's and tally's
// flow to the heap.
type summarizer struct {
	// By outcome: happens lists the outcomes with weight (the only ones
	// any sum adds), codeAt each one's result code (an index into codes),
	// values and vals are scratch.
	happens, codeAt, values []int

	levels                                []stats.Acc // by odds level
	tables                                [2]stats.Acc
	hex, bt, up, ret, shat, notAll, recon stats.Acc
	read                                  int // odds levels with weight

	codes []rankedCode

	// Units lost by value, and factor totals lost in the order first seen,
	// by side (attacker, defender); top is the most units lost.
	units [2][]stats.Acc
	top   [2]int
	facs  [2][]valueAcc
}

// arenas are the slices a summary's lists are cut from, one a kind of
// element, sized once the pass over the outcomes has counted them.
type arenas struct {
	kf   []KV[float64]
	ke   []KV[stats.Estimate]
	pts  []float64
	es   []stats.Estimate
	kt   []KV[TypeLoss]
	nTyp [2]int
}

// valueAcc is a factor total and its accumulator.
type valueAcc struct {
	v   float64
	acc stats.Acc
}

// happening lists the outcomes with weight, appended to dst: the only
// ones any sum adds.
func happening(t *stats.Tally, dst []int) []int {
	for i := range t.Len() {
		if t.Prob(i) > 0 {
			dst = append(dst, i)
		}
	}
	return dst
}

// resultCodes appends each CRT result's code to codes, in the order the
// reachable outcomes first give it, and notes each outcome's in codeAt.
func (z *summarizer) resultCodes(c *combat.Combat, codes []rankedCode) []rankedCode {
	out := c.Outcomes
	for i := range out {
		code := out[i].Result.String()
		if out[i].NotAllowed {
			code = NotAllowed
		}
		z.codeAt[i] = -1
		for k := range codes {
			if codes[k].code == code {
				z.codeAt[i] = k
				break
			}
		}
		if z.codeAt[i] < 0 && c.Reachable[i] {
			z.codeAt[i] = len(codes)
			codes = append(codes, rankedCode{code: code, o: &out[i]})
		}
	}
	return codes
}

// unitAccs gives each side an accumulator for every number of units an
// outcome that happens loses, in units when they are long enough.
func (z *summarizer) unitAccs(c *combat.Combat, units [2][]stats.Acc) [2][]stats.Acc {
	for side := range 2 {
		top := 0
		for _, i := range z.happens {
			top = max(top, int(unitsLost(&c.Outcomes[i], side)))
		}
		if top >= len(units[side]) {
			units[side] = make([]stats.Acc, top+1)
		}
	}
	return units
}

// tallyOutcomes is the one pass over the outcomes that happen: odds
// levels, tables, the headline events, the reconstructed share, result
// codes and each side's units and factors lost (factor totals appended to
// facs as first seen).
func (z *summarizer) tallyOutcomes(c *combat.Combat, t *stats.Tally, facs [2][]valueAcc) [2][]valueAcc {
	out := c.Outcomes
	z.top = [2]int{-1, -1}
	for _, i := range z.happens {
		o := &out[i]
		if lv := int(o.Level); lv >= 0 && lv < len(c.CRT.Levels) {
			z.levels[lv].Add(t, i)
		}
		z.tables[o.Table].Add(t, i)
		if o.HexTaken {
			z.hex.Add(t, i)
		}
		if o.Breakthrough {
			z.bt.Add(t, i)
		}
		if o.AttackerFaceUp {
			z.up.Add(t, i)
		}
		if o.DefenderRetreated > 0 {
			z.ret.Add(t, i)
		}
		if o.DefenderShattered > 0 {
			z.shat.Add(t, i)
		}
		if o.NotAllowed {
			z.notAll.Add(t, i)
		}
		if o.Reconstructed {
			z.recon.Add(t, i)
		}
		if k := z.codeAt[i]; k >= 0 {
			z.codes[k].acc.Add(t, i)
		}
		for side := range 2 {
			v := int(unitsLost(o, side))
			z.top[side] = max(z.top[side], v)
			if v >= 0 {
				z.units[side][v].Add(t, i)
			}
			f := factorsLost(o, side)
			k := 0
			for k < len(facs[side]) && facs[side][k].v != f {
				k++
			}
			if k == len(facs[side]) {
				facs[side] = append(facs[side], valueAcc{v: f})
			}
			facs[side][k].acc.Add(t, i)
		}
	}
	for lv := range c.CRT.Levels {
		if z.levels[lv].Estimate(t).P > 0 {
			z.read++
		}
	}
	return facs
}

func unitsLost(o *combat.Outcome, side int) int8 {
	if side == 0 {
		return o.AttackerLost
	}
	return o.DefenderLost
}

func factorsLost(o *combat.Outcome, side int) float64 {
	if side == 0 {
		return o.AttackerFactorsLost
	}
	return o.DefenderFactorsLost
}

// allocate makes the slices the summary's lists are cut from, one a kind
// of element, now that the pass has counted them.
func (a *arenas) allocate(c *combat.Combat, z *summarizer, sum *Summary) {
	nf := len(z.facs[0]) + len(z.facs[1])
	a.kf = make([]KV[float64], 0, z.read+len(crt.Kinds)+len(z.codes)+nf)
	a.ke = make([]KV[stats.Estimate], 0, len(z.codes)+nf)
	nu := z.top[0] + 1 + z.top[1] + 1
	a.pts, a.es = make([]float64, 0, nu), make([]stats.Estimate, 0, nu)
	s := c.Scenario
	a.nTyp = [2]int{countTypes(s.Attacker.Units), countTypes(s.Defender.Units)}
	a.kt = make([]KV[TypeLoss], 0, a.nTyp[0]+a.nTyp[1])
	sum.ResultOrder = make([]string, len(z.codes))
}

// cut takes the next n elements of an arena slice made with room for
// them; the result's capacity is n, so an append to it cannot write over
// the next list.
func cut[E any](arena *[]E, n int) []E {
	at := len(*arena)
	*arena = (*arena)[:at+n]
	return (*arena)[at : at+n : at+n]
}

// oddsAndEvents writes the odds levels read, the tables and the headline
// events.
func (z *summarizer) oddsAndEvents(c *combat.Combat, t *stats.Tally, a *arenas, sum *Summary) {
	odds := cut(&a.kf, z.read)
	k := 0
	for lv, l := range c.CRT.Levels {
		if e := z.levels[lv].Estimate(t); e.P > 0 {
			odds[k] = KV[float64]{l.String(), e.P}
			k++
		}
	}
	sum.OddsLevels = keyedOf(odds)
	kinds := cut(&a.kf, len(crt.Kinds))
	for i, kd := range crt.Kinds {
		kinds[i] = KV[float64]{kd.String(), z.tables[kd].Estimate(t).P}
	}
	sum.Tables = keyedOf(kinds)
	p := &sum.Probabilities
	p.HexTaken, p.Breakthrough, p.AttackerFaceUp = z.hex.Estimate(t), z.bt.Estimate(t), z.up.Estimate(t)
	p.DefenderRetreated, p.DefenderShattered = z.ret.Estimate(t), z.shat.Estimate(t)
	if c.AirdropLimited() {
		e := z.notAll.Estimate(t)
		p.NotAllowed = &e
	}
}

// results writes each CRT result's probability by code, and the codes
// ranked from the attacker's worst to best.
func (z *summarizer) results(c *combat.Combat, t *stats.Tally, a *arenas, sum *Summary) {
	codes := z.codes
	// In code order for the keyed figures, then ranked; the ranking breaks
	// ties by code, so it is the same from any starting order. The codes
	// are distinct and few: an insertion sort of their indices moves an
	// int where sorting the codes moved forty bytes.
	var orderBuf [24]int
	order := orderBuf[:0]
	if len(codes) > len(orderBuf) {
		order = make([]int, 0, len(codes))
	}
	for k := range codes {
		order = append(order, k)
	}
	insertionSort(order, func(a, b int) bool { return codes[a].code < codes[b].code })
	results, resultCIs := cut(&a.kf, len(codes)), cut(&a.ke, len(codes))
	for k, i := range order {
		e := codes[i].acc.Estimate(t)
		resultCIs[k] = KV[stats.Estimate]{codes[i].code, e}
		results[k] = KV[float64]{codes[i].code, e.P}
	}
	sum.Results, sum.ResultCIs = results, resultCIs
	insertionSort(order, func(a, b int) bool {
		if c := codes[a].o.CompareForAttacker(codes[b].o); c != 0 {
			return c < 0
		}
		return codes[a].code < codes[b].code
	})
	for k, i := range order {
		sum.ResultOrder[k] = codes[i].code
	}
}

// insertionSort sorts a few indices by less, stably.
func insertionSort(xs []int, less func(a, b int) bool) {
	for i := 1; i < len(xs); i++ {
		for k := i; k > 0 && less(xs[k], xs[k-1]); k-- {
			xs[k], xs[k-1] = xs[k-1], xs[k]
		}
	}
}

// losses writes the loss distributions, their means and the losses by
// unit type.
func (z *summarizer) losses(c *combat.Combat, t *stats.Tally, ws, vals []float64, a *arenas, sum *Summary) {
	out, s := c.Outcomes, c.Scenario
	di, d := &sum.DistCIs, &sum.Distributions
	for side := range 2 {
		es, pts := cut(&a.es, z.top[side]+1), cut(&a.pts, z.top[side]+1)
		for v := range es {
			es[v] = z.units[side][v].Estimate(t)
			pts[v] = es[v].P
		}
		facs := z.facs[side]
		fes, fpts := cut(&a.ke, len(facs)), cut(&a.kf, len(facs))
		for k := range facs {
			fes[k] = KV[stats.Estimate]{factorKey(facs[k].v), facs[k].acc.Estimate(t)}
		}
		fes = keyedOf(fes)
		for k := range fes {
			fpts[k] = KV[float64]{fes[k].Key, fes[k].Value.P}
		}
		if side == 0 {
			di.AttackerUnitsLost, d.AttackerUnitsLost, di.AttackerFactorsLost, d.AttackerFactorsLost = es, pts, fes, fpts
		} else {
			di.DefenderUnitsLost, d.DefenderUnitsLost, di.DefenderFactorsLost, d.DefenderFactorsLost = es, pts, fes, fpts
		}
	}
	if s.Has(scenario.Kampfgruppe) {
		d.AttackerUnitsReduced = points(z.intDist(c, t, func(o *combat.Outcome) int { return int(o.AttackerReduced) }))
		d.DefenderUnitsReduced = points(z.intDist(c, t, func(o *combat.Outcome) int { return int(o.DefenderReduced) }))
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
		z.values[i] = int(out[i].AttackerLost + out[i].AttackerReduced)
	}
	sum.LossesByType.Attacker = lossesByType(t, z.happens, ws, vals, s.Attacker.Units, c.AttOrder, z.values, cut(&a.kt, a.nTyp[0]))
	for i := range out {
		z.values[i] = int(out[i].DefenderLost + out[i].DefenderReduced)
	}
	sum.LossesByType.Defender = lossesByType(t, z.happens, ws, vals, s.Defender.Units, c.DefOrder, z.values, cut(&a.kt, a.nTyp[1]))
}

// preCombat writes what the pre-combat steps did.
func (z *summarizer) preCombat(c *combat.Combat, t *stats.Tally, vals []float64) *PreCombat {
	out := c.Outcomes
	for i := range out {
		vals[i] = out[i].Support
	}
	return &PreCombat{
		DefendersStruck:   points(z.intDist(c, t, func(o *combat.Outcome) int { return int(o.Struck) })),
		AircraftDestroyed: points(z.intDist(c, t, func(o *combat.Outcome) int { return int(o.AirHit) })),
		AircraftAborted:   points(z.intDist(c, t, func(o *combat.Outcome) int { return int(o.AirAborted) })),
		SupportFactors:    pointMap(valueDistribution(t, z.happens, vals)),
	}
}

// intDist is the distribution of a whole number an outcome gives.
func (z *summarizer) intDist(c *combat.Combat, t *stats.Tally, value func(o *combat.Outcome) int) []stats.Estimate {
	out := c.Outcomes
	for i := range out {
		z.values[i] = value(&out[i])
	}
	return distribution(t, z.happens, z.values)
}

// countTypes is how many unit types us holds.
func countTypes(us []scenario.Unit) int {
	var typeBuf [8]scenario.UnitType
	types := typeBuf[:0]
	for i := range us {
		if !slices.Contains(types, us[i].Type) {
			types = append(types, us[i].Type)
		}
	}
	return len(types)
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
// vals is working space, one per outcome; the entries are written to dst,
// which has room for one a unit type.
func lossesByType(t *stats.Tally, happens []int, ws, vals []float64, us []scenario.Unit, order []int, lost []int, dst []KV[TypeLoss]) Keyed[TypeLoss] {
	var typeBuf [8]scenario.UnitType
	types := typeBuf[:0]
	for i := range us {
		if !slices.Contains(types, us[i].Type) {
			types = append(types, us[i].Type)
		}
	}
	res := dst[:0]
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
