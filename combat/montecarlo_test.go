package combat_test

import (
	"context"
	"math"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/sim"
)

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
		if c.Flat() == nil {
			t.Fatalf("%s: expected a flat table", path)
		}
		ex := exactSummary(t, c)
		for name, cc := range map[string]*combat.Combat{"flat": c, "resolve": combat.PerTrial(c)} {
			tally, run, err := sim.Sample(context.Background(), cc, sim.Config{Trials: trials, Seed: 7, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			mc := analysis.Summarize(c, tally, run)
			n := float64(run.Trials)
			check := func(what string, p, got float64) {
				t.Helper()
				se := math.Sqrt(p * (1 - p) / n)
				if math.Abs(got-p) > 4.5*se+1e-12 {
					t.Errorf("%s %s %s: Monte Carlo %.5f, exact %.5f (%.1f standard errors)", path, name, what, got, p, math.Abs(got-p)/se)
				}
			}
			for code, p := range ex.Results.All() {
				check("P("+code+")", p, mc.Results.Value(code))
			}
			check("P(hex taken)", ex.Probabilities.HexTaken.P, mc.Probabilities.HexTaken.P)
			check("P(breakthrough)", ex.Probabilities.Breakthrough.P, mc.Probabilities.Breakthrough.P)
			check("P(face-up)", ex.Probabilities.AttackerFaceUp.P, mc.Probabilities.AttackerFaceUp.P)
			for lv, p := range ex.OddsLevels.All() {
				check("P(odds "+lv+")", p, mc.OddsLevels.Value(lv))
			}
			for i, p := range ex.Distributions.AttackerUnitsLost {
				check("P(attacker loses "+string(rune('0'+i))+")", p, mc.Distributions.AttackerUnitsLost[i])
			}
			// Means: the standard error of the sample mean from the exact variance.
			exactTally := exact(t, c)
			for _, m := range []struct {
				name string
				f    func(o *combat.Outcome) float64
				mc   float64
			}{
				{"mean attacker units lost", func(o *combat.Outcome) float64 { return float64(o.AttackerLost) }, mc.Means.AttackerUnitsLost.Mean},
				{"mean defender factors lost", func(o *combat.Outcome) float64 { return o.DefenderFactorsLost }, mc.Means.DefenderFactorsLost.Mean},
			} {
				var mu, m2 float64
				for i, w := range exactTally.Weights {
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

// mixedCombats are the example and test scenarios' combats with the wild,
// fractional and standard mixes of generated ones, by file or text.
func mixedCombats(t *testing.T) map[string]*combat.Combat {
	combats := exampleCombats(t)
	for _, crtName := range []string{"standard", "2d6"} {
		for _, opts := range []string{"[]", "[wild-results]", "[fractional-odds]", "[fractional-odds-d10, wild-results]"} {
			for _, att := range []int{1, 7, 13, 40} {
				text, c := generated(t, crtName, opts, att, "[{type: INF, factors: 3, nation: FR}]")
				combats[text] = c
			}
		}
	}
	return combats
}

// Trial, which spells Resolve out for the engine's Stream when a combat
// has no pre-combat steps, gives what Resolve gives on the same stream,
// trial after trial, for every example and test scenario and the wild,
// fractional and standard mixes of generated combats; and so does Trials,
// a block at a time.
func TestTrialIsResolveOnTheStream(t *testing.T) {
	combats := mixedCombats(t)
	plain := 0
	for name, c := range combats {
		if !c.HasPreCombat() {
			plain++
		}
		fast, ref := sim.NewStream(5, 9), sim.NewStream(5, 9)
		for i := range 5000 {
			if got, want := c.Trial(fast), combat.Resolve(c, sim.Dice(ref)); got != want {
				t.Fatalf("%s: trial %d: Trial %d, Resolve %d", name, i, got, want)
			}
		}
		// And a block at a time (sim.Batcher), blocks of uneven sizes.
		block, ref := sim.NewStream(6, 2), sim.NewStream(6, 2)
		out := make([]int32, 300)
		for i, n := range []int{1, 255, 256, 300, 7} {
			c.Trials(block, out[:n])
			for k, o := range out[:n] {
				if want := combat.Resolve(c, sim.Dice(ref)); int(o) != want {
					t.Fatalf("%s: block %d trial %d: Trials %d, Resolve %d", name, i, k, o, want)
				}
			}
		}
	}
	if plain < 30 {
		t.Fatalf("only %d combats without pre-combat steps compared", plain)
	}
}
