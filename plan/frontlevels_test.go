package plan

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// levelsAgree plans s by the front search and by deciding hexes and
// reports where their frontiers' costs and values differ (and the front
// search's points); each point's assignment must also reach its value
// and cost when its hexes' forces are weighed afresh. With forces, each
// point's assignment must be the front search's too.
func levelsAgree(t testing.TB, s *scenario.Scenario, cfg Config, forces bool) (levelStats, int, string) {
	t.Helper()
	pls, err := planners(context.Background(), s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	pl := pls[0]
	r, err := pl.frontLevels(forces)
	if err != nil {
		t.Fatal(err)
	}
	pts, st := r.pts, r.st
	// The front's state search, deciding hexes off.
	old := decideHexes
	decideHexes = false
	res, err := Plan(context.Background(), s, cfg)
	decideHexes = old
	if err != nil {
		t.Fatal(err)
	}
	want := res.TablePlan.Frontier
	var diff []string
	if len(pts) != len(want) {
		diff = append(diff, fmt.Sprintf("%d points, want %d", len(pts), len(want)))
	}
	for i := range min(len(pts), len(want)) {
		if g, w := pts[i], want[i]; !near(g.cost, w.Cost, 1e-9) || !near(g.value, *w.Value, 1e-9) {
			diff = append(diff, fmt.Sprintf("point %d: cost %v value %v, want %v %v", i, g.cost, g.value, w.Cost, *w.Value))
		}
	}
	nt, nc := len(s.Targets), len(pl.e.pool.classes)
	total := make(counts, nc)
	for i, p := range pts {
		value := 0.0
		clear(total)
		for h := range nt {
			x := counts(p.x[h*nc : (h+1)*nc])
			for c, k := range x {
				total[c] += k
			}
			if x.size() == 0 {
				continue
			}
			v, err := pl.e.eval(h, pl.k, x)
			if err != nil {
				t.Fatal(err)
			}
			value += s.Targets[h].Value * v.HexTaken.P
		}
		if c := pl.costOf(total, 0, 0); !near(c, p.cost, 1e-9) || !near(value, p.value, 1e-9) {
			diff = append(diff, fmt.Sprintf("point %d's assignment costs %v and is worth %v, not %v and %v", i, c, value, p.cost, p.value))
		}
		if forces && i < len(want) {
			if g, w := fmt.Sprint(unitsOf(pl.e.pool, p.x, nt)), fmt.Sprint(hexUnits(want[i])); g != w {
				diff = append(diff, fmt.Sprintf("point %d's force %s, want %s", i, g, w))
			}
		}
	}
	return st, len(want), strings.Join(diff, "; ")
}

// unitsOf is the units an assignment (target-major counts) sends to each
// of nt hexes: of each class, the first hex the cheapest items, as the
// front's answer lists them.
func unitsOf(p *pool, xs []uint8, nt int) [][]string {
	nc := len(p.classes)
	next := make([]int, nc)
	out := make([][]string, nt)
	for t := range nt {
		var items []int
		for c, k := range xs[t*nc : (t+1)*nc] {
			items = append(items, p.classes[c].items[next[c]:next[c]+int(k)]...)
			next[c] += int(k)
		}
		slices.Sort(items)
		out[t] = p.ids(items)
	}
	return out
}

// hexUnits is the units a front's force sends to each hex.
func hexUnits(f *Force) [][]string {
	var out [][]string
	for _, h := range f.Hexes {
		out = append(out, h.Units)
	}
	return out
}

// inLevelsScope reports whether the prototype takes s: a committed cost,
// no support pool, max_units or committed units (richFrontYAML writes
// no objective unless asked).
func inLevelsScope(s *scenario.Scenario) bool {
	switch s.Plan.Cost {
	case scenario.ExpectedFactorsLost, scenario.ExpectedUnitsLost:
		return false
	}
	return len(s.Attacker.SupportAvailable) == 0 && s.Plan.MaxUnits == 0 && len(s.Attacker.Units) == 0
}

// Deciding hexes finds the front search's frontier (every point's cost
// and value; not its forces) on richFrontYAML's random fronts in its
// scope: 2 to 4 hexes and up to 14 units (10 on 3, 8 on 4), twins,
// narrowed can_attack, values and options, the three committed costs
// (fixed seeds).
func TestFrontLevelsIsFrontSearch(t *testing.T) {
	fronts := 60
	if testing.Short() {
		fronts = 20
	}
	solved, joined, stairs, points, priced, want := 0, 0, 0, 0, 0, 2*fronts
	levelFronts(t, fronts, 0, 61, func(seed int, text string, s *scenario.Scenario, cfg Config) {
		st, n, diff := levelsAgree(t, s, cfg, true)
		if diff != "" {
			t.Errorf("seed %d: %s\n%s", seed, diff, text)
		}
		solved += st.Solved
		joined += st.Joined
		stairs += st.Stairs
		points += n
		if st.Priced {
			priced++
		}
	})
	if solved == 0 || joined == 0 || stairs == 0 || points < want || priced == 0 {
		t.Errorf("%d combinations searched, %d joined for forces, %d searched bounded by cost, %d frontier points, %d fronts priced: the test tests little", solved, joined, stairs, points, priced)
	}
	t.Logf("%d combinations searched, %d joined for forces, %d searched bounded by cost, %d frontier points, %d fronts priced", solved, joined, stairs, points, priced)
}

// frontCut is benchmarks/scenarios/plan-front-4x24.yaml with its first n
// available units, ready to plan.
func frontCut(t testing.TB, n int) (*scenario.Scenario, Config) {
	t.Helper()
	s, err := scenario.Load("../benchmarks/scenarios/plan-front-4x24.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s.Attacker.Available = s.Attacker.Available[:n]
	tb, err := crt.Builtin(s.CRT)
	if err != nil {
		t.Fatal(err)
	}
	return s, Config{Tables: []Table{{Name: s.CRT, Table: tb}}}
}

// Deciding hexes finds the front search's frontier, forces included, when
// some units cost nothing (cost: 0 under committed build points): a hex
// whose need is 0 is at its level only if its state already reaches it,
// not while items costing nothing are still to send (the point found at
// no cost with nothing sent, which the forces could not realise, was an
// error before). The worked case, then richFrontYAML's random fronts
// with a third of their units made free (fixed seeds).
func TestFrontLevelsZeroCost(t *testing.T) {
	text := `kind: land
crt: standard
targets:
  - {id: A, hex: {terrain: clear}, defender: {units: [{type: INF, factors: 1, nation: USSR}]}}
  - {id: B, hex: {terrain: clear}, defender: {units: [{type: INF, factors: 1, nation: USSR}]}}
attacker:
  available:
    - {id: z, type: INF, size: army, nation: GE, factors: 6, cost: 0}
    - {id: p, type: INF, size: army, nation: GE, factors: 6, cost: 3}
plan: {cost: committed_build_points, target: 0.5}
`
	s, cfg := parseWithTable(t, text, Config{})
	if _, _, diff := levelsAgree(t, s, cfg, true); diff != "" {
		t.Errorf("the worked case: %s", diff)
	}
	fronts, checked := 40, 0
	if testing.Short() {
		fronts = 15
	}
	for seed := 0; checked < fronts; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 89))
		targets := 2 + seed%3
		var lines []string
		for _, l := range strings.Split(richFrontYAML(r, seed, targets, 4+r.IntN([]int{9, 6, 4}[targets-2])), "\n") {
			if strings.HasPrefix(l, "    - {id: u") && r.IntN(3) == 0 {
				l = l[:strings.LastIndex(l, "cost: ")] + "cost: 0}"
			}
			if strings.HasPrefix(l, "plan: {cost: ") {
				l = "plan: {cost: committed_build_points" + l[strings.Index(l, ","):]
			}
			lines = append(lines, l)
		}
		text := strings.Join(lines, "\n")
		s, cfg := parseWithTable(t, text, Config{})
		if !inLevelsScope(s) || !strings.Contains(text, "cost: 0}") {
			continue
		}
		checked++
		if _, _, diff := levelsAgree(t, s, cfg, true); diff != "" {
			t.Errorf("seed %d: %s\n%s", seed, diff, text)
		}
	}
}

// Deciding hexes finds the front search's frontier on the 16-, 18- and
// 20-unit cuts of issue 25's front (the 20 only without -short: the
// front search takes seconds).
func TestFrontLevelsCuts(t *testing.T) {
	cuts := []int{16, 18, 20}
	if testing.Short() {
		cuts = cuts[:1]
	}
	for _, n := range cuts {
		t.Run(fmt.Sprintf("4x%d", n), func(t *testing.T) {
			s, cfg := frontCut(t, n)
			st, _, diff := levelsAgree(t, s, cfg, true)
			if diff != "" {
				t.Error(diff)
			}
			if st.Joined == 0 {
				t.Error("no combination joined for forces")
			}
			if !st.Priced {
				t.Error("the front's bound not priced (frontlevelprice.go)")
			}
			t.Logf("levels %v, combinations %d, skipped %d, searched %d, nodes %d; forces: %d searches (%d joined), %d nodes, %d assignments weighed", st.Levels, st.Combos, st.Skip, st.Solved, st.Nodes, st.TieSearches, st.Joined, st.TieNodes, st.TieLeaves)
		})
	}
}

// Deciding hexes refuses, with an error saying what, each front outside
// its scope: a cost in losses, a chance objective, requires, max_units,
// committed units, a support pool.
func TestFrontLevelsRefusesOutOfScope(t *testing.T) {
	cases := []struct {
		name string
		edit func(*scenario.Scenario)
		want string
	}{
		{"loss cost", func(s *scenario.Scenario) { s.Plan.Cost = scenario.ExpectedFactorsLost }, "committed cost"},
		{"objective", func(s *scenario.Scenario) { s.Plan.Objective = scenario.ObjectiveAll }, "expected hexes"},
		{"requires", func(s *scenario.Scenario) { s.Targets[1].Requires = []int{0} }, "requires"},
		{"max_units", func(s *scenario.Scenario) { s.Plan.MaxUnits = 3 }, "max_units"},
		{"committed units", func(s *scenario.Scenario) { s.Attacker.Units = s.Attacker.Available[:1] }, "committed units"},
		{"support", func(s *scenario.Scenario) {
			s.Attacker.SupportAvailable = []scenario.Support{{ID: "s0", Factors: 2}}
		}, "support pool"},
	}
	for _, c := range cases {
		s, cfg := frontCut(t, 6)
		c.edit(s)
		pls, err := planners(context.Background(), s, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pls[0].frontLevels(false); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// BenchmarkFrontLevels finds the frontier of issue 25's front and its
// cuts by deciding hexes, its values and costs alone and with its forces,
// reporting the combinations searched, the branch and bound's nodes, the
// assignments weighed for the forces and the heap.
func BenchmarkFrontLevels(b *testing.B) {
	for _, n := range []int{16, 18, 20, 24} {
		for _, forces := range []bool{false, true} {
			name := fmt.Sprintf("4x%d/values", n)
			if forces {
				name = fmt.Sprintf("4x%d/forces", n)
			}
			b.Run(name, func(b *testing.B) {
				s, cfg := frontCut(b, n)
				var r *levelRun
				for b.Loop() {
					pls, err := planners(context.Background(), s, cfg)
					if err != nil {
						b.Fatal(err)
					}
					if r, err = pls[0].frontLevels(forces); err != nil {
						b.Fatal(err)
					}
				}
				st := r.st
				b.ReportMetric(float64(len(r.pts)), "points")
				b.ReportMetric(float64(st.Combos), "combos")
				b.ReportMetric(float64(st.Solved), "searched")
				b.ReportMetric(float64(st.Nodes), "nodes")
				b.ReportMetric(float64(st.TieNodes), "tie-nodes")
				b.ReportMetric(float64(st.TieLeaves), "tie-leaves")
				reportHeap(b)
			})
		}
	}
}

// Joining the hexes' forces (frontjoin.go) gives each frontier point the
// assignment the search for forces gives (searchCombo on every
// combination), on richFrontYAML's random fronts in deciding hexes'
// scope, twins and narrowed can_attack among them (fixed seeds).
func TestJoinIsSearch(t *testing.T) {
	fronts := 60
	if testing.Short() {
		fronts = 20
	}
	joined, points := 0, 0
	levelFronts(t, fronts, 1000, 67, func(seed int, text string, s *scenario.Scenario, cfg Config) {
		got, want := levelsWith(t, s, cfg, &joinForces, true), levelsWith(t, s, cfg, &joinForces, false)
		if fmt.Sprint(got.pts) != fmt.Sprint(want.pts) {
			t.Errorf("seed %d: joined %v\nsearched %v\n%s", seed, got.pts, want.pts, text)
		}
		joined += got.st.Joined
		points += len(got.pts)
	})
	if 2*joined < points {
		t.Errorf("%d combinations joined for %d points: the test tests little", joined, points)
	}
	t.Logf("%d combinations joined for %d points", joined, points)
}

// levelFronts calls f on n of richFrontYAML's random fronts in deciding
// hexes' scope, 2 to 4 hexes and up to 14 units (10 on 3, 8 on 4), their
// seeds from seed on (the stream fixed).
func levelFronts(t *testing.T, n, seed int, stream uint64, f func(seed int, text string, s *scenario.Scenario, cfg Config)) {
	t.Helper()
	for ; n > 0; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), stream))
		targets := 2 + seed%3
		text := richFrontYAML(r, seed, targets, 4+r.IntN([]int{11, 7, 5}[targets-2]))
		s, cfg := parseWithTable(t, text, Config{})
		if !inLevelsScope(s) {
			continue
		}
		n--
		f(seed, text, s, cfg)
	}
}

// The scan takes a combination searched ahead by an idle worker as if it
// had searched it itself (frontlevelahead.go): here every combination is
// searched ahead against the scan's first least cost, the stalest a
// worker can see, and the scan finds the same points (cost, value and
// assignment) and counts the same combinations, on random fronts.
func TestScanAheadIsScan(t *testing.T) {
	fronts, taken := 40, 0
	if testing.Short() {
		fronts = 15
	}
	levelFronts(t, fronts, 500, 71, func(seed int, text string, s *scenario.Scenario, cfg Config) {
		prepare := func() *levelRun { return prepareLevels(t, s, cfg) }
		want := prepare()
		wantPts, err := want.scan(nil)
		if err != nil {
			t.Fatal(err)
		}
		got := prepare()
		fp := &forcePipe{pl: &planner{}, r: got}
		fp.cond = sync.NewCond(&fp.mu)
		fp.ahead, fp.spare = map[int]*aheadResult{}, make([]uint8, len(got.ls.best))
		w := got.ls.fork(nil)
		for n, cb := range got.list {
			ok := w.solve(cb.code, got.levels, got.ls.above())
			fp.ahead[n] = &aheadResult{done: true, found: ok, cost: w.m, x: slices.Clone(w.best)}
		}
		gotPts, err := got.scan(fp)
		if err != nil {
			t.Fatal(err)
		}
		taken += len(got.list) - len(fp.ahead)
		if fmt.Sprint(derefPoints(gotPts)) != fmt.Sprint(derefPoints(wantPts)) || got.st.Solved != want.st.Solved || got.st.Skip != want.st.Skip {
			t.Errorf("seed %d: searched ahead %v (%d searched, %d skipped), want %v (%d, %d)\n%s", seed,
				derefPoints(gotPts), got.st.Solved, got.st.Skip, derefPoints(wantPts), want.st.Solved, want.st.Skip, text)
		}
		if len(fp.queue) != len(wantPts) {
			t.Errorf("seed %d: %d points handed over, want %d", seed, len(fp.queue), len(wantPts))
		}
	})
	if taken == 0 {
		t.Error("the scan took no combination searched ahead: the test tests nothing")
	}
	t.Logf("%d combinations taken from the search ahead", taken)
}

func derefPoints(pts []*levelPoint) []levelPoint {
	var out []levelPoint
	for _, p := range pts {
		out = append(out, *p)
	}
	return out
}

// prepareLevels is deciding hexes readied for s, before its scan: the
// hexes' searches, the bound (priced or not) and the combinations.
func prepareLevels(t testing.TB, s *scenario.Scenario, cfg Config) *levelRun {
	t.Helper()
	pls, err := planners(context.Background(), s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	fs, _, values, _, err := pls[0].newFrontSearch()
	if err != nil {
		t.Fatal(err)
	}
	r, err := pls[0].levelPrepare(fs, values)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// levelsWith is deciding hexes' frontier and forces for s with the switch
// *flag (joinForces, priceFronts) set to on, and restored after.
func levelsWith(t testing.TB, s *scenario.Scenario, cfg Config, flag *bool, on bool) *levelRun {
	t.Helper()
	old := *flag
	*flag = on
	defer func() { *flag = old }()
	pls, err := planners(context.Background(), s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := pls[0].frontLevels(true)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
