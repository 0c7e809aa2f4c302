package combat

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// The Markov chain is the campaign: its exact distribution of totals
// (CampaignExact, dynamic programming over the chain's tables) agrees within 4.5 standard errors
// with the reference campaign that resolves every raid afresh; and
// sampling the chain agrees with it too.
func TestChainIsTheCampaign(t *testing.T) {
	for _, c := range []struct {
		file  string
		raids int
	}{{"../examples/night-raid-campaign.yaml", 4}, {"../examples/dusseldorf-bombardment.yaml", 3}} {
		s, err := scenario.Load(c.file)
		if err != nil {
			t.Fatal(err)
		}
		air, err := crt.BuiltinAir(s.Raid.AirTables)
		if err != nil {
			t.Fatal(err)
		}
		r, err := CompileRaid(s, air)
		if err != nil {
			t.Fatal(err)
		}
		exact, _, err := r.CampaignExact(context.Background(), c.raids, 1<<24)
		if err != nil {
			t.Fatal(err)
		}
		total := 0.0
		for _, p := range exact {
			total += p
		}
		if math.Abs(total-1) > 1e-9 {
			t.Fatalf("%s: the chain's distribution sums to %v", c.file, total)
		}
		const trials = 400_000
		// Each metric's distribution across the campaign, exact from the
		// chain, against sampling: every value likely enough to be seen
		// 50 times within 4.5 standard errors, and the mean.
		marginal := func(dist map[uint64]float64) [len(RaidMetrics)]map[int]float64 {
			var m [len(RaidMetrics)]map[int]float64
			for i := range m {
				m[i] = map[int]float64{}
			}
			for k, p := range dist {
				t := UnpackCampaign(k)
				for i := range m {
					m[i][t[i]] += p
				}
			}
			return m
		}
		want := marginal(exact)
		check := func(what string, newTrial func() func(d sim.Stream) uint64) {
			keys, run, err := sim.SampleKeys(context.Background(), newTrial, sim.Config{Trials: trials, Seed: 11, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			n := float64(run.Trials)
			sampled := map[uint64]float64{}
			for k, count := range keys {
				if _, ok := exact[k]; !ok {
					t.Errorf("%s, %s: totals %v sampled, impossible in the chain", c.file, what, UnpackCampaign(k))
				}
				sampled[k] = float64(count) / n
			}
			got := marginal(sampled)
			for i, m := range want {
				var mean, sq, gmean float64
				for v, p := range m {
					mean += float64(v) * p
					sq += float64(v*v) * p
					gmean += float64(v) * got[i][v]
					if p*n >= 50 {
						// The marginals are float sums in map order: a
						// certainty (se 0) can differ from 1 by a rounding.
						if se := math.Sqrt(p * (1 - p) / n); math.Abs(got[i][v]-p) > 4.5*se+1e-12 {
							t.Errorf("%s, %s: P(%s = %d) sampled %.5f, chain %.5f", c.file, what, RaidMetrics[i].Name, v, got[i][v], p)
						}
					}
				}
				if se := math.Sqrt((sq - mean*mean) / n); math.Abs(gmean-mean) > 4.5*se+1e-12 {
					t.Errorf("%s, %s: mean %s sampled %.4f, chain %.4f", c.file, what, RaidMetrics[i].Name, gmean, mean)
				}
			}
		}
		check("raid by raid", func() func(d sim.Stream) uint64 { return r.campaignByRaids(c.raids) })
		check("the chain", r.Campaign(c.raids))
	}
}

// An exact campaign stops at its budget, and when cancelled.
func TestCampaignExactStops(t *testing.T) {
	s, err := scenario.Load("../examples/dusseldorf-bombardment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	air, _ := crt.BuiltinAir(s.Raid.AirTables)
	r, err := CompileRaid(s, air)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.CampaignExact(context.Background(), MaxRaids, 1_000_000); !errors.Is(err, sim.ErrBudget) {
		t.Errorf("20 raids within a million paths: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := r.CampaignExact(ctx, MaxRaids, sim.MaxPathBudget); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
