package plan

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/scenario"
)

// richUnit is a random land unit with the attributes the state folds
// (type, size, nation, factors, bp) and, now and then, one it keeps apart.
func richUnit(r *rand.Rand) string {
	types := []string{"INF", "INF", "ARM", "MECH", "TERR", "AT", "ART"}
	sizes := []string{"corps", "division", "army"}
	nations := []string{"GE", "GE", "IT", "RO", "JA"}
	typ := types[r.IntN(len(types))]
	extra := ""
	switch r.IntN(12) {
	case 0:
		typ, extra = "AT", ", red_circle: dark"
	case 1:
		extra = ", supply: false, face_down: true"
	}
	u := fmt.Sprintf("type: %s, size: %s, nation: %s, factors: %v%s",
		typ, sizes[r.IntN(len(sizes))], nations[r.IntN(len(nations))], float64(1+r.IntN(12))/2, extra)
	if r.IntN(3) == 0 {
		u += fmt.Sprintf(", bp: %d", 1+r.IntN(5))
	}
	return u
}

// richPlanYAML is a random one-hex plan of up to n available units and
// support, with committed units, options and a target now and then.
func richPlanYAML(r *rand.Rand, seed, n int) string {
	b := &strings.Builder{}
	crtName := []string{"standard", "2d6"}[seed%2]
	fmt.Fprintf(b, "kind: land\ncrt: %s\n", crtName)
	var opts []string
	for _, o := range []string{"blitz-modifier", "territorial-modifiers", "fractional-odds", "kampfgruppe"} {
		if r.IntN(3) == 0 {
			opts = append(opts, o)
		}
	}
	if len(opts) > 0 {
		fmt.Fprintf(b, "options: [%s]\n", strings.Join(opts, ", "))
	}
	// Now and then the table is set, by the scenario or a city, so the
	// ARM counts are not read (no random draw: the other plans stay).
	table, city := map[int]string{7: "table: blitz\n", 17: "table: assault\n"}[seed%20], map[int]string{13: ", city: true"}[seed%20]
	b.WriteString(table)
	fmt.Fprintf(b, "hex: {terrain: %s%s}\n", append([]string{"jungle"}, terrains...)[r.IntN(len(terrains)+1)], city)
	b.WriteString("defender:\n  units:\n")
	for range 1 + r.IntN(2) {
		typ := []string{"INF", "ARM", "AT", "INF"}[r.IntN(4)]
		rc := ""
		if r.IntN(4) == 0 {
			typ, rc = "AT", ", red_circle: light"
		}
		fmt.Fprintf(b, "    - {type: %s, factors: %d, nation: USSR%s}\n", typ, 1+r.IntN(5), rc)
	}
	b.WriteString("attacker:\n")
	if seed%3 == 0 {
		fmt.Fprintf(b, "  units:\n    - {%s}\n", richUnit(r))
	}
	b.WriteString("  available:\n")
	var units []string
	for len(units) < n {
		if len(units) > 0 && r.IntN(4) == 0 {
			units = append(units, units[r.IntN(len(units))]) // a twin
			continue
		}
		units = append(units, richUnit(r))
	}
	for i, u := range units {
		fmt.Fprintf(b, "    - {id: u%d, %s, cost: %d}\n", i, u, 1+r.IntN(6))
	}
	if r.IntN(2) == 0 {
		b.WriteString("  support_available:\n")
		fmt.Fprintf(b, "    - {id: s0, factors: %d, cost: 2}\n", 1+r.IntN(3))
		if r.IntN(2) == 0 {
			fmt.Fprintf(b, "    - {id: s1, factors: %d}\n", 1+r.IntN(3))
		}
	}
	fmt.Fprintf(b, "plan: {cost: %s, target: %v", measures[seed%len(measures)], []float64{0.5, 0.75, 0.9, 0.99}[r.IntN(4)])
	if seed%4 == 1 {
		fmt.Fprintf(b, ", max_units: %d", 1+r.IntN(n))
	}
	b.WriteString("}\n")
	return b.String()
}

// comparable is what a plan answers, with costs rounded past the
// tolerance the frontier compares them in.
func comparable(t *testing.T, tp *TablePlan) string {
	t.Helper()
	type view struct {
		Frontier    []*Force
		Recommended *Force
		Unreached   string
		Marginal    []Change
		Subsets     float64
	}
	v := view{tp.Frontier, tp.Recommended, tp.Unreached, tp.Marginal, tp.EvaluatedSubsets}
	// Expected factors lost reach a state by another sum: equal to 1e-9.
	return roundedJSON(t, v)
}

// roundedJSON is v in JSON with every number rounded to 1e-9.
func roundedJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(roundFloats(m))
	return string(out)
}

func roundFloats(v any) any {
	switch x := v.(type) {
	case float64:
		return fmt.Sprintf("%.9f", x)
	case []any:
		for i := range x {
			x[i] = roundFloats(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = roundFloats(x[k])
		}
	}
	return v
}

// planBoth plans text with the state search and with the reference
// enumeration (one hex) or walk (a front).
func planBoth(t *testing.T, text string, workers int) (got, want *TablePlan) {
	t.Helper()
	s, cfg := parseWithTable(t, text, Config{Workers: workers})
	res, err := Plan(context.Background(), s, cfg)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	pls, err := planners(context.Background(), s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	reference := pls[0].referenceHex
	if len(s.Targets) > 0 {
		reference = pls[0].referenceFront
	}
	ref, err := reference()
	if err != nil {
		t.Fatal(err)
	}
	return res.TablePlan, ref
}

// The state search gives the answer of weighing every force: the same
// frontier (units, cost, every figure), recommendation, shortfalls and
// marginal table, on random pools of up to 16 units under every cost
// measure, with committed units, support, max_units and the options that
// read the folded attributes (fixed seeds). It merges forces: it must
// weigh fewer combats than the reference on the larger pools. On two and
// three workers every layer is built in two halves (layersplit.go), but
// where cost counts build points.
func TestStateSearchIsReference(t *testing.T) {
	withSplitLayerMin(t, 1)
	merged := 0
	for seed := range 60 {
		text := referencePlan(seed)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			got, want := planBoth(t, text, 1+seed%3)
			if g, w := comparable(t, got), comparable(t, want); g != w {
				t.Errorf("state search\n got %s\nwant %s\n%s", g, w, text)
			}
			if got.DistinctCombats < want.DistinctCombats {
				merged++
			}
		})
	}
	if merged < 20 {
		t.Errorf("the state search merged combats in %d of 60 plans", merged)
	}
}

// referencePlan is TestStateSearchIsReference's random plan for seed.
func referencePlan(seed int) string {
	r := rand.New(rand.NewPCG(uint64(seed), 25))
	n := 2 + r.IntN(15)
	if testing.Short() {
		n = min(n, 8)
	}
	return richPlanYAML(r, seed, n)
}

// The folded fields are fields of scenario.Unit, and folding clears them
// and nothing else: a field renamed or added is kept apart, never folded
// unread.
func TestFoldedFields(t *testing.T) {
	u := scenario.Unit{Type: scenario.ARM, Size: "division", Factors: 3, Nation: "GE", BP: 2, Supply: true, Towed: true}
	r := residual(&u)
	want := scenario.Unit{Supply: true, Towed: true}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("residual %+v, want %+v", r, want)
	}
	if isPlain(&u) {
		t.Error("a towed unit folds")
	}
	u.Towed = false
	u.Role = scenario.RoleCombat
	if !isPlain(&u) {
		t.Error("a plain unit does not fold")
	}
	u.Factors = 0.3
	if isPlain(&u) {
		t.Error("a unit of 0.3 factors folds: its sums are not exact")
	}
}

// packedPlan is plan text's pool, state space and layout, and the most
// items a force sends.
func packedPlan(t *testing.T, text string) (*pool, *stateSpace, *layout, int) {
	t.Helper()
	s, cfg := parseWithTable(t, text, Config{})
	p := newPool(s, nil)
	sp := newStateSpace(p, s, cfg.Tables[0].Table, s.Attacker.Units)
	limit := len(p.items)
	if s.Plan.MaxUnits > 0 {
		limit = s.Plan.MaxUnits
	}
	l := newLayout(sp, p, limit)
	return p, sp, l, limit
}

// Packing a state keeps every field: decoding gives back the state, on
// random forces of random plans.
func TestPackedStatesRoundTrip(t *testing.T) {
	for seed := range 20 {
		r := rand.New(rand.NewPCG(uint64(seed), 9))
		p, sp, l, limit := packedPlan(t, richPlanYAML(r, seed, 2+r.IntN(15)))
		k := make([]uint64, l.words)
		for range 50 {
			st := sp.base
			st.exact = append([]uint8(nil), sp.base.exact...)
			st.low = append([]int32(nil), sp.base.low...)
			for c := range p.classes {
				if left := limit - int(st.size); left > 0 {
					sp.add(&st, c, r.IntN(min(len(p.classes[c].items), left)+1))
				}
			}
			l.encode(k, &st)
			var back stateKey
			l.decode(k, &back)
			if g, w := fmt.Sprintf("%+v", back), fmt.Sprintf("%+v", st); g != w {
				t.Fatalf("seed %d: decoded %s, want %s", seed, g, w)
			}
		}
	}
}

// richFrontYAML is a random front of targets hexes and up to n available
// units (twins now and then) and support, each able to attack a random
// set of the hexes, with options, values and max_units now and then.
func richFrontYAML(r *rand.Rand, seed, targets, n int) string {
	b := &strings.Builder{}
	fmt.Fprintf(b, "kind: land\ncrt: %s\n", []string{"standard", "2d6"}[seed%2])
	var opts []string
	for _, o := range []string{"blitz-modifier", "territorial-modifiers", "kampfgruppe"} {
		if r.IntN(4) == 0 {
			opts = append(opts, o)
		}
	}
	if len(opts) > 0 {
		fmt.Fprintf(b, "options: [%s]\n", strings.Join(opts, ", "))
	}
	ids := []string{"A", "B", "C", "D"}[:targets]
	b.WriteString("targets:\n")
	for _, id := range ids {
		fmt.Fprintf(b, "  - {id: %s, hex: {terrain: %s}, defender: %s", id, append([]string{"jungle"}, terrains...)[r.IntN(len(terrains)+1)], defenderYAML(r))
		if r.IntN(3) == 0 {
			fmt.Fprintf(b, ", value: %d", 1+r.IntN(3))
		}
		b.WriteString("}\n")
	}
	can := func() string {
		var cs []string
		for _, id := range ids {
			if r.IntN(3) > 0 {
				cs = append(cs, id)
			}
		}
		if len(cs) == 0 || r.IntN(4) == 0 {
			return ""
		}
		return ", can_attack: [" + strings.Join(cs, ", ") + "]"
	}
	b.WriteString("attacker:\n  available:\n")
	var units []string
	for len(units) < n {
		if len(units) > 0 && r.IntN(4) == 0 {
			units = append(units, units[r.IntN(len(units))]) // a twin
			continue
		}
		units = append(units, richUnit(r)+can())
	}
	for i, u := range units {
		fmt.Fprintf(b, "    - {id: u%d, %s, cost: %d}\n", i, u, 1+r.IntN(6))
	}
	if r.IntN(2) == 0 {
		b.WriteString("  support_available:\n")
		fmt.Fprintf(b, "    - {id: s0, factors: %d, cost: 2%s}\n", 1+r.IntN(3), strings.Replace(can(), "can_attack", "can_support", 1))
	}
	fmt.Fprintf(b, "plan: {cost: %s, target: %v", measures[seed%len(measures)], []float64{0.25, 0.5, 0.75, 1}[r.IntN(4)]*float64(targets))
	if seed%4 == 1 {
		fmt.Fprintf(b, ", max_units: %d", 1+r.IntN(n))
	}
	b.WriteString("}\n")
	return b.String()
}

// The front's state search gives the answer of walking every assignment:
// the same frontier (each hex's units, cost, value, every figure) and
// recommendation, on random fronts of 1 to 3 hexes and up to 12 units
// under every cost measure, with support, max_units and options, for 1 to
// 3 workers (fixed seeds). It merges assignments: on the larger fronts it
// keeps fewer states than the walk's assignments.
func TestFrontStateSearchIsReference(t *testing.T) {
	withStateSearch(t)
	frontIsReference(t)
}

// Deciding hexes (frontdecide.go) gives the answer of walking every
// assignment on the same fronts: on those it covers (the expected hexes
// against a committed cost, no max_units), it plans them, and the rest
// take the front's state search.
func TestDecidedFrontIsReference(t *testing.T) {
	before := decided.Load()
	frontIsReference(t)
	if n := decided.Load() - before; n < 5 {
		t.Errorf("deciding hexes planned %d of the 40 fronts", n)
	}
}

// frontIsReference is TestFrontStateSearchIsReference on the searches in
// force.
func frontIsReference(t *testing.T) {
	merged := 0
	for seed := range 40 {
		r := rand.New(rand.NewPCG(uint64(seed), 26))
		n := 2 + r.IntN(11)
		if testing.Short() {
			n = min(n, 7)
		}
		text := richFrontYAML(r, seed, 1+seed%3, n)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			res, ref := planBoth(t, text, 1+seed%3)
			if g, w := comparable(t, res), comparable(t, ref); g != w {
				t.Errorf("state search\n got %s\nwant %s\n%s", g, w, text)
			}
			if len(res.Frontier) == 0 && ref.Unreached == "" {
				t.Errorf("no frontier\n%s", text)
			}

			if float64(res.States) < ref.EvaluatedSubsets/2 {
				merged++
			}
		})
	}
	// Fronts of at most 7 units (-short) merge less.
	if want := map[bool]int{false: 10, true: 5}[testing.Short()]; merged < want {
		t.Errorf("the state search merged assignments in %d of 40 fronts", merged)
	}
}

// A front too wide to number its assignments in 64 bits (8 hexes, 9
// units) sorts them by their counts: the same answer as the walk.
func TestWideFrontIsReference(t *testing.T) {
	for seed := range 3 {
		r := rand.New(rand.NewPCG(uint64(seed), 27))
		text := bigFront(8, 9)
		var b strings.Builder
		for line := range strings.Lines(text) {
			if strings.Contains(line, "nation: GE}") {
				a, c := r.IntN(8), r.IntN(8)
				line = strings.Replace(line, "nation: GE}", fmt.Sprintf("nation: GE, can_attack: [T%d, T%d]}", a, c), 1)
			}
			b.WriteString(line)
		}
		b.WriteString(fmt.Sprintf("plan: {cost: %s}\n", measures[seed%len(measures)]))
		got, want := planBoth(t, b.String(), 1+seed%2)
		if g, w := comparable(t, got), comparable(t, want); g != w {
			t.Errorf("state search\n got %s\nwant %s\n%s", g, w, b.String())
		}
		if len(got.Frontier) < 2 {
			t.Errorf("a frontier of %d points tests little\n%s", len(got.Frontier), b.String())
		}
	}
}

// A packed step adds an item as stateSpace.add does: on random forces of
// random plans, stepping each class's items into the packed state gives
// the encoding of the state built by add (every field: saturated counts,
// flags, nations, an HQ's room and the smallest factors).
func TestPackedStepIsAdd(t *testing.T) {
	for seed := range 60 {
		r := rand.New(rand.NewPCG(uint64(seed), 31))
		text := richPlanYAML(r, seed, 2+r.IntN(15))
		if seed >= 40 { // ships, HQs, aircraft, invasions
			text, _, _, _ = poolHexYAML(r, seed, []string{"standard", "2d6"}[seed%2], measures[seed%len(measures)])
		}
		p, sp, l, limit := packedPlan(t, text)
		steps := newSteps(sp, l)
		k, want := make([]uint64, l.words), make([]uint64, l.words)
		for range 50 {
			st := sp.base
			st.exact = append([]uint8(nil), sp.base.exact...)
			st.low = append([]int32(nil), sp.base.low...)
			l.encode(k, &st)
			for c := range p.classes {
				top := min(len(p.classes[c].items), limit-l.sizeOf(k), l.room(k, &steps[c]))
				if w := min(len(p.classes[c].items), limit-int(st.size), sp.room(&st, c)); w != top {
					t.Fatalf("seed %d class %d: packed room %d, want %d", seed, c, top, w)
				}
				for range r.IntN(top + 1) {
					sp.add(&st, c, 1)
					l.step(k, &steps[c])
					l.encode(want, &st)
					if !slices.Equal(k, want) {
						t.Fatalf("seed %d class %d: stepped %x, want %x (%+v)", seed, c, k, want, st)
					}
				}
			}
		}
	}
}
