package sim

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/wifodds/wifodds/stats"
)

var update = flag.Bool("update", false, "rewrite golden files")

var agreementScenarios = []string{
	"../examples/wild-results-3to1.yaml",
	"../examples/fractional-odds-16to3.yaml",
	"testdata/wild-2d6-fractional.yaml",
	"testdata/blitz-choice-d10.yaml",
	"../testdata/bench-plain-2d6.yaml",
}

// Every probability and mean Monte Carlo reports lies within 4.5 standard
// errors of the exact value, on both sampling paths, at a fixed seed.
func TestMonteCarloAgreesWithExact(t *testing.T) {
	trials := uint64(400_000)
	if testing.Short() {
		trials = 100_000
	}
	for _, path := range agreementScenarios {
		c := load(t, path)
		if c.flat == nil {
			t.Fatalf("%s: expected a flat table", path)
		}
		ex := Summarize(c, exact(t, c))
		for name, cc := range map[string]*Combat{"flat": c, "resolve": PerTrial(c)} {
			res, err := Sample(context.Background(), cc, Config{Trials: trials, Seed: 7, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			mc := Summarize(c, &stats.Tally{Counts: res.Counts, N: res.Trials})
			n := float64(res.Trials)
			check := func(what string, p, got float64) {
				t.Helper()
				se := math.Sqrt(p * (1 - p) / n)
				if math.Abs(got-p) > 4.5*se+1e-12 {
					t.Errorf("%s %s %s: Monte Carlo %.5f, exact %.5f (%.1f standard errors)", path, name, what, got, p, math.Abs(got-p)/se)
				}
			}
			for code, p := range ex.Results {
				check("P("+code+")", p, mc.Results[code])
			}
			check("P(hex taken)", ex.Probabilities.HexTaken.P, mc.Probabilities.HexTaken.P)
			check("P(breakthrough)", ex.Probabilities.Breakthrough.P, mc.Probabilities.Breakthrough.P)
			check("P(face-up)", ex.Probabilities.AttackerFaceUp.P, mc.Probabilities.AttackerFaceUp.P)
			for lv, p := range ex.OddsLevels {
				check("P(odds "+lv+")", p, mc.OddsLevels[lv])
			}
			for i, p := range ex.Distributions.AttackerUnitsLost {
				check("P(attacker loses "+string(rune('0'+i))+")", p, mc.Distributions.AttackerUnitsLost[i])
			}
			// Means: the standard error of the sample mean from the exact variance.
			tally := exact(t, c)
			for _, m := range []struct {
				name string
				f    func(o *Outcome) float64
				mc   float64
			}{
				{"mean attacker units lost", func(o *Outcome) float64 { return float64(o.AttackerLost) }, mc.Means.AttackerUnitsLost.Mean},
				{"mean defender factors lost", func(o *Outcome) float64 { return o.DefenderFactorsLost }, mc.Means.DefenderFactorsLost.Mean},
			} {
				var mu, m2 float64
				for i, w := range tally.Weights {
					x := m.f(&c.Outcomes[i])
					mu += w * x
					m2 += w * x * x
				}
				se := math.Sqrt((m2 - mu*mu) / n)
				if math.Abs(m.mc-mu) > 4.5*se+1e-12 {
					t.Errorf("%s %s %s: Monte Carlo %.5f, exact %.5f", path, name, m.name, m.mc, mu)
				}
			}
		}
	}
}

// The flat table is Resolve laid out: every path gives the same outcome.
func TestFlatTableIsResolve(t *testing.T) {
	for _, path := range agreementScenarios {
		c := load(t, path)
		e := &enumerator{}
		rolls := make([]int, 0, 8)
		for {
			o := Resolve(c, e)
			rolls = rolls[:0]
			for _, ch := range e.path[:e.depth] {
				rolls = append(rolls, ch.value)
			}
			if got := int(c.flat.outcome[c.flat.index(rolls)]); got != o {
				t.Fatalf("%s: dice %v: flat outcome %d, Resolve %d", path, rolls, got, o)
			}
			if !e.next() {
				break
			}
		}
	}
}

// The result of a run is identical for any number of workers.
func TestWorkerInvariance(t *testing.T) {
	for _, path := range agreementScenarios[:3] {
		c := load(t, path)
		for _, cc := range []*Combat{c, PerTrial(c)} {
			var first *Sampled
			for _, w := range []int{1, 2, 3, 8} {
				res, err := Sample(context.Background(), cc, Config{Trials: 5*ChunkSize + 123, Seed: 99, Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				if res.Trials != 5*ChunkSize+123 {
					t.Fatalf("%d trials run", res.Trials)
				}
				if first == nil {
					first = res
				} else if !reflect.DeepEqual(first.Counts, res.Counts) {
					t.Fatalf("%s: %d workers gave %v, 1 worker %v", path, w, res.Counts, first.Counts)
				}
			}
		}
	}
}

// Precision mode stops at a point that depends only on the seed.
func TestPrecisionDeterministic(t *testing.T) {
	c := load(t, "../testdata/bench-plain-2d6.yaml")
	var first *Sampled
	for _, w := range []int{1, 3} {
		res, err := Sample(context.Background(), c, Config{Trials: 100 * ChunkSize, Precision: 0.0005, Seed: 3, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if hw := HalfWidth(c, res.Counts, res.Trials); hw >= 0.0005 {
			t.Fatalf("stopped with half-width %v", hw)
		}
		if res.Trials%ChunkSize != 0 || res.Trials >= 100*ChunkSize {
			t.Fatalf("precision run took %d trials", res.Trials)
		}
		if first != nil && !reflect.DeepEqual(first.Counts, res.Counts) {
			t.Fatal("precision runs differ between worker counts")
		}
		first = res
	}
}

// Cancelling a run returns whole chunks, consistently counted.
func TestCancellation(t *testing.T) {
	c := load(t, "../testdata/bench-plain-2d6.yaml")
	for _, cc := range []*Combat{c, PerTrial(c)} {
		ctx, cancel := context.WithCancel(context.Background())
		cfg := Config{Trials: 1000 * ChunkSize, Seed: 1, Workers: 2, Progress: func(done, _ uint64) {
			if done >= 3*ChunkSize {
				cancel()
			}
		}}
		res, err := Sample(ctx, cc, cfg)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		var sum uint64
		for _, k := range res.Counts {
			sum += k
		}
		if !res.Partial || sum != res.Trials || res.Trials != res.Chunks*ChunkSize || res.Trials >= 1000*ChunkSize || res.Trials == 0 {
			t.Fatalf("partial=%v trials=%d chunks=%d sum=%d", res.Partial, res.Trials, res.Chunks, sum)
		}
	}
}

func TestSampleRejectsBadConfig(t *testing.T) {
	c := load(t, "../testdata/bench-plain-2d6.yaml")
	for _, cfg := range []Config{{Trials: 0}, {Trials: MaxTrials + 1}, {Trials: 10, Precision: -1}, {Trials: 10, Precision: 1}} {
		if _, err := Sample(context.Background(), c, cfg); err == nil {
			t.Errorf("Sample(%+v) did not fail", cfg)
		}
	}
}

// The random stream is pinned: a fixed seed and trial count give these
// counts. DO NOT EDIT testdata/golden-*.json by hand; if a change to the
// stream is deliberate, regenerate with go test ./sim -run Golden -update
// and say so in the commit message.
func TestGoldenStream(t *testing.T) {
	for name, path := range map[string]string{"flat": "../testdata/bench-plain-2d6.yaml", "resolve": "testdata/wild-2d6-fractional.yaml"} {
		c := load(t, path)
		if name == "resolve" {
			c = PerTrial(c)
		}
		res, err := Sample(context.Background(), c, Config{Trials: 3*ChunkSize + 17, Seed: 20261129, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		golden := "testdata/golden-" + name + ".json"
		if *update {
			data, _ := json.Marshal(res.Counts)
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
		if !reflect.DeepEqual(res.Counts, want) {
			t.Errorf("%s: the random stream changed: counts %v, golden %v", name, res.Counts, want)
		}
	}
}

func TestStreamUniform(t *testing.T) {
	// Chi-squared over the faces of each die kind, several seeds; critical
	// values at p = 0.001 for 5 and 9 degrees of freedom.
	for seed := uint64(1); seed <= 3; seed++ {
		for _, sides := range []int{6, 10} {
			d := NewStream(seed, 0)
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
