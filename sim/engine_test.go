package sim_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/internal/fixture"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

var update = flag.Bool("update", false, "rewrite golden files")

func load(t testing.TB, path string) *combat.Combat { return fixture.Combat(t, path) }

func loadRaid(t testing.TB, path string) *combat.Raid { return fixture.Raid(t, path) }

var engineScenarios = []string{
	"../examples/wild-results-3to1.yaml",
	"../examples/fractional-odds-16to3.yaml",
	"../combat/testdata/wild-2d6-fractional.yaml",
	"../combat/testdata/blitz-choice-d10.yaml",
	"../testdata/bench-plain-2d6.yaml",
	"../examples/artillery-support.yaml",
}

// The flat table is the resolution routine laid out: every path of the
// dice tree gives the same outcome from both.
func TestFlatTableIsResolve(t *testing.T) {
	for _, path := range engineScenarios {
		c := load(t, path)
		f := c.Flat()
		if f == nil {
			t.Fatalf("%s: no flat table", path)
		}
		sim.EachPath(c, func(rolls []int, o int) {
			if got := sim.FlatOutcome(f, rolls); got != o {
				t.Fatalf("%s: dice %v: flat outcome %d, Resolve %d", path, rolls, got, o)
			}
		})
	}
	r := loadRaid(t, "../examples/dusseldorf-bombardment.yaml")
	sim.EachPath(r, func(rolls []int, o int) {
		if got := sim.FlatOutcome(r.Flat(), rolls); got != o {
			t.Fatalf("raid: dice %v: flat outcome %d, Resolve %d", rolls, got, o)
		}
	})
}

// The result of a run is identical for any number of workers, on both
// sampling paths.
func TestWorkerInvariance(t *testing.T) {
	for _, path := range engineScenarios[:3] {
		c := load(t, path)
		for _, cc := range []*combat.Combat{c, combat.PerTrial(c)} {
			var first *stats.Tally
			for _, w := range []int{1, 2, 3, 8} {
				tally, run, err := sim.Sample(context.Background(), cc, sim.Config{Trials: 5*sim.ChunkSize + 123, Seed: 99, Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				if run.Trials != 5*sim.ChunkSize+123 || tally.N != run.Trials {
					t.Fatalf("%d trials run", run.Trials)
				}
				if first == nil {
					first = tally
				} else if !reflect.DeepEqual(first.Counts, tally.Counts) {
					t.Fatalf("%s: %d workers gave %v, 1 worker %v", path, w, tally.Counts, first.Counts)
				}
			}
		}
	}
}

// Precision mode stops at a point that depends only on the seed.
func TestPrecisionDeterministic(t *testing.T) {
	c := load(t, "../testdata/bench-plain-2d6.yaml")
	hw := func(t *stats.Tally) float64 { return analysis.HalfWidth(c, t) }
	var first *stats.Tally
	for _, w := range []int{1, 3} {
		tally, run, err := sim.Sample(context.Background(), c, sim.Config{Trials: 100 * sim.ChunkSize, Precision: 0.0005, HalfWidth: hw, Seed: 3, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if got := hw(tally); got >= 0.0005 || run.Precision == nil || !run.Precision.Reached || run.Precision.Achieved != got {
			t.Fatalf("stopped with half-width %v, precision %+v", got, run.Precision)
		}
		if run.Trials%sim.ChunkSize != 0 || run.Trials >= 100*sim.ChunkSize {
			t.Fatalf("precision run took %d trials", run.Trials)
		}
		if first != nil && !reflect.DeepEqual(first.Counts, tally.Counts) {
			t.Fatal("precision runs differ between worker counts")
		}
		first = tally
	}
}

// Cancelling a run returns whole chunks, consistently counted.
func TestCancellation(t *testing.T) {
	c := load(t, "../testdata/bench-plain-2d6.yaml")
	for _, cc := range []*combat.Combat{c, combat.PerTrial(c)} {
		ctx, cancel := context.WithCancel(context.Background())
		cfg := sim.Config{Trials: 1000 * sim.ChunkSize, Seed: 1, Workers: 2, Progress: func(done, _ uint64) {
			if done >= 3*sim.ChunkSize {
				cancel()
			}
		}}
		tally, run, err := sim.Sample(ctx, cc, cfg)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		var sum uint64
		for _, k := range tally.Counts {
			sum += k
		}
		if !run.Partial || sum != run.Trials || run.Trials%sim.ChunkSize != 0 || run.Trials >= 1000*sim.ChunkSize || run.Trials == 0 {
			t.Fatalf("partial=%v trials=%d sum=%d", run.Partial, run.Trials, sum)
		}
	}
}

func TestSampleRejectsBadConfig(t *testing.T) {
	c := load(t, "../testdata/bench-plain-2d6.yaml")
	hw := func(*stats.Tally) float64 { return 0 }
	for _, cfg := range []sim.Config{{Trials: 0}, {Trials: sim.MaxTrials + 1}, {Trials: 10, Precision: -1, HalfWidth: hw},
		{Trials: 10, Precision: 1, HalfWidth: hw}, {Trials: 10, Precision: 0.1}} {
		if _, _, err := sim.Sample(context.Background(), c, cfg); err == nil {
			t.Errorf("Sample(%+v) did not fail", cfg)
		}
	}
}

// The random stream is pinned: a fixed seed and trial count give these
// counts. DO NOT EDIT testdata/golden-*.json by hand; if a change to the
// stream is deliberate, regenerate with go test ./sim -run Golden -update
// and say so in the commit message.
func TestGoldenStream(t *testing.T) {
	for name, path := range map[string]string{"flat": "../testdata/bench-plain-2d6.yaml", "resolve": "../combat/testdata/wild-2d6-fractional.yaml"} {
		c := load(t, path)
		if name == "resolve" {
			c = combat.PerTrial(c)
		}
		tally, _, err := sim.Sample(context.Background(), c, sim.Config{Trials: 3*sim.ChunkSize + 17, Seed: 20261129, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		golden := "testdata/golden-" + name + ".json"
		if *update {
			data, _ := json.Marshal(tally.Counts)
			if err := os.WriteFile(golden, append(data, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		data, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		var want []uint64
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(tally.Counts, want) {
			t.Errorf("%s: the random stream changed: counts %v, golden %v", name, tally.Counts, want)
		}
	}
}

func TestStreamUniform(t *testing.T) {
	// Chi-squared over the faces of each die kind, several seeds; critical
	// values at p = 0.001 for 5 and 9 degrees of freedom.
	for seed := uint64(1); seed <= 3; seed++ {
		for _, sides := range []int{6, 10} {
			d := sim.NewStream(seed, 0)
			n := 60000
			counts := make([]float64, sides)
			for i := 0; i < n; i++ {
				counts[d.Roll(sides)-1]++
			}
			exp := float64(n) / float64(sides)
			chi := 0.0
			for _, k := range counts {
				chi += (k - exp) * (k - exp) / exp
			}
			crit := map[int]float64{6: 20.52, 10: 27.88}[sides]
			if chi > crit {
				t.Errorf("seed %d d%d: chi-squared %.2f > %.2f", seed, sides, chi, crit)
			}
		}
	}
}
