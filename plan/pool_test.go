package plan

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/operation"
	"github.com/wifodds/wifodds/scenario"
)

// poolItem is an item of a generated plan's shared pool (issue 28 item
// 3): a land unit, plain ground support, an aircraft facing AA, a ship's
// shore bombardment or an HQ's support.
type poolItem struct {
	kind    string // unit, support, aircraft, ship, hq
	typ     string // a unit's
	factors int    // a unit's or plain support's factors, an aircraft's tactical, a ship's shore bombardment
	a2a     int
	cost    int // build points given; 0: the default
	targets []string
}

// committed is the item's committed factors and build points, worked out
// by hand from docs/scenario-format.md, Plans: a unit's factors, support's
// tactical or shore bombardment factors, none for an HQ; a cost not given
// is those factors, 1 for an HQ.
func (it poolItem) committed() (factors, bp float64) {
	factors = float64(it.factors)
	if it.kind == "hq" {
		factors = 0
	}
	bp = factors
	if it.kind == "hq" {
		bp = 1
	}
	if it.cost > 0 {
		bp = float64(it.cost)
	}
	return factors, bp
}

// planYAML is the item as attacker.available or support_available lists it.
func (it poolItem) planYAML(id string) string {
	var s string
	switch it.kind {
	case "unit":
		s = fmt.Sprintf("{id: %s, type: %s, factors: %d, nation: GE", id, it.typ, it.factors)
	case "support":
		s = fmt.Sprintf("{id: %s, factors: %d", id, it.factors)
	case "aircraft":
		s = fmt.Sprintf("{id: %s, a2a: %d, tactical: %d", id, it.a2a, it.factors)
	case "ship":
		s = fmt.Sprintf("{id: %s, shore_bombardment: %d", id, it.factors)
	case "hq":
		s = fmt.Sprintf("{id: %s, hq_support: true", id)
	}
	if it.cost > 0 {
		s += fmt.Sprintf(", cost: %d", it.cost)
	}
	if len(it.targets) > 0 {
		key := "can_support"
		if it.kind == "unit" {
			key = "can_attack"
		}
		s += fmt.Sprintf(", %s: [%s]", key, strings.Join(it.targets, ", "))
	}
	return s + "}"
}

// poolHex is a target of a generated front.
type poolHex struct {
	id, terrain, defender string
	coastal               bool
	options               string // a YAML list, or ""
}

// randomPoolFront draws a front of 2 or 3 hexes, some coastal, some
// defended by AA, and at most max items: units (some twins), and maybe
// plain support, an aircraft, ships (only at coastal hexes) and HQs.
func randomPoolFront(r *rand.Rand, nHex, max int, invasion bool) ([]poolHex, []poolItem) {
	var hexes []poolHex
	for h := range nHex {
		def := []string{fmt.Sprintf("{type: INF, factors: %d, nation: USSR}", 1+r.IntN(4))}
		if r.IntN(2) == 0 {
			def = append(def, fmt.Sprintf("{type: INF, factors: %d, nation: USSR}", 1+r.IntN(3)))
		}
		if r.IntN(3) == 0 {
			def = append(def, "{type: AA, size: division, factors: 1, nation: USSR}")
		}
		hexes = append(hexes, poolHex{id: string(rune('A' + h)), terrain: terrains[r.IntN(len(terrains))],
			defender: "{units: [" + strings.Join(def, ", ") + "]}", coastal: invasion || h == 0 || r.IntN(2) == 0})
		if r.IntN(3) == 0 {
			// The combat reads a ship's factors only in the total, under
			// naval ground strikes too.
			hexes[h].options = "[naval-ground-strike]"
		}
	}
	var coastal, all []string
	for _, h := range hexes {
		all = append(all, h.id)
		if h.coastal {
			coastal = append(coastal, h.id)
		}
	}
	reach := func(from []string) []string {
		var out []string
		for _, t := range from {
			if r.IntN(3) > 0 {
				out = append(out, t)
			}
		}
		if len(out) == 0 {
			out = []string{from[r.IntN(len(from))]}
		}
		if len(out) == len(from) && r.IntN(2) == 0 {
			return nil // the default: every target it may reach
		}
		return out
	}
	types := []string{"INF", "ARM", "MECH"}
	if invasion {
		types = []string{"INF", "MAR", "INF"}
	}
	var items []poolItem
	for range 3 + r.IntN(2) {
		if len(items) > 0 && r.IntN(4) == 0 {
			items = append(items, items[r.IntN(len(items))]) // a twin
			continue
		}
		it := poolItem{kind: "unit", typ: types[r.IntN(3)], factors: 1 + r.IntN(6), targets: reach(all)}
		if r.IntN(2) == 0 {
			it.cost = 1 + r.IntN(8)
		}
		items = append(items, it)
	}
	extra := []poolItem{
		{kind: "support", factors: 1 + r.IntN(3)},
		{kind: "aircraft", a2a: r.IntN(4), factors: 1 + r.IntN(4)},
		{kind: "ship", factors: 1 + r.IntN(5)},
		{kind: "ship", factors: 1 + r.IntN(3)},
		{kind: "hq"},
		{kind: "hq"},
	}
	r.Shuffle(len(extra), func(i, j int) { extra[i], extra[j] = extra[j], extra[i] })
	for _, it := range extra {
		if len(items) >= max || r.IntN(4) == 0 {
			continue
		}
		if it.kind == "ship" {
			it.targets = reach(coastal)
		} else {
			it.targets = reach(all)
		}
		if r.IntN(3) == 0 {
			it.cost = 1 + r.IntN(4)
		}
		items = append(items, it)
	}
	return hexes, items
}

// poolFrontYAML writes the front's plan file.
func poolFrontYAML(kind, crtName, measure, objective string, target float64, hexes []poolHex, items []poolItem) string {
	b := &strings.Builder{}
	fmt.Fprintf(b, "kind: %s\ncrt: %s\ntargets:\n", kind, crtName)
	for _, h := range hexes {
		fmt.Fprintf(b, "  - {id: %s, hex: {terrain: %s, coastal: %v}, defender: %s", h.id, h.terrain, h.coastal, h.defender)
		if h.options != "" {
			fmt.Fprintf(b, ", options: %s", h.options)
		}
		b.WriteString("}\n")
	}
	b.WriteString("attacker:\n")
	var units, support []string
	for i, it := range items {
		if it.kind == "unit" {
			units = append(units, it.planYAML(fmt.Sprintf("u%d", i)))
		} else {
			support = append(support, it.planYAML(fmt.Sprintf("s%d", i)))
		}
	}
	for _, list := range []struct {
		key   string
		items []string
	}{{"available", units}, {"support_available", support}} {
		if len(list.items) > 0 {
			fmt.Fprintf(b, "  %s:\n", list.key)
			for _, s := range list.items {
				fmt.Fprintf(b, "    - %s\n", s)
			}
		}
	}
	fmt.Fprintf(b, "plan: {cost: %s, objective: %s, target: %v}\n", measure, objective, target)
	return b.String()
}

// bruteForce writes the force sent to hex h as a plain scenario, every
// item as the scenario format gives it (units, ground_support, aircraft,
// shore_bombardment, hq_support), and runs it as `wifodds run --exact`
// does; false when the force has no land unit.
func bruteForce(t *testing.T, kind, crtName string, h poolHex, sent []poolItem) (*analysis.Summary, bool) {
	t.Helper()
	b := &strings.Builder{}
	fmt.Fprintf(b, "kind: %s\ncrt: %s\nhex: {terrain: %s, coastal: %v}\ndefender: %s\n", kind, crtName, h.terrain, h.coastal, h.defender)
	if h.options != "" {
		fmt.Fprintf(b, "options: %s\n", h.options)
	}
	b.WriteString("attacker:\n")
	gs, sb := 0, 0
	var units, aircraft []string
	for i, it := range sent {
		switch it.kind {
		case "unit":
			units = append(units, fmt.Sprintf("{type: %s, factors: %d, nation: GE}", it.typ, it.factors))
		case "support":
			gs += it.factors
		case "aircraft":
			aircraft = append(aircraft, fmt.Sprintf("{name: a%d, a2a: %d, tactical: %d}", i, it.a2a, it.factors))
		case "ship":
			sb += it.factors
		case "hq":
			b.WriteString("  hq_support: true\n")
		}
	}
	if len(units) == 0 {
		return nil, false
	}
	if gs > 0 {
		fmt.Fprintf(b, "  ground_support: %d\n", gs)
	}
	if sb > 0 {
		fmt.Fprintf(b, "  shore_bombardment: %d\n", sb)
	}
	if len(aircraft) > 0 {
		fmt.Fprintf(b, "  aircraft: [%s]\n", strings.Join(aircraft, ", "))
	}
	fmt.Fprintf(b, "  units: [%s]\n", strings.Join(units, ", "))
	return runText(t, b.String()), true
}

// eachPoolAssignment calls f with every assignment of every item to a
// target it may reach (its list, else every target, a ship's default the
// coastal ones) or to none, at most one HQ a target: the items sent to
// each target.
func eachPoolAssignment(hexes []poolHex, items []poolItem, f func(sents [][]int)) {
	can := func(i, c int, choice []int) bool {
		it, h := items[i], hexes[c]
		switch {
		case it.kind == "hq" && hqAt(items[:i], choice[:i], c):
			return false // a second HQ at a target adds nothing
		case len(it.targets) > 0:
			return slices.Contains(it.targets, h.id)
		case it.kind == "ship":
			return h.coastal
		}
		return true
	}
	eachChoice(len(items), len(hexes), can, func(choice []int) {
		sents := make([][]int, len(hexes))
		for j, c := range choice {
			if c >= 0 {
				sents[c] = append(sents[c], j)
			}
		}
		f(sents)
	})
}

// eachChoice calls f with every choice of a target (or -1, none) for each
// of n items among nt targets that can allows, given the choices before.
func eachChoice(n, nt int, can func(i, c int, choice []int) bool, f func(choice []int)) {
	choice := make([]int, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			f(choice)
			return
		}
		for c := -1; c < nt; c++ {
			if c < 0 || can(i, c, choice) {
				choice[i] = c
				rec(i + 1)
			}
		}
	}
	rec(0)
}

// hqAt reports whether an HQ of items went to target c.
func hqAt(items []poolItem, choice []int, c int) bool {
	for j, it := range items {
		if it.kind == "hq" && choice[j] == c {
			return true
		}
	}
	return false
}

// The planner assigns a shared pool exactly (issue 28 item 3): on random
// fronts of 2 or 3 hexes with at most 8 items in all (units, plain
// support, aircraft facing AA, ships at coastal hexes, HQs), for every
// objective and every cost measure (fixed seeds), its frontier and
// recommendation are those of brute force over every assignment of every
// item to a target it may reach (at most one HQ a target), each hex's
// force written out as its own scenario and run exactly, the joint
// enumerated outcome by outcome (bruteJoint), and every frontier point's
// joint figures (P(exactly k), P(all), each hex's P(attacked) and
// P(taken)) are that enumeration's. On every third front the
// last hex waits on the first (requires, issue 28 item 4), so the pool and
// requires are proven together.
func TestPoolFrontIsBruteForce(t *testing.T) {
	objectives := []string{"expected", "all", "{at_least: %d}", "{set: [%s]}"}
	sentKinds := map[string]int{} // kinds sent on some frontier, so the test covers each
	for seed := range 40 {
		r := rand.New(rand.NewPCG(uint64(seed), 283))
		crtName := []string{"standard", "2d6"}[seed%2]
		measure := measures[seed%len(measures)]
		kind := "land"
		if seed%5 == 4 {
			kind = "invasion" // every hex coastal; no unit folds
		}
		hexes, items := randomPoolFront(r, 2+seed%2, 8, kind == "invasion")
		ids := make([]string, len(hexes))
		for h := range hexes {
			ids[h] = hexes[h].id
		}
		obj := objectives[seed%len(objectives)]
		target := []float64{0.2, 0.4, 0.6}[r.IntN(3)]
		var o operation.Objective
		switch seed % len(objectives) {
		case 0:
			o = operation.Objective{Kind: operation.Expected}
			target *= float64(len(ids))
		case 1:
			o = operation.Objective{Kind: operation.All}
		case 2:
			o = operation.Objective{Kind: operation.AtLeast, K: 1 + r.IntN(len(ids))}
			obj = fmt.Sprintf(obj, o.K)
		default:
			o = operation.Objective{Kind: operation.Set, Set: []string{ids[0], ids[len(ids)-1]}}
			obj = fmt.Sprintf(obj, strings.Join(o.Set, ", "))
		}
		text := poolFrontYAML(kind, crtName, measure, obj, target, hexes, items)
		// Every third front's last hex waits on its first (issue 28 item
		// 4 with the pool): its items are committed either way, and the
		// joint is enumerated outcome by outcome (bruteJoint).
		reqs := make([][]int, len(ids))
		if seed%3 == 2 {
			reqs[len(ids)-1] = []int{0}
			text = withRequires(text, ids, reqs)
		}
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			if seed%2 == 1 {
				withPruneFrom(t, 1) // the pruned front search (frontbound.go) on every other front
			}
			res := planText(t, text)
			memo := map[string]*analysis.Summary{}
			weigh := func(h int, sent []int) (*analysis.Summary, bool) {
				key := fmt.Sprint(h, sent)
				if s, ok := memo[key]; ok {
					return s, s != nil
				}
				var its []poolItem
				for _, i := range sent {
					its = append(its, items[i])
				}
				s, _ := bruteForce(t, kind, crtName, hexes[h], its)
				memo[key] = s
				return s, s != nil
			}
			var pts []weighed
			n := 0.0
			eachPoolAssignment(hexes, items, func(sents [][]int) {
				n++
				ps := make([]float64, len(ids))
				hexLostF, hexLostU := make([]float64, len(ids)), make([]float64, len(ids))
				factors, bp, n := 0.0, 0.0, 0
				for h, sent := range sents {
					if len(sent) == 0 {
						continue
					}
					sum, ok := weigh(h, sent)
					if !ok {
						return // support alone is not an attack
					}
					for _, i := range sent {
						f, b := items[i].committed()
						factors, bp, n = factors+f, bp+b, n+1
					}
					ps[h] = sum.Probabilities.HexTaken.P
					hexLostF[h] = sum.Means.AttackerFactorsLost.Mean
					hexLostU[h] = sum.Means.AttackerUnitsLost.Mean
				}
				joint := bruteJoint(ps, reqs)
				expected, lostF, lostU := 0.0, 0.0, 0.0
				for m, p := range joint {
					expected += float64(bits.OnesCount(uint(m))) * p
				}
				for h := range ids {
					attacked := bruteAttacked(joint, reqs[h])
					lostF += attacked * hexLostF[h]
					lostU += attacked * hexLostU[h]
				}
				if n == 0 || expected == 0 {
					return
				}
				value := jointChance(joint, ids, o)
				cost := map[string]float64{"committed_factors": factors, "committed_units": float64(n),
					"committed_build_points": bp, "expected_factors_lost": lostF, "expected_units_lost": lostU}[measure]
				if value > 0 {
					pts = append(pts, weighed{cost: cost, value: value})
				}
			})
			want, got := paretoPairs(pts), objectivePairs(res.TablePlan)
			if !samePairs(want, got) {
				t.Fatalf("frontier\n got %v\nwant %v\n%s", got, want, text)
			}
			if res.EvaluatedSubsets != n {
				t.Fatalf("the search stands for %v assignments; there are %v\n%s", res.EvaluatedSubsets, n, text)
			}
			rec := slices.IndexFunc(want, func(p [2]float64) bool { return p[1] >= target-valueTol })
			switch {
			case rec < 0 && (res.Recommended != nil || res.Unreached == ""):
				t.Fatalf("no point reaches %v, yet recommended %v\n%s", target, res.Recommended, text)
			case rec >= 0 && res.Recommended == nil:
				t.Fatalf("no recommendation; want %v\n%s", want[rec], text)
			case rec >= 0:
				if g := objectivePairs(&TablePlan{Frontier: []*Force{res.Recommended}})[0]; !near(g[0], want[rec][0], 1e-9) || !near(g[1], want[rec][1], 1e-9) {
					t.Fatalf("recommended %v, want %v\n%s", g, want[rec], text)
				}
			}
			// Each hex's force on the frontier is the force written out,
			// and the point's joint figures are the joint of those forces'
			// chances enumerated outcome by outcome (requires followed).
			for _, f := range res.Frontier {
				ps := make([]float64, len(ids))
				for h, hf := range f.Hexes {
					if len(hf.Units) == 0 {
						continue
					}
					var sent []int
					for _, id := range hf.Units {
						sent = append(sent, itemIndex(t, id))
						sentKinds[items[sent[len(sent)-1]].kind]++
					}
					slices.Sort(sent)
					sum, ok := weigh(h, sent)
					if !ok || !near(sum.Probabilities.HexTaken.P, hf.HexTaken.P, 1e-12) {
						t.Fatalf("hex %s sends %v: P(taken) %v, the force written out %v\n%s", hf.Target, hf.Units, hf.HexTaken.P, sum, text)
					}
					ps[h] = sum.Probabilities.HexTaken.P
				}
				joint := bruteJoint(ps, reqs)
				exactly := make([]float64, len(ids)+1)
				for m, p := range joint {
					exactly[bits.OnesCount(uint(m))] += p
				}
				j := f.Joint
				for k, p := range exactly {
					if !near(j.Exactly[k], p, 1e-12) {
						t.Fatalf("cost %v: P(exactly %d) %v, want %v\n%s", f.Cost, k, j.Exactly[k], p, text)
					}
				}
				for h := range ids {
					if a := bruteAttacked(joint, reqs[h]); !near(j.Attacked[h], a, 1e-12) || !near(j.Taken[h], a*ps[h], 1e-12) {
						t.Fatalf("cost %v: %s attacked %v taken %v, want %v %v\n%s", f.Cost, ids[h], j.Attacked[h], j.Taken[h], a, a*ps[h], text)
					}
				}
				if !near(j.All, joint[len(joint)-1], 1e-12) {
					t.Fatalf("cost %v: P(all) %v, want %v\n%s", f.Cost, j.All, joint[len(joint)-1], text)
				}
			}
		})
	}
	for _, k := range []string{"unit", "support", "aircraft", "ship", "hq"} {
		if sentKinds[k] == 0 {
			t.Errorf("no frontier sends a %s: the seeds do not test it", k)
		}
	}
}

// jointChance is the objective's figure under a joint distribution of the
// hexes taken (bit h of a state: hex ids[h] taken), summed state by state:
// the expected hexes (each worth 1), or the chance of the objective's
// states.
func jointChance(joint []float64, ids []string, o operation.Objective) float64 {
	in := func(m int) bool { return m == len(joint)-1 }
	switch o.Kind {
	case operation.Expected:
		v := 0.0
		for m, p := range joint {
			v += float64(bits.OnesCount(uint(m))) * p
		}
		return v
	case operation.AtLeast:
		in = func(m int) bool { return bits.OnesCount(uint(m)) >= o.K }
	case operation.Set:
		mask := 0
		for _, id := range o.Set {
			mask |= 1 << slices.Index(ids, id)
		}
		in = func(m int) bool { return m&mask == mask }
	}
	v := 0.0
	for m, p := range joint {
		if in(m) {
			v += p
		}
	}
	return v
}

// itemIndex is the pool index of a generated item's id (u3, s5).
func itemIndex(t *testing.T, id string) int {
	t.Helper()
	var i int
	if _, err := fmt.Sscanf(id[1:], "%d", &i); err != nil {
		t.Fatalf("id %q: %v", id, err)
	}
	return i
}

// poolHexYAML is a random one-hex plan on a coastal hex with units,
// support, aircraft, ships and HQs (an invasion for seed 3 mod 4), its
// kind, hex and items.
func poolHexYAML(r *rand.Rand, seed int, crtName, measure string) (string, string, poolHex, []poolItem) {
	hexes, items := randomPoolFront(r, 1, 8, seed%4 == 3)
	h := hexes[0]
	h.coastal = true
	for i := range items {
		items[i].targets = nil
	}
	kind := "land"
	if seed%4 == 3 {
		kind = "invasion"
	}
	text := poolFrontYAML(kind, crtName, measure, "", 0, nil, items)
	hexText := fmt.Sprintf("hex: {terrain: %s, coastal: true}\ndefender: %s\n", h.terrain, h.defender)
	if h.options != "" {
		hexText += "options: " + h.options + "\n"
	}
	text = strings.Replace(text, "targets:\n", hexText, 1)
	text = strings.Replace(text, ", objective: , target: 0", "", 1)
	return text, kind, h, items
}

// A one-hex plan takes ships and HQs too: on random coastal hexes with
// units, support, aircraft, ships and HQs (fixed seeds), under every cost
// measure, the frontier is brute force's over every subset (at most one
// HQ), and each frontier force's figures are those of the force written
// out and run as `wifodds run --exact` does.
func TestPoolHexIsBruteForce(t *testing.T) {
	sentKinds := map[string]int{}
	for seed := range 20 {
		r := rand.New(rand.NewPCG(uint64(seed), 284))
		crtName := []string{"standard", "2d6"}[seed%2]
		measure := measures[seed%len(measures)]
		text, kind, h, items := poolHexYAML(r, seed, crtName, measure)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			res := planText(t, text)
			var pts []weighed
			for mask := range 1 << len(items) {
				var sent []poolItem
				factors, bp, hqs := 0.0, 0.0, 0
				for i, it := range items {
					if mask&(1<<i) != 0 {
						sent = append(sent, it)
						f, b := it.committed()
						factors, bp = factors+f, bp+b
						if it.kind == "hq" {
							hqs++
						}
					}
				}
				if hqs > 1 {
					continue // a second HQ adds nothing
				}
				sum, ok := bruteForce(t, kind, crtName, h, sent)
				if !ok || sum.Probabilities.HexTaken.P == 0 {
					continue
				}
				cost := map[string]float64{"committed_factors": factors, "committed_units": float64(len(sent)),
					"committed_build_points": bp, "expected_factors_lost": sum.Means.AttackerFactorsLost.Mean,
					"expected_units_lost": sum.Means.AttackerUnitsLost.Mean}[measure]
				pts = append(pts, weighed{cost: cost, value: sum.Probabilities.HexTaken.P})
			}
			want, got := paretoPairs(pts), frontierPairs(res.TablePlan)
			if !samePairs(want, got) {
				t.Fatalf("frontier\n got %v\nwant %v\n%s", got, want, text)
			}
			for _, f := range res.Frontier {
				var sent []poolItem
				for _, id := range f.Units {
					sent = append(sent, items[itemIndex(t, id)])
					sentKinds[sent[len(sent)-1].kind]++
				}
				sum, _ := bruteForce(t, kind, crtName, h, sent)
				if sum.Probabilities.HexTaken.P != f.HexTaken.P || sum.Means.AttackerFactorsLost.Mean != f.ExpectedAttackerFactorsLost ||
					sum.Means.AttackerUnitsLost.Mean != f.ExpectedAttackerUnitsLost || sum.Odds.Attack != f.Attack || sum.Odds.Defence != f.Defence {
					t.Fatalf("%v: P(taken) %v, losses %v/%v, totals %v:%v; run --exact gives %v, %v/%v, %v:%v\n%s", f.Units, f.HexTaken.P,
						f.ExpectedAttackerFactorsLost, f.ExpectedAttackerUnitsLost, f.Attack, f.Defence, sum.Probabilities.HexTaken.P,
						sum.Means.AttackerFactorsLost.Mean, sum.Means.AttackerUnitsLost.Mean, sum.Odds.Attack, sum.Odds.Defence, text)
				}
			}
		})
	}
	for _, k := range []string{"unit", "support", "aircraft", "ship", "hq"} {
		if sentKinds[k] == 0 {
			t.Errorf("no frontier sends a %s: the seeds do not test it", k)
		}
	}
}

// The coastal front example's frontier and recommendation are brute
// force's over every assignment of its units, aircraft, ship and HQ to a
// hex each may reach (at most one HQ a hex), each hex's force built from
// the target and run exactly: 19 factors for 1.833 hexes expected, the HQ
// at Sevastopol, the Scheer at Balaklava and the Ju-88 at Bakhchisaray.
func TestCoastalFrontExampleIsBruteForce(t *testing.T) {
	s, tb, res := planExample(t, "coastal-front.yaml")
	units, support := s.Attacker.Available, s.Attacker.SupportAvailable
	n := len(units) + len(support)
	can := func(i, h int, choice []int) bool {
		id := s.Targets[h].ID
		if i < len(units) {
			return slices.Contains(units[i].CanAttack, id)
		}
		sp := support[i-len(units)]
		for j := len(units); j < i; j++ {
			if sp.HQ && support[j-len(units)].HQ && choice[j] == h {
				return false
			}
		}
		return len(sp.CanSupport) == 0 || slices.Contains(sp.CanSupport, id)
	}
	memo := map[string]*analysis.Summary{}
	weigh := func(h int, sent []int) *analysis.Summary {
		key := fmt.Sprint(h, sent)
		if v, ok := memo[key]; ok {
			return v
		}
		ts := *s.Targets[h].Scenario
		a := &ts.Attacker
		a.Units, a.Aircraft = nil, nil
		for _, i := range sent {
			if i < len(units) {
				u := units[i].Combatant()
				a.Units = append(a.Units, u)
				continue
			}
			switch sp := support[i-len(units)]; {
			case sp.Aircraft:
				a.Aircraft = append(a.Aircraft, scenario.Aircraft{Name: sp.ID, A2A: sp.A2A, Tactical: sp.Tactical})
			case sp.IsShip():
				a.ShoreBombardment += sp.ShoreBombardment
			case sp.HQ:
				a.HQSupport = true
			default:
				a.GroundSupport += sp.Factors
			}
		}
		var v *analysis.Summary
		if len(a.Units) > 0 {
			c, err := combat.Compile(&ts, tb, nil)
			if err != nil {
				t.Fatal(err)
			}
			if v, err = analysis.RunCombat(context.Background(), c, analysis.Request{Engine: analysis.Exact}); err != nil {
				t.Fatal(err)
			}
		}
		memo[key] = v
		return v
	}
	var pts []weighed
	eachChoice(n, len(s.Targets), can, func(choice []int) {
		sents := make([][]int, len(s.Targets))
		cost := 0.0
		for i, h := range choice {
			if h < 0 {
				continue
			}
			sents[h] = append(sents[h], i)
			switch {
			case i < len(units):
				cost += units[i].Factors
			case support[i-len(units)].Aircraft:
				cost += support[i-len(units)].Tactical
			default:
				cost += support[i-len(units)].ShoreBombardment // an HQ commits no factors
			}
		}
		value := 0.0
		for h, sent := range sents {
			if len(sent) == 0 {
				continue
			}
			v := weigh(h, sent)
			if v == nil {
				return // support alone is not an attack
			}
			value += v.Probabilities.HexTaken.P
		}
		if value > 0 {
			pts = append(pts, weighed{cost: cost, value: value})
		}
	})
	want, got := paretoPairs(pts), frontierPairs(res.TablePlan)
	if !samePairs(want, got) {
		t.Fatalf("frontier\n got %v\nwant %v", got, want)
	}
	r := res.Recommended
	if r == nil || r.Cost != 19 || !near(*r.Value, 1.8333333333333333, 1e-12) {
		t.Fatalf("recommended %+v", r)
	}
	for h, want := range [][]string{{"22. Panzer", "11th Army HQ"}, {"LIV Corps", "Admiral Scheer"}, {"3rd Mountain", "Ju-88"}} {
		if !slices.Equal(r.Hexes[h].Units, want) {
			t.Errorf("%s: %v, want %v", r.Hexes[h].Target, r.Hexes[h].Units, want)
		}
	}
}

// planExample loads an example plan and plans it under its table.
func planExample(t *testing.T, name string) (*scenario.Scenario, *crt.Table, *Result) {
	t.Helper()
	s, err := scenario.Load("../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := crt.Builtin(s.CRT)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Plan(context.Background(), s, Config{Tables: []Table{{Name: s.CRT, Table: tb}}})
	if err != nil {
		t.Fatal(err)
	}
	return s, tb, res
}

// The search sends at most one HQ to a target (docs/rules.md §8, HQ
// support counts once): its states are those of the assignments with at
// most one HQ a target, no more. A state is, per target, the units and HQs
// sent (an HQ is a flag) and the items sent; on a front only the states
// that attack somewhere with a land unit at every hex sent to count.
func TestSearchSendsOneHQATarget(t *testing.T) {
	for _, c := range []struct {
		hexes []poolHex
		items []poolItem
	}{
		{[]poolHex{{id: "A", terrain: "clear", defender: "{units: [{type: INF, factors: 2, nation: USSR}]}"}},
			[]poolItem{{kind: "unit", typ: "INF", factors: 3}, {kind: "hq"}, {kind: "hq"}, {kind: "hq", cost: 2}}},
		{[]poolHex{{id: "A", terrain: "clear", defender: "{units: [{type: INF, factors: 2, nation: USSR}]}"},
			{id: "B", terrain: "forest", defender: "{units: [{type: INF, factors: 1, nation: USSR}]}"}},
			[]poolItem{{kind: "unit", typ: "INF", factors: 3}, {kind: "unit", typ: "ARM", factors: 4}, {kind: "hq"}, {kind: "hq"}, {kind: "hq", targets: []string{"B"}}}},
	} {
		text := poolFrontYAML("land", "2d6", "committed_factors", "expected", 0.1, c.hexes, c.items)
		if len(c.hexes) == 1 {
			h := c.hexes[0]
			text = strings.Replace(text, "targets:\n  - {id: A, hex: {terrain: clear, coastal: false}, defender: "+h.defender+"}\n",
				"hex: {terrain: clear}\ndefender: "+h.defender+"\n", 1)
			text = strings.Replace(text, ", objective: expected", "", 1)
		}
		res := planText(t, text)
		want := map[string]bool{}
		eachPoolAssignment(c.hexes, c.items, func(sents [][]int) {
			key, live := "", false
			for _, sent := range sents {
				var units []int // the units here are all distinct
				hqs := 0
				for _, i := range sent {
					switch c.items[i].kind {
					case "unit":
						units = append(units, i)
					case "hq":
						hqs++
					}
				}
				if len(sent) > 0 && len(units) == 0 && len(c.hexes) > 1 {
					return // support alone is not an attack
				}
				live = live || len(sent) > 0
				key += fmt.Sprintf("%v/%d/%d ", units, hqs, len(sent))
			}
			if live || len(c.hexes) == 1 {
				want[key] = true
			}
		})
		if res.States != len(want) {
			t.Errorf("%d states, want %d (at most one HQ a target)\n%s", res.States, len(want), text)
		}
	}
}
