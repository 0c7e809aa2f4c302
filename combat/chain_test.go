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
		r := loadRaid(t, c.file)
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

// An exact campaign stops at its budget, and when cancelled, and so do its
// marginals.
func TestCampaignExactStops(t *testing.T) {
	r := loadRaid(t, "../examples/dusseldorf-bombardment.yaml")
	if _, _, err := r.CampaignExact(context.Background(), MaxRaids, 1_000_000); !errors.Is(err, sim.ErrBudget) {
		t.Errorf("20 raids within a million paths: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := r.CampaignExact(ctx, MaxRaids, sim.MaxPathBudget); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, _, err := r.CampaignMarginals(context.Background(), MaxRaids, 1_000_000); !errors.Is(err, sim.ErrBudget) {
		t.Errorf("marginals of 20 raids within a million paths: %v", err)
	}
	if _, _, err := r.CampaignMarginals(ctx, MaxRaids, sim.MaxPathBudget); !errors.Is(err, context.Canceled) {
		t.Errorf("marginals, cancelled: %v", err)
	}
	if _, _, err := r.CampaignMarginals(context.Background(), 0, sim.MaxPathBudget); err == nil {
		t.Error("marginals of no raid: no error")
	}
	// A budget one path short stops the marginals in the last raid, the
	// one they add metric by metric; the whole budget does not.
	_, weighed, err := r.CampaignMarginals(context.Background(), 3, sim.MaxPathBudget)
	if err != nil {
		t.Fatal(err)
	}
	if _, got, err := r.CampaignMarginals(context.Background(), 3, weighed-1); !errors.Is(err, sim.ErrBudget) || got != weighed {
		t.Errorf("marginals, a path short of %d: %d paths, %v", weighed, got, err)
	}
	if _, _, err := r.CampaignMarginals(context.Background(), 3, weighed); err != nil {
		t.Errorf("marginals within exactly their %d paths: %v", weighed, err)
	}
}

// BenchmarkCampaignExact is the exact three-raid night campaign, as `run
// --exact --raids 3 examples/night-raid-campaign.yaml` works it out once
// the raid is compiled: the chain built and the dynamic programme run to
// each metric's distribution (issue 25 target, with the file read and the
// summary made: 1.5 ms).
func BenchmarkCampaignExact(b *testing.B) {
	r := loadRaid(b, "../examples/night-raid-campaign.yaml")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := r.CampaignMarginals(context.Background(), 3, sim.MaxPathBudget); err != nil {
			b.Fatal(err)
		}
	}
}

// campaignExactByPaths is the dynamic programme path by path with the
// pairs in a Go map: how CampaignExact worked before it weighed each
// state's distinct moves, kept as its reference.
func campaignExactByPaths(r *Raid, raids int) (map[uint64]float64, int) {
	ch := r.Chain(raids)
	type at struct {
		s   int32
		key uint64
	}
	cur := map[at]float64{{0, 0}: 1}
	weighed := 0
	for range raids {
		next := make(map[at]float64, len(cur))
		for a, p := range cur {
			cs := &ch[a.s]
			if cs.Flat == nil {
				next[a] += p
				continue
			}
			n := cs.Flat.Paths()
			weighed += n
			for i := range n {
				o := cs.Flat.Outcome(i)
				next[at{cs.Next[o], a.key + cs.Add[o]}] += p / float64(n)
			}
		}
		cur = next
	}
	out := map[uint64]float64{}
	for a, p := range cur {
		out[a.key] += p
	}
	return out, weighed
}

// The exact campaign weighs each state's distinct moves once and keys its
// pairs compactly: the same totals with the same probabilities as walking
// every path (to a few roundings: the reference adds in map order), the
// same paths weighed, and the very same floats on every run; and its
// marginals are the reference's too.
func TestCampaignExactIsByPaths(t *testing.T) {
	for _, c := range []struct {
		file  string
		raids int
	}{{"../examples/night-raid-campaign.yaml", 1}, {"../examples/night-raid-campaign.yaml", 3},
		{"../examples/night-raid-campaign.yaml", 6}, {"../examples/dusseldorf-bombardment.yaml", 4}} {
		r := loadRaid(t, c.file)
		got, weighed, err := r.CampaignExact(context.Background(), c.raids, sim.MaxPathBudget)
		if err != nil {
			t.Fatal(err)
		}
		want, wantWeighed := campaignExactByPaths(r, c.raids)
		if weighed != wantWeighed || len(got) != len(want) {
			t.Fatalf("%s, %d raids: %d totals over %d paths, want %d over %d", c.file, c.raids, len(got), weighed, len(want), wantWeighed)
		}
		for k, p := range want {
			if q, ok := got[k]; !ok || math.Abs(q-p) > 1e-14*max(p, 1e-3) {
				t.Errorf("%s, %d raids: P(%v) = %v, want %v", c.file, c.raids, UnpackCampaign(k), q, p)
			}
		}
		again, _, _ := r.CampaignExact(context.Background(), c.raids, sim.MaxPathBudget)
		for k, p := range got {
			if again[k] != p {
				t.Fatalf("%s: P(%v) differs between runs", c.file, UnpackCampaign(k))
			}
		}
		// Each metric's distribution, as a summary reads it: the
		// reference's marginals, over the same paths, the same floats on
		// every run, and nothing past the arrays' ends. A marginal adds up
		// thousands of terms, in another order than the reference's map:
		// roundings reach a few parts in 10^14, far under 10^-12.
		marg, margWeighed, err := r.CampaignMarginals(context.Background(), c.raids, sim.MaxPathBudget)
		if err != nil || margWeighed != weighed {
			t.Fatalf("%s, %d raids: marginals over %d paths, %v; want %d paths", c.file, c.raids, margWeighed, err, weighed)
		}
		var wantMarg [len(RaidMetrics)]map[int]float64
		for k := range wantMarg {
			wantMarg[k] = map[int]float64{}
		}
		for key, p := range want {
			for k, v := range UnpackCampaign(key) {
				wantMarg[k][v] += p
			}
		}
		again2, _, _ := r.CampaignMarginals(context.Background(), c.raids, sim.MaxPathBudget)
		for k, m := range RaidMetrics {
			for v, p := range wantMarg[k] {
				if v >= len(marg[k]) || math.Abs(marg[k][v]-p) > 1e-12*max(p, 1e-3) {
					t.Errorf("%s, %d raids: P(%s = %d) = %v, want %v", c.file, c.raids, m.Name, v, at(marg[k], v), p)
				}
			}
			for v, p := range marg[k] {
				if _, ok := wantMarg[k][v]; !ok && p != 0 {
					t.Errorf("%s, %d raids: P(%s = %d) = %v, impossible", c.file, c.raids, m.Name, v, p)
				}
				if again2[k][v] != p {
					t.Fatalf("%s, %d raids: P(%s = %d) differs between runs", c.file, c.raids, m.Name, v)
				}
			}
		}
	}
}

// at is s[i], or NaN past its end.
func at(s []float64, i int) float64 {
	if i < len(s) {
		return s[i]
	}
	return math.NaN()
}

// loadRaid compiles a bombardment scenario against its built-in tables.
func loadRaid(t testing.TB, file string) *Raid {
	t.Helper()
	s, err := scenario.Load(file)
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
	return r
}
