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

// defenceCase is a generated defender's plan.
type defenceCase struct {
	crt      string
	terrain  string
	stacking bool
	measure  string
	maxUnits int
	target   float64
	garrison []string // the hex's own defenders, as YAML flow maps
	reserves []string // defender.available
	fixed    []string // attacker.units
	attack   []string // attacker.available
	support  []int    // attacker.support_available factors
}

func (c *defenceCase) yaml() string {
	b := &strings.Builder{}
	fmt.Fprintf(b, "name: gen\nkind: land\ncrt: %s\nhex: {terrain: %s}\n", c.crt, c.terrain)
	if c.stacking {
		b.WriteString("options: [stacking]\n")
	}
	b.WriteString("attacker:\n")
	if len(c.fixed) > 0 {
		b.WriteString("  units:\n")
		for _, u := range c.fixed {
			fmt.Fprintf(b, "    - %s\n", u)
		}
	}
	if len(c.attack) > 0 {
		b.WriteString("  available:\n")
		for i, u := range c.attack {
			fmt.Fprintf(b, "    - {id: a%d, %s}\n", i, u)
		}
	}
	if len(c.support) > 0 {
		b.WriteString("  support_available:\n")
		for i, f := range c.support {
			fmt.Fprintf(b, "    - {id: s%d, factors: %d}\n", i, f)
		}
	}
	b.WriteString("defender:\n  units:\n")
	for _, u := range c.garrison {
		fmt.Fprintf(b, "    - %s\n", u)
	}
	b.WriteString("  available:\n")
	for i, u := range c.reserves {
		fmt.Fprintf(b, "    - {id: r%d, %s}\n", i, u)
	}
	fmt.Fprintf(b, "plan: {side: defender, cost: %s, target: %v", c.measure, c.target)
	if c.maxUnits > 0 {
		fmt.Fprintf(b, ", max_units: %d", c.maxUnits)
	}
	b.WriteString("}\n")
	return b.String()
}

// randomUnits draws n units of a nation, some of them twins (so that
// interchangeable reserves and attackers occur), some with a cost.
func randomUnits(r *rand.Rand, n int, nation string, costs bool) []string {
	types := []string{"INF", "ARM", "MECH", "INF"}
	sizes := []string{"corps", "corps", "division"}
	var out []string
	for len(out) < n {
		if len(out) > 0 && r.IntN(4) == 0 {
			out = append(out, out[r.IntN(len(out))])
			continue
		}
		u := fmt.Sprintf("type: %s, size: %s, factors: %d, nation: %s", types[r.IntN(len(types))], sizes[r.IntN(len(sizes))], 1+r.IntN(6), nation)
		if costs && r.IntN(3) == 0 {
			u += fmt.Sprintf(", cost: %d", r.IntN(9))
		}
		out = append(out, u)
	}
	return out
}

func randomDefenceCase(r *rand.Rand, nRes, nAtt int) *defenceCase {
	c := &defenceCase{
		crt:      []string{"standard", "2d6"}[r.IntN(2)],
		terrain:  []string{"clear", "forest", "mountain", "swamp"}[r.IntN(4)],
		stacking: r.IntN(4) == 0,
		measure:  []string{"committed_factors", "committed_units", "committed_build_points"}[r.IntN(3)],
		target:   []float64{0.3, 0.5, 0.75, 0.9}[r.IntN(4)],
		garrison: randomUnits(r, 1+r.IntN(2), "USSR", false),
		reserves: randomUnits(r, nRes, "USSR", true),
	}
	for i := range c.garrison {
		c.garrison[i] = "{" + c.garrison[i] + "}"
	}
	if r.IntN(4) == 0 {
		c.maxUnits = 1 + r.IntN(nRes)
	}
	switch r.IntN(5) {
	case 0: // the attacker fixed
		c.fixed = randomUnits(r, 1+r.IntN(4), "GE", false)
	case 1: // committed units and more to choose from
		c.fixed = randomUnits(r, 1, "GE", false)
		c.attack = randomUnits(r, nAtt-1, "GE", true)
	default:
		c.attack = randomUnits(r, nAtt, "GE", true)
		if r.IntN(3) == 0 {
			c.attack = c.attack[:nAtt-1]
			c.support = []int{1 + r.IntN(3)}
		}
	}
	for i := range c.fixed {
		c.fixed[i] = "{" + c.fixed[i] + "}"
	}
	return c
}

// bruteTaken is P(hex taken) of the hex's defenders plus the reserves in
// resMask against the attacker's fixed units plus the available units and
// support in attMask: the scenario written out by hand, compiled and
// enumerated exactly by analysis, nothing of Defend or Plan used.
func bruteTaken(t *testing.T, s *scenario.Scenario, table *crt.Table, resMask, attMask uint32) float64 {
	t.Helper()
	x := *s
	x.Plan = nil
	x.Defender.Units = slices.Clone(s.Defender.Units)
	x.Defender.Available = nil
	for i := range s.Defender.Available {
		if resMask>>i&1 == 1 {
			x.Defender.Units = append(x.Defender.Units, s.Defender.Available[i].Combatant())
		}
	}
	x.Attacker.Units = slices.Clone(s.Attacker.Units)
	x.Attacker.Available, x.Attacker.SupportAvailable = nil, nil
	na := len(s.Attacker.Available)
	for i := range s.Attacker.Available {
		if attMask>>i&1 == 1 {
			x.Attacker.Units = append(x.Attacker.Units, s.Attacker.Available[i].Combatant())
		}
	}
	for i, sp := range s.Attacker.SupportAvailable {
		if attMask>>(na+i)&1 == 1 {
			x.Attacker.GroundSupport += sp.Factors
		}
	}
	c, err := combat.CompileWith(&x, table, nil, combat.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := analysis.RunCombat(context.Background(), c, analysis.Request{Engine: analysis.Exact})
	if err != nil {
		t.Fatal(err)
	}
	return sum.Probabilities.HexTaken.P
}

// bruteSet is a reserve set as the brute force weighs it.
type bruteSet struct {
	idx   []int
	ids   []string
	cost  float64
	taken float64
	best  map[string]bool // the attacker's forces (as joined ids) that reach taken
}

// before is the documented order of reserve sets of equal cost and
// chance: fewer units, then the earlier listed.
func (a *bruteSet) before(b *bruteSet) bool {
	if len(a.idx) != len(b.idx) {
		return len(a.idx) < len(b.idx)
	}
	return slices.Compare(a.idx, b.idx) < 0
}

// bruteDefence weighs every reserve set against every attacking force.
func bruteDefence(t *testing.T, s *scenario.Scenario, table *crt.Table) []*bruteSet {
	nr := len(s.Defender.Available)
	na := len(s.Attacker.Available) + len(s.Attacker.SupportAvailable)
	var out []*bruteSet
	for rm := uint32(0); rm < 1<<nr; rm++ {
		set := &bruteSet{best: map[string]bool{}}
		var stack []scenario.Unit
		stack = append(stack, s.Defender.Units...)
		for i, u := range s.Defender.Available {
			if rm>>i&1 == 1 {
				set.idx = append(set.idx, i)
				set.ids = append(set.ids, u.ID)
				stack = append(stack, u)
				switch s.Plan.Cost {
				case scenario.CommittedUnits:
					set.cost++
				case scenario.CommittedBuildPoints:
					set.cost += u.Cost
				default:
					set.cost += u.Factors
				}
			}
		}
		if m := s.Plan.MaxUnits; m > 0 && len(set.idx) > m {
			continue
		}
		if s.Has(scenario.Stacking) {
			corps := 0
			for _, u := range stack {
				if u.Size == "corps" || u.Size == "army" {
					corps++
				}
			}
			if len(stack) > 3 || corps > 2 {
				continue
			}
		}
		type force struct {
			key string
			p   float64
		}
		var forces []force
		for am := uint32(0); am < 1<<na; am++ {
			land := len(s.Attacker.Units) > 0 || am&(1<<len(s.Attacker.Available)-1) != 0
			if !land {
				continue // support alone, or nothing, is no attack
			}
			var ids []string
			for i := range na {
				if am>>i&1 == 1 {
					if i < len(s.Attacker.Available) {
						ids = append(ids, s.Attacker.Available[i].ID)
					} else {
						ids = append(ids, s.Attacker.SupportAvailable[i-len(s.Attacker.Available)].ID)
					}
				}
			}
			forces = append(forces, force{strings.Join(ids, "+"), bruteTaken(t, s, table, rm, am)})
		}
		for _, f := range forces {
			set.taken = max(set.taken, f.p)
		}
		for _, f := range forces {
			if within(f.p, set.taken, chanceTol) {
				set.best[f.key] = true
			}
		}
		out = append(out, set)
	}
	return out
}

// bruteFrontier is the Pareto set by its definition: a reserve set is on it
// when no other is as cheap and as safe and better in one, or equal in
// both and first in the documented order.
func bruteFrontier(sets []*bruteSet) []*bruteSet {
	var out []*bruteSet
	for _, x := range sets {
		dominated := false
		for _, y := range sets {
			if y == x {
				continue
			}
			cheaper, sameCost := y.cost < x.cost-reserveCostTol, within(y.cost, x.cost, reserveCostTol)
			safer, sameRisk := y.taken < x.taken-chanceTol, within(y.taken, x.taken, chanceTol)
			if (cheaper || sameCost) && (safer || sameRisk) && (cheaper || safer || y.before(x)) {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, x)
		}
	}
	slices.SortFunc(out, func(a, b *bruteSet) int {
		switch {
		case a.cost < b.cost:
			return -1
		case a.cost > b.cost:
			return 1
		}
		return 0
	})
	return out
}

// The defender's answer is the brute force over (reserves x attacker
// subsets) on random pools of up to 8 + 8 units: each reserve set's P(hex
// taken) is the most any attacking force reaches, the response named is
// one that reaches it, the frontier is the Pareto set, and the
// recommendation the cheapest set within 1 - target (docs/planner.md, The
// defender's question).
func TestDefendIsBruteForce(t *testing.T) {
	sizes := [][2]int{{3, 4}, {4, 3}, {5, 5}, {2, 6}, {6, 2}, {4, 5}, {5, 4}, {3, 6}, {6, 3}, {5, 6}, {6, 5}, {7, 4}, {4, 7}, {6, 6}, {7, 7}, {8, 8}}
	if testing.Short() {
		sizes = sizes[:len(sizes)-1]
	}
	for seed, size := range sizes {
		r := rand.New(rand.NewPCG(uint64(seed), 28))
		c := randomDefenceCase(r, size[0], size[1])
		text := c.yaml()
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			s, err := scenario.Parse("gen.yaml", []byte(text))
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			table, err := crt.Builtin(c.crt)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Defend(context.Background(), s, Config{Tables: []Table{{Name: c.crt, Table: table}}, Workers: 1 + seed%3})
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			sets := bruteDefence(t, s, table)
			t.Logf("%d+%d units, fixed %d, stacking %v, max_units %d: %d sets, %d distinct, frontier %d, recommended %v", len(c.reserves), len(c.attack)+len(c.support), len(c.fixed), c.stacking, c.maxUnits, len(sets), res.DistinctDefences, len(res.Frontier), res.Recommended != nil)
			if res.ReserveSets != len(sets) {
				t.Errorf("%d reserve sets weighed; brute force %d", res.ReserveSets, len(sets))
			}
			byIDs := map[string]*bruteSet{}
			for _, b := range sets {
				byIDs[strings.Join(b.ids, "+")] = b
			}
			want := bruteFrontier(sets)
			if len(res.Frontier) != len(want) {
				t.Fatalf("frontier of %d; brute force %d\n%s", len(res.Frontier), len(want), text)
			}
			for i, f := range res.Frontier {
				w := want[i]
				if !slices.Equal(f.Units, w.ids) || f.Cost != w.cost || !within(f.HexTaken, w.taken, 1e-12) || f.HexHeld != 1-f.HexTaken {
					t.Errorf("frontier point %d: %v cost %v taken %v; brute force %v cost %v taken %v", i, f.Units, f.Cost, f.HexTaken, w.ids, w.cost, w.taken)
				}
				b := byIDs[strings.Join(f.Units, "+")]
				switch {
				case f.Response == nil && b.taken != 0:
					t.Errorf("frontier point %d: no response, yet the attacker takes the hex with %v", i, b.taken)
				case f.Response != nil && f.Response.HexTaken.P != f.HexTaken:
					t.Errorf("frontier point %d: the response takes the hex with %v, the point says %v", i, f.Response.HexTaken.P, f.HexTaken)
				case f.Response != nil && len(c.attack)+len(c.support) > 0 && !b.best[strings.Join(f.Response.Units, "+")]:
					t.Errorf("frontier point %d: the response %v is not a best one (%v)", i, f.Response.Units, b.best)
				}
			}
			// The recommendation: the cheapest within 1 - target; at one
			// cost the safest, then fewer units, then the earlier listed.
			var rec *bruteSet
			for _, b := range sets {
				if b.taken > 1-c.target+chanceTol {
					continue
				}
				if rec == nil || b.cost < rec.cost-reserveCostTol ||
					within(b.cost, rec.cost, reserveCostTol) && (b.taken < rec.taken-chanceTol || within(b.taken, rec.taken, chanceTol) && b.before(rec)) {
					rec = b
				}
			}
			switch {
			case rec == nil && res.Recommended != nil:
				t.Errorf("recommended %v; brute force: no set holds", res.Recommended.Units)
			case rec == nil && res.Unreached == "":
				t.Error("no recommendation and no word why")
			case rec != nil && (res.Recommended == nil || !slices.Equal(res.Recommended.Units, rec.ids)):
				t.Errorf("recommended %+v; brute force %v\n%s", res.Recommended, rec.ids, text)
			}
		})
	}
}

// Every subset of up to 16 reserves is weighed; more are refused before
// anything is allocated, as are too many pairs for --max-forces.
func TestDefendBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 28))
	c := randomDefenceCase(r, 4, 4)
	c.fixed, c.attack, c.support = nil, randomUnits(r, 4, "GE", true), nil
	s, err := scenario.Parse("gen.yaml", []byte(c.yaml()))
	if err != nil {
		t.Fatal(err)
	}
	table, _ := crt.Builtin(c.crt)
	cfg := Config{Tables: []Table{{Name: c.crt, Table: table}}, MaxForces: 255}
	if _, err := Defend(context.Background(), s, cfg); !errors.Is(err, ErrTooLarge) {
		t.Errorf("2^8 pairs over a limit of 255: %v", err)
	}
	cfg.MaxForces = 256
	if _, err := Defend(context.Background(), s, cfg); err != nil {
		t.Errorf("2^8 pairs within a limit of 256: %v", err)
	}
	big := *s
	big.Defender.Available = slices.Repeat(s.Defender.Available[:1], scenario.MaxReserves+1)
	if _, err := Defend(context.Background(), &big, cfg); err == nil || !strings.Contains(err.Error(), "want 1 to 16") {
		t.Errorf("17 reserves: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Defend(ctx, s, cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// The answer does not depend on the number of workers.
func TestDefendWorkers(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 28))
	c := randomDefenceCase(r, 5, 5)
	s, err := scenario.Parse("gen.yaml", []byte(c.yaml()))
	if err != nil {
		t.Fatal(err)
	}
	table, _ := crt.Builtin(c.crt)
	var first []byte
	for _, w := range []int{1, 2, 5} {
		res, err := Defend(context.Background(), s, Config{Tables: []Table{{Name: c.crt, Table: table}}, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = b
		} else if string(b) != string(first) {
			t.Errorf("%d workers differ", w)
		}
	}
	if len(first) == 0 {
		t.Fatal("empty answer")
	}
}

// BenchmarkDefend answers a defender's plan of 8 reserves against an
// attacker choosing from 8 units (256 reserve sets, each a plan over 256
// forces), on one goroutine.
func BenchmarkDefend(b *testing.B) {
	r := rand.New(rand.NewPCG(99, 28))
	c := randomDefenceCase(r, 8, 8)
	c.fixed, c.support, c.stacking, c.maxUnits = nil, nil, false, 0
	c.attack = randomUnits(r, 8, "GE", true)
	s, err := scenario.Parse("gen.yaml", []byte(c.yaml()))
	if err != nil {
		b.Fatal(err)
	}
	table, _ := crt.Builtin(c.crt)
	cfg := Config{Tables: []Table{{Name: c.crt, Table: table}}, Workers: 1}
	var res *Defence
	for b.Loop() {
		if res, err = Defend(context.Background(), s, cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.DistinctDefences), "defences")
	b.ReportMetric(float64(res.AttackerCombats), "combats")
}
