package plan

import (
	"slices"
	"testing"

	"github.com/wifodds/wifodds/scenario"
)

// The priced bound (frontlevelprice.go) never passes what an assignment
// costs: on random fronts in deciding hexes' scope whose units are of
// several nationalities, every assignment of the units is walked layer by
// layer, and at each layer the priced bound of its states, for the levels
// it reaches, is at most its whole cost (fixed seeds). The front search's
// answers with the bound are checked by TestFrontLevelsIsFrontSearch and
// the other tests of deciding hexes, which require some fronts priced.
func TestPricedBoundHolds(t *testing.T) {
	fronts, priced, checked := 40, 0, 0
	if testing.Short() {
		fronts = 15
	}
	levelFronts(t, fronts, 900, 83, func(seed int, text string, s *scenario.Scenario, cfg Config) {
		r := prepareLevels(t, s, cfg)
		ls, fs := r.ls, r.ls.fs
		if ls.priced == nil {
			return
		}
		priced++
		nt, nc := ls.nt, ls.nc
		// The walk: each layer's class split among the hexes it can
		// attack, the states and the cost after each layer kept.
		idx := make([][]int32, nc+1)
		for pos := range idx {
			idx[pos] = make([]int32, nt)
		}
		cost := make([]float64, nc+1)
		var walk func(pos int)
		walk = func(pos int) {
			if pos == nc {
				for t, h := range ls.hexes {
					ls.lv[t] = slices.Index(r.levels[t], h.finP[idx[nc][t]])
				}
				for p := range nc + 1 {
					if b := ls.pricedBound(p, idx[p], cost[p]); b > cost[nc]+costTol {
						t.Fatalf("seed %d: layer %d: priced bound %v, the assignment costs %v\n%s", seed, p, b, cost[nc], text)
					}
				}
				checked++
				return
			}
			c := fs.order[pos]
			ts := fs.allowed[c]
			items := len(fs.p.classes[c].items)
			var split func(j, left, sent int)
			split = func(j, left, sent int) {
				if j == len(ts) {
					cost[pos+1] = cost[pos] + ls.add[c][sent]
					walk(pos + 1)
					return
				}
				t := ts[j]
				h := ls.hexes[t]
				for k := range left + 1 {
					idx[pos+1][t] = h.trans[pos][h.start[pos][idx[pos][t]]+int32(k)]
					split(j+1, left-k, sent+k)
				}
				idx[pos+1][t] = h.trans[pos][h.start[pos][idx[pos][t]]]
			}
			for t, h := range ls.hexes {
				idx[pos+1][t] = h.trans[pos][h.start[pos][idx[pos][t]]] // sending nothing
			}
			split(0, items, 0)
		}
		walk(0)
	})
	if priced < 5 || checked == 0 {
		t.Errorf("%d fronts priced, %d assignments checked: the test tests little", priced, checked)
	}
	t.Logf("%d fronts priced, %d assignments checked", priced, checked)
}

// A front whose priced tables would pass the bound's memory with the
// plain staircases is left unpriced, and planned as exactly (the 16-unit
// cut of 4x24, priced when the memory allows, with the memory lowered to
// just under what plain and priced hold together).
func TestPricedTooLarge(t *testing.T) {
	s, cfg := frontCut(t, 16)
	prepare := func() *levelRun { return prepareLevels(t, s, cfg) }
	r := prepare()
	if r.ls.priced == nil {
		t.Fatal("the 4x16 cut is not priced: the test tests nothing")
	}
	old := boundMemory
	defer func() { boundMemory = old }()
	boundMemory = r.fb.bytes - 1
	if r := prepare(); r.ls.priced != nil || r.fb.bytes > boundMemory {
		t.Fatalf("priced with %d bytes of %d", r.fb.bytes, boundMemory)
	}
	if _, _, diff := levelsAgree(t, s, cfg, true); diff != "" {
		t.Error(diff)
	}
}

// Pricing changes what is searched, not what is found: on random fronts
// (fixed seeds) deciding hexes with and without the priced bound finds
// the same points, each with the same assignment, skips and searches the
// same combinations and weighs the same assignments for their forces
// (these fronts never fill the memo of full states, which on larger ones
// keeps other nodes when fewer are searched: 4x24 weighs 1,639 priced,
// 1,643 not), with fewer nodes.
func TestPricedIsUnpriced(t *testing.T) {
	fronts, priced := 60, 0
	if testing.Short() {
		fronts = 20
	}
	var nodes, unpricedNodes int64
	levelFronts(t, fronts, 0, 61, func(seed int, text string, s *scenario.Scenario, cfg Config) {
		a, b := levelsWith(t, s, cfg, &priceFronts, true), levelsWith(t, s, cfg, &priceFronts, false)
		if !a.st.Priced {
			return
		}
		priced++
		nodes += a.st.Nodes + a.st.TieNodes
		unpricedNodes += b.st.Nodes + b.st.TieNodes
		if len(a.pts) != len(b.pts) {
			t.Fatalf("seed %d: %d points priced, %d not\n%s", seed, len(a.pts), len(b.pts), text)
		}
		for i := range a.pts {
			p, q := a.pts[i], b.pts[i]
			if p.cost != q.cost || p.value != q.value || !slices.Equal(p.x, q.x) {
				t.Errorf("seed %d: point %d priced %v %v %v, not %v %v %v\n%s", seed, i, p.cost, p.value, p.x, q.cost, q.value, q.x, text)
			}
		}
		if a.st.Solved != b.st.Solved || a.st.Skip != b.st.Skip || a.st.TieLeaves != b.st.TieLeaves {
			t.Errorf("seed %d: searched %d, skipped %d, weighed %d priced; %d, %d, %d not", seed, a.st.Solved, a.st.Skip, a.st.TieLeaves, b.st.Solved, b.st.Skip, b.st.TieLeaves)
		}
	})
	if priced < 10 || nodes >= unpricedNodes {
		t.Errorf("%d fronts priced, %d nodes against %d unpriced: the test tests little", priced, nodes, unpricedNodes)
	}
	t.Logf("%d fronts priced, %d nodes against %d unpriced", priced, nodes, unpricedNodes)
}
