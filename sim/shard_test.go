package sim_test

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/sim"
)

// The shards of a run, however many, tally together to the whole run:
// chunk k's stream depends only on (seed, k). For dense tallies on both
// sampling paths, and for keyed tallies (campaigns).
func TestShardsSumToTheRun(t *testing.T) {
	const trials = 5*sim.ChunkSize + 1234 // a short last chunk
	c := load(t, "../examples/fractional-odds-16to3.yaml")
	for _, m := range []sim.Model{c, combat.PerTrial(c)} {
		whole, run, err := sim.Sample(context.Background(), m, sim.Config{Trials: trials, Seed: 5, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []uint64{1, 2, 3, 7} {
			sum := make([]uint64, len(whole.Counts))
			var got uint64
			for i := uint64(1); i <= n; i++ {
				part, prun, err := sim.Sample(context.Background(), m, sim.Config{Trials: trials, Seed: 5, Workers: 3, Shard: sim.Shard{Index: i, Count: n}})
				if err != nil {
					t.Fatal(err)
				}
				for o, k := range part.Counts {
					sum[o] += k
				}
				got += prun.Trials
			}
			if !slices.Equal(sum, whole.Counts) || got != run.Trials {
				t.Errorf("%d shards: %d trials, counts differ from the whole run's %d", n, got, run.Trials)
			}
		}
	}
	r := loadRaid(t, "../examples/night-raid-campaign.yaml")
	whole, _, err := sim.SampleKeys(context.Background(), r.Campaign(3), sim.Config{Trials: trials, Seed: 2, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	sum := map[uint64]uint64{}
	for i := uint64(1); i <= 3; i++ {
		part, _, err := sim.SampleKeys(context.Background(), r.Campaign(3), sim.Config{Trials: trials, Seed: 2, Workers: 1, Shard: sim.Shard{Index: i, Count: 3}})
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range part {
			sum[k] += v
		}
	}
	if !maps.Equal(sum, whole) {
		t.Error("campaign shards do not sum to the whole campaign")
	}
	if _, _, err := sim.Sample(context.Background(), c, sim.Config{Trials: trials, Shard: sim.Shard{Index: 4, Count: 3}}); err == nil {
		t.Error("shard 4 of 3 accepted")
	}
}
