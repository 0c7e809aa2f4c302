package plan

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// searchOf readies the one-hex search hex() runs for plan s, within
// maxStates states a layer.
func searchOf(t testing.TB, s *scenario.Scenario, cfg Config, maxStates int) *stateSearch {
	t.Helper()
	pls, err := planners(context.Background(), s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	pl := pls[0]
	e := pl.e
	limit := pl.maxUnits()
	sp := newStateSpace(e.pool, e.targets[0], e.tables[pl.k].Table, e.commit)
	return pl.stateSearch(sp, newLayout(sp, e.pool, limit), limit, maxStates)
}

// The memory the limit check charges a state (searchBytes) is an upper
// bound on what the one-hex search holds: with the limit set to the most
// states a layer reaches, the search passes and its arrays hold at most
// the limit times the bytes a state, plus the fixed part; one state less
// and it is refused. On random plans (every cost measure, options,
// Kampfgruppe, where states keep no smallest factors) and the 24-unit
// benchmark, on one worker and on two with every layer split that the
// limit and the cost measure allow (layersplit.go).
func TestSearchMemoryBound(t *testing.T) {
	withSplitLayerMin(t, 1)
	type plan struct {
		name string
		s    *scenario.Scenario
		cfg  Config
	}
	var plans []plan
	for seed := range 30 {
		r := rand.New(rand.NewPCG(uint64(seed), 61))
		s, cfg := parseWithTable(t, richPlanYAML(r, seed, 2+r.IntN(15)), Config{})
		plans = append(plans, plan{"random", s, cfg})
		cfg.Workers = 2
		plans = append(plans, plan{"random split", s, cfg})
	}
	s, err := scenario.Load("../benchmarks/scenarios/plan-hex-24.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tb, err := crt.Builtin(s.CRT)
	if err != nil {
		t.Fatal(err)
	}
	plans = append(plans, plan{"plan-hex-24", s, Config{Tables: []Table{{Name: s.CRT, Table: tb}}}},
		plan{"plan-hex-24 split", s, Config{Tables: []Table{{Name: s.CRT, Table: tb}}, Workers: 2}})
	worst := 0.0
	for i, p := range plans {
		free := searchOf(t, p.s, p.cfg, math.MaxInt32)
		if _, err := free.run(); err != nil {
			t.Fatalf("%s %d: %v", p.name, i, err)
		}
		tight := searchOf(t, p.s, p.cfg, free.peak)
		if _, err := tight.run(); err != nil {
			t.Fatalf("%s %d: a limit of the %d states a layer reaches: %v", p.name, i, free.peak, err)
		}
		perState, fixed := tight.searchBytes()
		worst = max(worst, float64(tight.held)/(perState*float64(free.peak)+fixed))
		if !strings.HasPrefix(p.name, "random") {
			t.Logf("%s: %d states, held %d bytes, %.0f a state", p.name, free.peak, tight.held, float64(tight.held)/float64(free.peak))
		}
		if bound := perState*float64(free.peak) + fixed; float64(tight.held) > bound {
			t.Errorf("%s %d: the search held %d bytes for %d states, over the bound %.0f (%.0f a state)", p.name, i, tight.held, free.peak, bound, perState)
		}
		over := searchOf(t, p.s, p.cfg, free.peak-1)
		if _, err := over.run(); !errors.Is(err, errTooManyStates) {
			t.Errorf("%s %d: a limit one under the %d states a layer reaches: got %v", p.name, i, free.peak, err)
		}
	}
	t.Logf("the search held at most %.0f%% of the bound", 100*worst)
}

// Packed forces keep their counts, and comparing them word by word is
// comparing the counts in enumeration order, on random pools and forces.
func TestForceLayoutOrder(t *testing.T) {
	for seed := range 40 {
		r := rand.New(rand.NewPCG(uint64(seed), 62))
		s, _ := parseWithTable(t, richPlanYAML(r, seed, 2+r.IntN(15)), Config{})
		p := newPool(s, nil)
		fl := newForceLayout(p)
		random := func() counts {
			x := make(counts, len(p.classes))
			for c := range x {
				x[c] = uint8(r.IntN(len(p.classes[c].items) + 1))
			}
			return x
		}
		a, b := make([]uint64, fl.words), make([]uint64, fl.words)
		back := make(counts, len(p.classes))
		for range 200 {
			x, y := random(), random()
			if r.IntN(2) == 0 {
				copy(y, x[:r.IntN(len(x)+1)])
			}
			fl.encode(a, x)
			fl.encode(b, y)
			if g, w := slices.Compare(a, b), bytes.Compare(x, y); g != w {
				t.Fatalf("seed %d: packed %v vs %v compare %d, counts %d", seed, x, y, g, w)
			}
			if fl.decode(back, a); !bytes.Equal(back, x) {
				t.Fatalf("seed %d: %v decoded as %v", seed, x, back)
			}
		}
	}
}
