package plan

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// withSplitLayerMin splits every layer of n states or more on two workers
// for the rest of the test.
func withSplitLayerMin(t testing.TB, n int) {
	old := splitLayerMin
	splitLayerMin = n
	t.Cleanup(func() { splitLayerMin = old })
}

// loadBench loads a benchmark plan file with its own table.
func loadBench(t testing.TB, name string) (*scenario.Scenario, Config) {
	t.Helper()
	s, err := scenario.Load("../benchmarks/scenarios/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	tb, err := crt.Builtin(s.CRT)
	if err != nil {
		t.Fatal(err)
	}
	return s, Config{Tables: []Table{{Name: s.CRT, Table: tb}}}
}

// A layer built in two halves on two workers is the layer one goroutine
// builds, state for state: the same packed keys and forces in the same
// order, after every class. On the random plans of
// TestStateSearchIsReference and TestSearchMemoryBound (every cost
// measure; build points never split) with every layer split, and on
// plan-hex-24 and plan-hex-40 with every layer of 64 states or more
// split. Most layers must have been split, or the test proves nothing.
func TestSplitLayerIsOne(t *testing.T) {
	type plan struct {
		name string
		s    *scenario.Scenario
		cfg  Config
		min  int
	}
	var plans []plan
	for seed := range 60 {
		s, cfg := parseWithTable(t, referencePlan(seed), Config{})
		plans = append(plans, plan{"reference", s, cfg, 1})
	}
	for seed := range 30 {
		r := rand.New(rand.NewPCG(uint64(seed), 61))
		s, cfg := parseWithTable(t, richPlanYAML(r, seed, 2+r.IntN(15)), Config{})
		plans = append(plans, plan{"memory", s, cfg, 1})
	}
	// Under Kampfgruppe no unit folds and a state keeps no smallest
	// factors, so only the ships' summed bombardment makes two forces
	// share a state. The first class is two twins, so the last layer's
	// halves part among the forces sending one of them, and the second
	// half meets states of the first half's table that no smallest
	// factors beat: two ships of 2 reach what one of 1 and one of 3 do.
	s, cfg := parseWithTable(t, shipsPlan, Config{})
	plans = append(plans, plan{"ships", s, cfg, 1})
	for _, name := range []string{"plan-hex-24", "plan-hex-40"} {
		s, cfg := loadBench(t, name)
		plans = append(plans, plan{name, s, cfg, 64})
	}
	layers, split := 0, 0
	for i, p := range plans {
		withSplitLayerMin(t, p.min)
		cfg := p.cfg
		cfg.Workers = 1
		one := searchOf(t, p.s, cfg, math.MaxInt32)
		cfg.Workers = 2
		two := searchOf(t, p.s, cfg, math.MaxInt32)
		a, b := one.start(), two.start()
		for c := range one.p.classes {
			layers++
			if two.splits(b.len(), c) {
				split++
			}
			if err := one.advance(a, c); err != nil {
				t.Fatalf("%s %d: %v", p.name, i, err)
			}
			if err := two.advance(b, c); err != nil {
				t.Fatalf("%s %d, split: %v", p.name, i, err)
			}
			if !slices.Equal(a.keys, b.keys) || !slices.Equal(a.xs, b.xs) || !slices.Equal(a.bps, b.bps) {
				t.Fatalf("%s %d, class %d: %d states on one goroutine, %d split, not the same layer", p.name, i, c, a.len(), b.len())
			}
		}
		if one.peak != two.peak {
			t.Errorf("%s %d: peak %d states on one goroutine, %d split", p.name, i, one.peak, two.peak)
		}
	}
	t.Logf("%d of %d layers split", split, layers)
	if 2*split < layers {
		t.Errorf("only %d of %d layers split", split, layers)
	}
}

// shipsPlan is a plan under Kampfgruppe whose ships' bombardment sums
// coincide.
const shipsPlan = `kind: land
crt: 2d6
options: [kampfgruppe]
hex: {terrain: clear, coastal: true}
defender:
  units:
    - {type: INF, factors: 3, nation: USSR}
attacker:
  available:
    - {id: a, type: INF, factors: 2, nation: GE}
    - {id: b, type: INF, factors: 2, nation: GE}
  support_available:
    - {id: s1, shore_bombardment: 2, cost: 1}
    - {id: s2, shore_bombardment: 2, cost: 2}
    - {id: s3, shore_bombardment: 1, cost: 3}
    - {id: s4, shore_bombardment: 3, cost: 4}
plan: {target: 0.5}
`
