package analysis

import (
	"context"
	"maps"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/internal/fixture"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// An exact campaign's summary is made from each metric's distribution on
// its own (combat.CampaignMarginals), not from the joint totals
// (docs/performance.md): every figure is the one the joint totals give, to
// the roundings of adding in another order, and the rest of the summary
// is the same.
func TestExactCampaignSummaryIsJoint(t *testing.T) {
	for _, c := range []struct {
		file  string
		raids int
	}{{"../examples/night-raid-campaign.yaml", 2}, {"../examples/night-raid-campaign.yaml", 3},
		{"../examples/night-raid-campaign.yaml", 5}, {"../examples/dusseldorf-bombardment.yaml", 4}} {
		r := fixture.Raid(t, c.file)
		got, err := RunRaid(context.Background(), r, Request{Engine: Exact}, c.raids)
		if err != nil {
			t.Fatal(err)
		}
		joint, weighed, err := r.CampaignExact(context.Background(), c.raids, sim.MaxPathBudget)
		if err != nil {
			t.Fatal(err)
		}
		keys := slices.Sorted(maps.Keys(joint))
		totals, ws := make([]combat.CampaignTotals, len(keys)), make([]float64, len(keys))
		for i, k := range keys {
			totals[i], ws[i] = combat.UnpackCampaign(k), joint[k]
		}
		want := summarizeTotals(r, totals, &stats.Tally{Weights: ws}, sim.Run{Method: sim.MethodExact, Paths: weighed}, c.raids)
		close := func(what string, a, b float64) {
			if math.Abs(a-b) > 1e-12*max(math.Abs(b), 1e-3) {
				t.Errorf("%s, %d raids: %s = %v, joint %v", c.file, c.raids, what, a, b)
			}
		}
		for _, m := range combat.RaidMetrics {
			g, w := got.DistCIs[m.Name], want.DistCIs[m.Name]
			if len(g) != len(w) || len(got.Distributions[m.Name]) != len(w) {
				t.Fatalf("%s, %d raids: %s runs to %d, joint to %d", c.file, c.raids, m.Name, len(g)-1, len(w)-1)
			}
			for v := range w {
				close(m.Name+" P", g[v].P, w[v].P)
				close(m.Name+" lo", g[v].Lo, w[v].Lo)
				close(m.Name+" hi", g[v].Hi, w[v].Hi)
				close(m.Name+" distribution", got.Distributions[m.Name][v], w[v].P)
			}
			gm, wm := got.Means[m.Name], want.Means[m.Name]
			close(m.Name+" mean", gm.Mean, wm.Mean)
			close(m.Name+" mean lo", gm.Lo, wm.Lo)
			close(m.Name+" mean hi", gm.Hi, wm.Hi)
			if gm.SE != wm.SE {
				t.Errorf("%s, %d raids: %s mean's SE %v, joint %v", c.file, c.raids, m.Name, gm.SE, wm.SE)
			}
		}
		if !reflect.DeepEqual(slices.Sorted(maps.Keys(got.Probabilities)), slices.Sorted(maps.Keys(want.Probabilities))) {
			t.Fatalf("%s, %d raids: probabilities %v, joint %v", c.file, c.raids, got.Probabilities, want.Probabilities)
		}
		for name, w := range want.Probabilities {
			close(name, got.Probabilities[name].P, w.P)
		}
		// The rest is the same: nothing but the figures above differs.
		g, w := *got, *want
		g.Probabilities, g.Distributions, g.DistCIs, g.Means, g.Elapsed = nil, nil, nil, nil, 0
		w.Probabilities, w.Distributions, w.DistCIs, w.Means, w.Elapsed = nil, nil, nil, nil, 0
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s, %d raids: summary %+v, joint %+v", c.file, c.raids, g, w)
		}
	}
}
