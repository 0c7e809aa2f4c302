package plan

import (
	"context"
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
		pls, err := planners(context.Background(), s, cfg)
		if err != nil {
			t.Fatal(err)
		}
		pl := pls[0]
		fs, _, values, _, err := pl.newFrontSearch()
		if err != nil {
			t.Fatal(err)
		}
		r, err := pl.levelPrepare(fs, values)
		if err != nil {
			t.Fatal(err)
		}
		ls := r.ls
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
