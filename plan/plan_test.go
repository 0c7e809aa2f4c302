package plan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// unitSpec is a unit of a generated plan.
type unitSpec struct {
	typ     string
	factors int
	cost    int
	support bool // plain ground-support factors
	targets []string
}

func (u unitSpec) yaml(id string, plan bool) string {
	if u.support {
		s := fmt.Sprintf("{id: %q, factors: %d", id, u.factors)
		if plan && len(u.targets) > 0 {
			s += ", can_support: [" + strings.Join(u.targets, ", ") + "]"
		}
		return s + "}"
	}
	s := fmt.Sprintf("{type: %s, factors: %d, nation: GE", u.typ, u.factors)
	if plan {
		s += fmt.Sprintf(", id: %q, cost: %d", id, u.cost)
		if len(u.targets) > 0 {
			s += ", can_attack: [" + strings.Join(u.targets, ", ") + "]"
		}
	}
	return s + "}"
}

// randomPool draws n available units (some identical, so classes form)
// and maybe one support.
func randomPool(r *rand.Rand, n int, targets []string) []unitSpec {
	types := []string{"INF", "ARM", "MECH"}
	var out []unitSpec
	for len(out) < n {
		if len(out) > 0 && r.IntN(4) == 0 {
			out = append(out, out[r.IntN(len(out))]) // a twin
			continue
		}
		u := unitSpec{typ: types[r.IntN(3)], factors: 1 + r.IntN(6), cost: 1 + r.IntN(8)}
		if len(out) > 0 && r.IntN(6) == 0 {
			u = unitSpec{support: true, factors: 1 + r.IntN(4), cost: 1 + r.IntN(4)}
		}
		if len(targets) > 0 {
			for _, t := range targets {
				if r.IntN(3) > 0 {
					u.targets = append(u.targets, t)
				}
			}
			if len(u.targets) == 0 {
				u.targets = []string{targets[r.IntN(len(targets))]}
			}
		}
		out = append(out, u)
	}
	return out
}

var (
	terrains = []string{"clear", "forest", "mountain", "swamp"}
	measures = []string{"committed_factors", "committed_units", "committed_build_points", "expected_factors_lost", "expected_units_lost"}
)

func defenderYAML(r *rand.Rand) string {
	var us []string
	for i := 0; i <= r.IntN(2); i++ {
		us = append(us, fmt.Sprintf("{type: INF, factors: %d, nation: USSR}", 1+r.IntN(4)))
	}
	return "{units: [" + strings.Join(us, ", ") + "]}"
}

// hexPlanYAML is a one-hex plan file.
func hexPlanYAML(crtName, terrain, defender, measure string, committed []unitSpec, pool []unitSpec, maxUnits int) string {
	b := &strings.Builder{}
	fmt.Fprintf(b, "kind: land\ncrt: %s\nhex: {terrain: %s}\ndefender: %s\nattacker:\n", crtName, terrain, defender)
	if len(committed) > 0 {
		b.WriteString("  units:\n")
		for _, u := range committed {
			fmt.Fprintf(b, "    - %s\n", u.yaml("", false))
		}
	}
	writeAvailable(b, pool)
	fmt.Fprintf(b, "plan: {cost: %s", measure)
	if maxUnits > 0 {
		fmt.Fprintf(b, ", max_units: %d", maxUnits)
	}
	b.WriteString("}\n")
	return b.String()
}

func writeAvailable(b *strings.Builder, pool []unitSpec) {
	var units, support []string
	for i, u := range pool {
		if u.support {
			support = append(support, u.yaml(fmt.Sprintf("s%d", i), true))
		} else {
			units = append(units, u.yaml(fmt.Sprintf("u%d", i), true))
		}
	}
	if len(units) > 0 {
		b.WriteString("  available:\n")
		for _, u := range units {
			fmt.Fprintf(b, "    - %s\n", u)
		}
	}
	if len(support) > 0 {
		b.WriteString("  support_available:\n")
		for _, s := range support {
			fmt.Fprintf(b, "    - %s\n", s)
		}
	}
}

// weighed is what the brute force finds for one force.
type weighed struct {
	cost, value float64
}

// bruteHex weighs one force against a hex by writing it as a plain
// scenario and running it as `wifodds run --exact` does.
func bruteHex(t *testing.T, crtName, terrain, defender string, committed, sent []unitSpec) (*analysis.Summary, bool) {
	t.Helper()
	b := &strings.Builder{}
	fmt.Fprintf(b, "kind: land\ncrt: %s\nhex: {terrain: %s}\ndefender: %s\nattacker:\n", crtName, terrain, defender)
	support := 0
	var units []string
	for _, u := range append(slices.Clone(committed), sent...) {
		if u.support {
			support += u.factors
		} else {
			units = append(units, u.yaml("", false))
		}
	}
	if len(units) == 0 {
		return nil, false
	}
	if support > 0 {
		fmt.Fprintf(b, "  ground_support: %d\n", support)
	}
	b.WriteString("  units:\n")
	for _, u := range units {
		fmt.Fprintf(b, "    - %s\n", u)
	}
	return runText(t, b.String()), true
}

// runText parses, compiles and runs a scenario's text exactly.
func runText(t *testing.T, text string) *analysis.Summary {
	t.Helper()
	s, err := scenario.Parse("gen.yaml", []byte(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	tb, err := crt.Open(s.CRT, "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := combat.Compile(s, tb, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	sum, err := analysis.RunCombat(context.Background(), c, analysis.Request{Engine: analysis.Exact})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// measureOf is a force's cost under a measure, worked out by hand.
func measureOf(measure string, sent []unitSpec, sum *analysis.Summary) float64 {
	c := 0.0
	for _, u := range sent {
		switch measure {
		case "committed_factors":
			c += float64(u.factors)
		case "committed_units":
			c++
		case "committed_build_points":
			c += float64(u.cost)
			if u.support {
				c += float64(u.factors - u.cost) // support costs its factors unless given
			}
		}
	}
	switch {
	case sum == nil:
	case measure == "expected_factors_lost":
		return sum.Means.AttackerFactorsLost.Mean
	case measure == "expected_units_lost":
		return sum.Means.AttackerUnitsLost.Mean
	}
	return c
}

// paretoPairs is the (cost, value) pairs no other point dominates, found
// the slow way, cheapest first.
func paretoPairs(pts []weighed) [][2]float64 {
	var out [][2]float64
	for i, p := range pts {
		dominated := false
		for j, q := range pts {
			if i == j {
				continue
			}
			noWorse := q.cost <= p.cost+costTol && q.value >= p.value-valueTol
			better := q.cost < p.cost-costTol || q.value > p.value+valueTol
			if noWorse && better {
				dominated = true
				break
			}
		}
		if !dominated {
			pair := [2]float64{p.cost, p.value}
			if !slices.ContainsFunc(out, func(o [2]float64) bool { return near(o[0], pair[0], costTol) && near(o[1], pair[1], valueTol) }) {
				out = append(out, pair)
			}
		}
	}
	slices.SortFunc(out, func(a, b [2]float64) int {
		switch {
		case a[0] < b[0]:
			return -1
		case a[0] > b[0]:
			return 1
		}
		return 0
	})
	return out
}

func planText(t *testing.T, text string, tables ...string) *Result {
	t.Helper()
	s, err := scenario.Parse("plan.yaml", []byte(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if len(tables) == 0 {
		tables = []string{s.CRT}
	}
	var ts []Table
	for _, n := range tables {
		tb, err := crt.Builtin(n)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, Table{Name: n, Table: tb})
	}
	res, err := Plan(context.Background(), s, Config{Tables: ts})
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return res
}

func frontierPairs(tp *TablePlan) [][2]float64 {
	var out [][2]float64
	for _, f := range tp.Frontier {
		v := 0.0
		if f.Value != nil {
			v = *f.Value
		} else {
			v = f.HexTaken.P
		}
		out = append(out, [2]float64{f.Cost, v})
	}
	return out
}

func samePairs(a, b [][2]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !near(a[i][0], b[i][0], 1e-9) || !near(a[i][1], b[i][1], 1e-9) {
			return false
		}
	}
	return true
}

// The planner's frontier on one hex equals the one brute force finds by
// running every subset of the available units as its own scenario, on
// random small pools (fixed seeds), under every cost measure.
func TestHexFrontierIsBruteForce(t *testing.T) {
	for seed := range 24 {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		crtName := []string{"standard", "2d6"}[seed%2]
		terrain := terrains[r.IntN(len(terrains))]
		defender := defenderYAML(r)
		measure := measures[seed%len(measures)]
		pool := randomPool(r, 2+r.IntN(5), nil)
		var committed []unitSpec
		if seed%3 == 0 {
			committed = []unitSpec{{typ: "INF", factors: 2}}
		}
		maxUnits := 0
		if seed%4 == 1 {
			maxUnits = 2
		}
		text := hexPlanYAML(crtName, terrain, defender, measure, committed, pool, maxUnits)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			res := planText(t, text)
			var pts []weighed
			for mask := 0; mask < 1<<len(pool); mask++ {
				var sent []unitSpec
				for i := range pool {
					if mask&(1<<i) != 0 {
						sent = append(sent, pool[i])
					}
				}
				if maxUnits > 0 && len(sent) > maxUnits {
					continue
				}
				sum, ok := bruteHex(t, crtName, terrain, defender, committed, sent)
				if !ok {
					continue
				}
				if sum.Probabilities.HexTaken.P == 0 && len(committed) == 0 {
					continue // not attacking does as well
				}
				pts = append(pts, weighed{cost: measureOf(measure, sent, sum), value: sum.Probabilities.HexTaken.P})
			}
			want, got := paretoPairs(pts), frontierPairs(res.TablePlan)
			if !samePairs(want, got) {
				t.Errorf("frontier\n got %v\nwant %v\n%s", got, want, text)
			}
		})
	}
}

// frontPlanYAML is a front plan file with random targets.
func frontPlanYAML(r *rand.Rand, crtName, measure string, ids []string, pool []unitSpec, maxUnits int) (string, []string, []string) {
	b := &strings.Builder{}
	fmt.Fprintf(b, "kind: land\ncrt: %s\ntargets:\n", crtName)
	var terrs, defs []string
	for _, id := range ids {
		terr, def := terrains[r.IntN(len(terrains))], defenderYAML(r)
		terrs, defs = append(terrs, terr), append(defs, def)
		fmt.Fprintf(b, "  - {id: %s, hex: {terrain: %s}, defender: %s}\n", id, terr, def)
	}
	b.WriteString("attacker:\n")
	writeAvailable(b, pool)
	fmt.Fprintf(b, "plan: {cost: %s", measure)
	if maxUnits > 0 {
		fmt.Fprintf(b, ", max_units: %d", maxUnits)
	}
	b.WriteString("}\n")
	return b.String(), terrs, defs
}

// The planner's frontier on a front equals the one brute force finds by
// trying every assignment of every unit to a hex it can attack (or none),
// each hex's force run as its own scenario.
func TestFrontFrontierIsBruteForce(t *testing.T) {
	for seed := range 12 {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		crtName := []string{"standard", "2d6"}[seed%2]
		measure := measures[seed%len(measures)]
		ids := []string{"A", "B", "C"}[:2+seed%2]
		pool := randomPool(r, 3+r.IntN(3), ids)
		maxUnits := 0
		if seed%4 == 3 {
			maxUnits = 3
		}
		text, terrs, defs := frontPlanYAML(r, crtName, measure, ids, pool, maxUnits)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			res := planText(t, text)
			weigh := bruteWeigher(t, crtName, terrs, defs)
			var pts []weighed
			eachAssignment(pool, ids, func(sents [][]unitSpec) {
				var all []unitSpec
				value, lostF, lostU := 0.0, 0.0, 0.0
				for h, sent := range sents {
					if len(sent) == 0 {
						continue
					}
					sum, ok := weigh(h, sent)
					if !ok {
						return // support alone is not an attack
					}
					all = append(all, sent...)
					value += sum.Probabilities.HexTaken.P
					lostF += sum.Means.AttackerFactorsLost.Mean
					lostU += sum.Means.AttackerUnitsLost.Mean
				}
				if len(all) == 0 || value == 0 || maxUnits > 0 && len(all) > maxUnits {
					return
				}
				cost := measureOf(measure, all, nil)
				switch measure {
				case "expected_factors_lost":
					cost = lostF
				case "expected_units_lost":
					cost = lostU
				}
				pts = append(pts, weighed{cost: cost, value: value})
			})
			want, got := paretoPairs(pts), frontierPairs(res.TablePlan)
			if !samePairs(want, got) {
				t.Errorf("frontier\n got %v\nwant %v\n%s", got, want, text)
			}
		})
	}
}

// bruteWeigher weighs a force against hex h of a front by bruteHex, once.
func bruteWeigher(t *testing.T, crtName string, terrs, defs []string) func(h int, sent []unitSpec) (*analysis.Summary, bool) {
	memo := map[string]*analysis.Summary{}
	return func(h int, sent []unitSpec) (*analysis.Summary, bool) {
		key := fmt.Sprint(h, sent)
		if s, ok := memo[key]; ok {
			return s, s != nil
		}
		s, ok := bruteHex(t, crtName, terrs[h], defs[h], nil, sent)
		memo[key] = s
		return s, ok
	}
}

// eachAssignment calls f with every assignment of every unit of the pool
// to a target it can attack, or to none: the units sent to each target.
func eachAssignment(pool []unitSpec, ids []string, f func(sents [][]unitSpec)) {
	can := func(i, c int, _ []int) bool { return slices.Contains(pool[i].targets, ids[c]) }
	eachChoice(len(pool), len(ids), can, func(choice []int) {
		sents := make([][]unitSpec, len(ids))
		for j, c := range choice {
			if c >= 0 {
				sents[c] = append(sents[c], pool[j])
			}
		}
		f(sents)
	})
}

// The front example's recommendation is what brute force over every
// assignment of every unit (not class) to a hex it can attack finds: the
// cheapest assignment with at least the target's expected hexes taken.
func TestFrontExampleIsBruteForce(t *testing.T) {
	if testing.Short() {
		t.Skip("531,441 assignments")
	}
	s, tb, res := planExample(t, "plan-front.yaml")
	items := s.Attacker.Available
	support := s.Attacker.SupportAvailable
	n := len(items) + len(support)
	can := func(i, h int) bool {
		list := []string(nil)
		if i < len(items) {
			list = items[i].CanAttack
		} else {
			list = support[i-len(items)].CanSupport
		}
		return slices.Contains(list, s.Targets[h].ID)
	}
	type fig struct {
		p  float64
		ok bool
	}
	memo := map[[2]int]fig{}
	weigh := func(h, mask int) fig {
		if f, ok := memo[[2]int{h, mask}]; ok {
			return f
		}
		ts := *s.Targets[h].Scenario
		ts.Attacker.Units = nil
		for i := range items {
			if mask&(1<<i) != 0 {
				u := items[i]
				u.ID, u.Cost, u.CanAttack = "", 0, nil
				ts.Attacker.Units = append(ts.Attacker.Units, u)
			}
		}
		for j := range support {
			if mask&(1<<(len(items)+j)) != 0 {
				ts.Attacker.GroundSupport += support[j].Factors
			}
		}
		f := fig{}
		if len(ts.Attacker.Units) > 0 {
			c, err := combat.Compile(&ts, tb, nil)
			if err != nil {
				t.Fatal(err)
			}
			sum, err := analysis.RunCombat(context.Background(), c, analysis.Request{Engine: analysis.Exact})
			if err != nil {
				t.Fatal(err)
			}
			f = fig{sum.Probabilities.HexTaken.P, true}
		}
		memo[[2]int{h, mask}] = f
		return f
	}
	factors := func(i int) float64 {
		if i < len(items) {
			return items[i].Factors
		}
		return support[i-len(items)].Factors
	}
	best, bestCost := -1.0, 0.0
	masks := make([]int, len(s.Targets))
	var rec func(i int, cost float64)
	rec = func(i int, cost float64) {
		if i == n {
			value := 0.0
			for h, m := range masks {
				if m == 0 {
					continue
				}
				f := weigh(h, m)
				if !f.ok {
					return
				}
				value += f.p
			}
			if value >= *res.Target-valueTol && (best < 0 || cost < bestCost-costTol || near(cost, bestCost, costTol) && value > best) {
				best, bestCost = value, cost
			}
			return
		}
		rec(i+1, cost)
		for h := range s.Targets {
			if can(i, h) {
				masks[h] |= 1 << i
				rec(i+1, cost+factors(i))
				masks[h] &^= 1 << i
			}
		}
	}
	rec(0, 0)
	got := res.Recommended
	if got == nil || best < 0 {
		t.Fatalf("recommended %v, brute force %v", got, best)
	}
	if !near(got.Cost, bestCost, costTol) || !near(*got.Value, best, 1e-12) {
		t.Errorf("planner: cost %v, expected hexes %v; brute force: cost %v, %v", got.Cost, *got.Value, bestCost, best)
	}
	// The example's header.
	if got.Cost != 34 || fmt.Sprintf("%.3f", *got.Value) != "2.056" {
		t.Errorf("recommended cost %v, value %v; the header says 34 and 2.056", got.Cost, *got.Value)
	}
}

// plan.crts plans under each table: one plan each, the first at the top.
func TestPlanUnderEachTable(t *testing.T) {
	text := hexPlanYAML("standard", "clear", "{units: [{type: INF, factors: 3, nation: USSR}]}", "committed_factors", nil,
		[]unitSpec{{typ: "INF", factors: 4, cost: 4}, {typ: "ARM", factors: 5, cost: 5}}, 0)
	res := planText(t, text, "standard", "2d6")
	if len(res.Plans) != 2 || res.Plans[0].CRT != "standard" || res.Plans[1].CRT != "2d6" || res.TablePlan != res.Plans[0] {
		t.Fatalf("plans %+v", res.Plans)
	}
	if samePairs(frontierPairs(res.Plans[0]), frontierPairs(res.Plans[1])) {
		t.Error("the two tables give the same frontier; the second plan did not use its table")
	}
}

// The answer does not depend on the number of workers, and max_units
// caps every force.
func TestPlanWorkersAndCap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	pool := randomPool(r, 7, nil)
	text := hexPlanYAML("2d6", "forest", defenderYAML(r), "committed_build_points", nil, pool, 3)
	s, err := scenario.Parse("plan.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := crt.Builtin("2d6")
	var first string
	for _, w := range []int{1, 2, 3, 8} {
		res, err := Plan(context.Background(), s, Config{Tables: []Table{{Name: "2d6", Table: tb}}, Workers: w, Target: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Frontier {
			if len(f.Units) > 3 {
				t.Errorf("a force of %d units passes max_units 3", len(f.Units))
			}
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		got := string(b)
		if first == "" {
			first = got
		} else if got != first {
			t.Errorf("%d workers give a different answer", w)
		}
	}
}

// A cancelled plan stops with the context's error.
func TestPlanCancelled(t *testing.T) {
	s, err := scenario.Load("../examples/plan-one-hex.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := crt.Builtin(s.CRT)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Plan(ctx, s, Config{Tables: []Table{{Name: s.CRT, Table: tb}}}); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// A plan over the limit stops before weighing anything, naming what to cap.
func TestPlanTooLarge(t *testing.T) {
	s, err := scenario.Load("../examples/plan-front.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := crt.Builtin(s.CRT)
	_, err = Plan(context.Background(), s, Config{Tables: []Table{{Name: s.CRT, Table: tb}}, MaxForces: 1000})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "plan.max_units") {
		t.Errorf("got %v", err)
	}
}
