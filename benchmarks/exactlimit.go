package benchmarks

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// plainExact is the limit kernel of an exact answer: a minimal enumerator
// for a plain land combat on a two-dice table, which goes from the parsed
// scenario and its table to the same full analysis.Summary the engine
// gives (a test holds the two to the same JSON): the totals, the odds
// level, each side's loss order, the 36 dice paths counted by total, each
// distinct result settled once, then every figure in one pass over the
// few outcomes, in the engine's order of addition so every float is the
// same. It knows only what the plain example needs: no modifiers, options,
// pre-combat steps, retreat rules, wild results or fractional odds
// (newPlainExact refuses scenarios that ask for them).
type plainExact struct {
	s *scenario.Scenario
	t *crt.Table
	k crt.Kind
	// halves names factor totals 0, 0.5, ... 127.5 as a summary keys
	// them, written once as the engine writes them once.
	halves [256]string
	// reason is the engine's words for the forced table (docs/rules.md
	// §2.3), made once.
	reason string
}

func newPlainExact(s *scenario.Scenario, t *crt.Table) (*plainExact, error) {
	k := crt.Assault
	switch s.Table {
	case "assault":
	case "blitz":
		k = crt.Blitz
	default:
		return nil, errors.New("the exact limit kernel needs a forced table")
	}
	switch {
	case s.Kind != scenario.Land || t.Dice != 2 || len(s.Options) > 0 || s.Hex.Terrain != "clear" || s.Hex.Weather != "clear":
		return nil, errors.New("the exact limit kernel is for a plain land combat on a two-dice table in clear terrain and weather")
	case !s.Defender.CanRetreat || s.Attacker.HQSupport || s.Defender.HQSupport || s.Attacker.AttackAsMud:
		return nil, errors.New("the exact limit kernel knows no retreat rules, HQ support or mud")
	}
	for _, side := range []*scenario.Side{&s.Attacker, &s.Defender} {
		if len(side.Units) > maxUnits || len(side.NavalStrikes)+len(side.Aircraft) > 0 || side.GroundSupport+side.ShoreBombardment > 0 {
			return nil, errors.New("the exact limit kernel is for at most 8 units a side and no support")
		}
		for _, u := range side.Units {
			if u.Role != "" && u.Role != scenario.RoleCombat {
				return nil, errors.New("the exact limit kernel is for units in combat")
			}
		}
	}
	p := &plainExact{s: s, t: t, k: k, reason: "the scenario sets table: " + s.Table}
	for h := range p.halves {
		p.halves[h] = strconv.FormatFloat(float64(h)/2, 'f', -1, 64)
	}
	return p, nil
}

// factorKey names a factor total as summaries key it.
func (p *plainExact) factorKey(v float64) string {
	if h := int(2 * v); h >= 0 && h < len(p.halves) && float64(h) == 2*v {
		return p.halves[h]
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// codeP is a result's code, an outcome giving it and its probability.
type codeP struct {
	code string
	at   int
	p    float64
}

// exactOutcome is one settled result of the minimal enumerator.
type exactOutcome struct {
	o     combat.Outcome
	code  string
	paths int
}

// maxOutcomes is the most outcomes of a plain two-dice combat: one a dice
// total; maxUnits is the most units a side the kernel takes.
const (
	maxOutcomes = 11
	maxUnits    = 8
)

// summaryBlock is a summary with room for everything it points to, so an
// answer is one allocation.
type summaryBlock struct {
	sum     analysis.Summary
	odds    [1]analysis.KV[float64]
	tables  [2]analysis.KV[float64]
	choice  [1]combat.TableChoice
	results [maxOutcomes]analysis.KV[float64]
	cis     [maxOutcomes]analysis.KV[stats.Estimate]
	order   [maxOutcomes]string
	units   [2][maxUnits + 1]float64
	unitCIs [2][maxUnits + 1]stats.Estimate
	facs    [2][maxOutcomes]analysis.KV[float64]
	facCIs  [2][maxOutcomes]analysis.KV[stats.Estimate]
	types   [2][maxUnits]analysis.KV[analysis.TypeLoss]
	warn    [1]string
}

// answer is the exact summary of the plain combat.
func (p *plainExact) answer() *analysis.Summary {
	s, t := p.s, p.t
	att, def := s.Attacker.Units, s.Defender.Units
	// Totals and the odds level.
	attack, defence := 0.0, 0.0
	for i := range att {
		attack += att[i].Factors
	}
	for i := range def {
		defence += def[i].Factors
	}
	level := t.LevelFor(attack, defence)
	// Loss orders: cheapest first, ties in input order.
	var orders [2][maxUnits]int
	ao, do := cheapest(orders[0][:0], att), cheapest(orders[1][:0], def)

	// The 36 paths by dice total, each distinct result settled once, in
	// the order the totals first read it.
	var outs [maxOutcomes]exactOutcome
	n := 0
	for d := 2; d <= 12; d++ {
		r := t.Lookup(p.k, level, d)
		r.FaceUp = r.FaceUp && r.AttackerLoss == 0
		recon := t.SourceOf(p.k, level, d).Provenance == crt.Reconstructed
		j := 0
		for j < n && (outs[j].o.Result != r || outs[j].o.Reconstructed != recon) {
			j++
		}
		if j == n {
			outs[n] = exactOutcome{o: settlePlain(level, p.k, r, recon, att, def, ao, do), code: r.String()}
			n++
		}
		outs[j].paths += min(d-1, 13-d)
	}

	// Every figure in one pass over the outcomes, in their order (the
	// engine's order of addition, so every float is the same).
	b := &summaryBlock{}
	var ws [maxOutcomes]float64
	var pAll, hex, bt, up, ret, shat, recon float64
	var codes [maxOutcomes]codeP
	var facs [2][maxOutcomes]codeP // factor totals lost: value in p's place, key in code
	var facV [2][maxOutcomes]float64
	var means [4][2]float64 // units and factors lost by side: sum of w·x, of w
	nc, nf := 0, [2]int{}
	tops := [2]int{-1, -1}
	for i := range outs[:n] {
		o := &outs[i].o
		w := float64(outs[i].paths) / 36
		ws[i] = w
		pAll += w
		if o.HexTaken {
			hex += w
		}
		if o.Breakthrough {
			bt += w
		}
		if o.AttackerFaceUp {
			up += w
		}
		if o.DefenderRetreated > 0 {
			ret += w
		}
		if o.DefenderShattered > 0 {
			shat += w
		}
		if o.Reconstructed {
			recon += w
		}
		k := 0
		for k < nc && codes[k].code != outs[i].code {
			k++
		}
		if k == nc {
			codes[k] = codeP{code: outs[i].code, at: i}
			nc++
		}
		codes[k].p += w
		lost := [2]int8{o.AttackerLost, o.DefenderLost}
		fl := [2]float64{o.AttackerFactorsLost, o.DefenderFactorsLost}
		for side := range 2 {
			b.units[side][lost[side]] += w
			tops[side] = max(tops[side], int(lost[side]))
			k := 0
			for k < nf[side] && facV[side][k] != fl[side] {
				k++
			}
			if k == nf[side] {
				facV[side][k] = fl[side]
				facs[side][k] = codeP{code: p.factorKey(fl[side])}
				nf[side]++
			}
			facs[side][k].p += w
			means[side][0] += w * float64(lost[side])
			means[side][1] += w
			means[2+side][0] += w * fl[side]
			means[2+side][1] += w
		}
	}

	sum := &b.sum
	*sum = analysis.Summary{Scenario: s.Name, Kind: string(s.Kind), CRT: s.CRT, Table: s.Table, Options: b.warn[:0:0],
		Run:  sim.Run{Method: sim.MethodExact, Paths: 36},
		Odds: analysis.OddsTotals{Attack: attack, Defence: defence}, Warnings: b.warn[:0]}
	b.odds[0] = analysis.KV[float64]{Key: t.Levels[level].String(), Value: exact(pAll).P}
	sum.OddsLevels = b.odds[:]
	b.tables = [2]analysis.KV[float64]{{Key: "assault"}, {Key: "blitz"}}
	b.tables[p.k].Value = exact(pAll).P
	sum.Tables = b.tables[:]
	// The table is forced by the scenario (newPlainExact), as the engine
	// says it (docs/rules.md §2.3).
	b.choice[0] = combat.TableChoice{Odds: b.odds[0].Key, Table: s.Table, Chooser: combat.ChooserScenario, Reason: p.reason}
	sum.TableChoices = b.choice[:]
	sum.Probabilities = analysis.Probabilities{HexTaken: exact(hex), Breakthrough: exact(bt), AttackerFaceUp: exact(up), DefenderRetreated: exact(ret), DefenderShattered: exact(shat)}

	// Results by code (two outcomes can share one, read from a printed
	// and a reconstructed cell), in code order, then ranked for the
	// attacker, ties by code.
	cs := codes[:nc]
	sortCodes(cs, func(a, b *codeP) bool { return a.code < b.code })
	for k := range cs {
		e := exact(cs[k].p)
		b.results[k], b.cis[k] = analysis.KV[float64]{Key: cs[k].code, Value: e.P}, analysis.KV[stats.Estimate]{Key: cs[k].code, Value: e}
	}
	sum.Results, sum.ResultCIs = b.results[:nc], b.cis[:nc]
	sortCodes(cs, func(a, b *codeP) bool {
		if c := outs[a.at].o.CompareForAttacker(&outs[b.at].o); c != 0 {
			return c < 0
		}
		return a.code < b.code
	})
	for k := range cs {
		b.order[k] = cs[k].code
	}
	sum.ResultOrder = b.order[:nc]

	// Loss distributions and means, a side at a time.
	for side := range 2 {
		for v := range tops[side] + 1 {
			b.unitCIs[side][v] = exact(b.units[side][v])
			b.units[side][v] = b.unitCIs[side][v].P
		}
		fs := facs[side][:nf[side]]
		sortCodes(fs, func(a, b *codeP) bool { return a.code < b.code })
		for k := range fs {
			e := exact(fs[k].p)
			b.facs[side][k], b.facCIs[side][k] = analysis.KV[float64]{Key: fs[k].code, Value: e.P}, analysis.KV[stats.Estimate]{Key: fs[k].code, Value: e}
		}
	}
	d, di := &sum.Distributions, &sum.DistCIs
	d.AttackerUnitsLost, di.AttackerUnitsLost = b.units[0][:tops[0]+1], b.unitCIs[0][:tops[0]+1]
	d.DefenderUnitsLost, di.DefenderUnitsLost = b.units[1][:tops[1]+1], b.unitCIs[1][:tops[1]+1]
	d.AttackerFactorsLost, di.AttackerFactorsLost = b.facs[0][:nf[0]], b.facCIs[0][:nf[0]]
	d.DefenderFactorsLost, di.DefenderFactorsLost = b.facs[1][:nf[1]], b.facCIs[1][:nf[1]]
	m := &sum.Means
	m.AttackerUnitsLost, m.DefenderUnitsLost = exactMean(means[0]), exactMean(means[1])
	m.AttackerFactorsLost, m.DefenderFactorsLost = exactMean(means[2]), exactMean(means[3])

	// Losses by unit type: the first units of the loss order are lost.
	sides := [2]struct {
		us    []scenario.Unit
		order []int
	}{{att, ao}, {def, do}}
	var ntypes [2]int
	for side, sd := range sides {
		var types [maxUnits]scenario.UnitType
		nt := 0
		for i := range sd.us {
			if !slices.Contains(types[:nt], sd.us[i].Type) {
				types[nt] = sd.us[i].Type
				nt++
			}
		}
		ntypes[side] = nt
		res := b.types[side][:nt]
		for ti, typ := range types[:nt] {
			var mean [2]float64
			anyOf := 0.0
			for i := range outs[:n] {
				lost := outs[i].o.AttackerLost
				if side == 1 {
					lost = outs[i].o.DefenderLost
				}
				c := 0
				for _, u := range sd.order[:min(int(lost), len(sd.order))] {
					if sd.us[u].Type == typ {
						c++
					}
				}
				mean[0] += ws[i] * float64(c)
				mean[1] += ws[i]
				if c > 0 {
					anyOf += ws[i]
				}
			}
			res[ti] = analysis.KV[analysis.TypeLoss]{Key: string(typ), Value: analysis.TypeLoss{Mean: exactMean(mean), AnyOf: exact(anyOf)}}
		}
		for i := 1; i < len(res); i++ {
			for k := i; k > 0 && res[k].Key < res[k-1].Key; k-- {
				res[k], res[k-1] = res[k-1], res[k]
			}
		}
	}
	sum.LossesByType.Attacker, sum.LossesByType.Defender = b.types[0][:ntypes[0]], b.types[1][:ntypes[1]]
	sum.Reconstructed.Probability = exact(recon)
	sum.Reconstructed.Used = recon > 0
	if sum.Reconstructed.Used {
		b.warn[0] = "reconstructed table values (docs/rules.md §0) decide " +
			strconv.FormatFloat(100*sum.Reconstructed.Probability.P, 'f', 1, 64) +
			"% of outcomes; load the printed table with crt: FILE for official values"
		sum.Warnings = b.warn[:1]
	}
	return sum
}

func exact(p float64) stats.Estimate { return stats.Exact(min(p, 1)) }

// exactMean is the mean of values from the sums of w·x and of w, as
// stats.MeanOf works it out for exact weights.
func exactMean(s [2]float64) stats.Mean {
	m := s[0] / s[1]
	return stats.Mean{Mean: m, Lo: m, Hi: m}
}

// sortCodes is an insertion sort, stable: a dozen entries at most.
func sortCodes(cs []codeP, less func(a, b *codeP) bool) {
	for i := 1; i < len(cs); i++ {
		for k := i; k > 0 && less(&cs[k], &cs[k-1]); k-- {
			cs[k], cs[k-1] = cs[k-1], cs[k]
		}
	}
}

// cheapest appends the indices of us to order, cheapest loss first (fewest
// factors, then fewest build points where given), ties in input order:
// an insertion sort, as a side has a few units.
func cheapest(order []int, us []scenario.Unit) []int {
	bp := func(u *scenario.Unit) float64 {
		if u.BP > 0 {
			return u.BP
		}
		return 1e9
	}
	before := func(a, b *scenario.Unit) bool {
		return a.Factors < b.Factors || a.Factors == b.Factors && bp(a) < bp(b)
	}
	for i := range us {
		order = append(order, i)
		for k := len(order) - 1; k > 0 && before(&us[order[k]], &us[order[k-1]]); k-- {
			order[k-1], order[k] = order[k], order[k-1]
		}
	}
	return order
}

// settlePlain applies a result to a plain combat: the first units of each
// loss order lost, the survivors' effect, the hex's fate.
func settlePlain(level int, k crt.Kind, r crt.Result, recon bool, att, def []scenario.Unit, ao, do []int) combat.Outcome {
	o := combat.Outcome{Level: int8(level), Table: k, Result: r, Reconstructed: recon}
	na, nd := min(int(r.AttackerLoss), len(ao)), min(int(r.DefenderLoss), len(do))
	for _, i := range ao[:na] {
		o.AttackerFactorsLost += att[i].Factors
	}
	for _, i := range do[:nd] {
		o.DefenderFactorsLost += def[i].Factors
	}
	o.AttackerLost, o.DefenderLost = int8(na), int8(nd)
	if survivors := len(do) - nd; survivors > 0 {
		switch r.Effect {
		case crt.NoEffect:
		case crt.Retreat:
			o.DefenderRetreated = int8(survivors)
		default:
			o.DefenderShattered = int8(survivors)
		}
	}
	o.HexTaken = nd == len(do) || r.Effect != crt.NoEffect
	o.Breakthrough = r.Effect == crt.Breakthrough && o.HexTaken
	o.AttackerFaceUp = r.FaceUp && na < len(ao)
	return o
}

// exactLimit is the limit kernel of an exact answer workload: answers
// answers of the minimal enumerator.
func exactLimit(s *scenario.Scenario) (KernelFunc, error) {
	t, err := crt.Open(s.CRT, "")
	if err != nil {
		return nil, err
	}
	p, err := newPlainExact(s, t)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, answers uint64, _ int) error {
		var n uint64
		for range answers {
			if p.answer().Paths == 36 {
				n++
			}
		}
		sink.Add(n)
		return ctx.Err()
	}, nil
}
