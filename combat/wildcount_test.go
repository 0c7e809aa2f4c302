package combat_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/sim"
)

// wildStrikes is the combat of issue 24: wild results at fractional odds
// on the 2D6 table after three ART ground strikes, naval ground strikes by
// ships (one die per ship per face-up defender) and AA fire at three
// ground-support aircraft. %s is the list of ships.
const wildStrikes = `name: wild-strikes
kind: land
crt: 2d6
table: auto
options: [artillery, naval-ground-strike, blitz-modifier, wild-results, fractional-odds]
hex: {terrain: clear, weather: clear, across_river: true}
attacker:
  hq_support: true
  naval_strikes: %s
  aircraft:
    - {name: Ju-87B, a2a: 1, tactical: 3}
    - {name: Ju-87R, a2a: 1, tactical: 2}
    - {name: Ju-87D, a2a: 2, tactical: 3}
  units:
    - {name: XIX Pz, type: ARM, size: corps, factors: 6, nation: GE}
    - {name: XV Pz, type: ARM, size: corps, factors: 5, nation: GE}
    - {name: 170mm, type: ART, size: division, factors: 3, nation: GE, role: support}
    - {name: 150mm, type: ART, size: division, factors: 4, nation: GE, role: strike}
    - {name: 105mm, type: ART, size: division, factors: 3, nation: GE, role: strike}
    - {name: 210mm, type: ART, size: division, factors: 5, nation: GE, role: strike}
defender:
  units:
    - {name: 2e Armee, type: INF, size: army, factors: 4, nation: FR}
    - {name: 47mm AT, type: AT, size: division, factors: 1, nation: FR, red_circle: dark}
    - {name: 75mm AA, type: AA, size: division, factors: 2, nation: FR}
`

const twoShips = "[{name: Kelly, factors: 3}, {name: Kipling, factors: 4}]"

// walked hides both Tabulate and the flat table: sim.Exact walks every
// path of the dice tree through Resolve.
type walked struct{ sim.Model }

func (walked) Flat() *sim.Flat { return nil }

// sameAsWalk checks that c's tabulated tally is the walk of every path of
// its dice tree through Resolve, outcome by outcome, over as many paths.
func sameAsWalk(t *testing.T, name string, c *combat.Combat) {
	t.Helper()
	a, ra, err := sim.Exact(context.Background(), c, 0, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, rb, err := sim.Exact(context.Background(), walked{c}, 0, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if ra.Paths != rb.Paths {
		t.Errorf("%s: %d paths tabulated, %d walked", name, ra.Paths, rb.Paths)
	}
	for o := range a.Weights {
		if math.Abs(a.Weights[o]-b.Weights[o]) > 1e-12 {
			t.Errorf("%s: outcome %d: %v tabulated, %v walked", name, o, a.Weights[o], b.Weights[o])
		}
	}
}

// Issue 24, docs/rules.md §2.4 (AsA 3.14) with §1 (AsA 3.15) and §3 (AsA
// 3.2.3, 3.13, 3.2.2): the wild-results combat with many pre-combat steps
// is counted exactly. Its dice: the fractional d6, three strike dice, two
// ships × three face-up defenders = six naval dice, one AA die (2 AA
// factors against 3 aircraft: min(⌈3/3⌉, ⌈2/2⌉) = 1 die, docs/rules.md
// §5), then 2d6 for each side: 1 + 3 + 6 + 1 + 4 = 15 d6, so 6^15 =
// 470,184,984,576 paths, each an index of the tally. Given the pre-combat
// state the two CRT rolls are independent, so each state's 13×13 grid of
// dice totals is weighted by the pre-combat sequences reaching it and the
// ways of rolling each total (docs/performance.md). The distribution sums
// to 1, and Monte Carlo on the same combat agrees with it within 4.5
// standard errors for every outcome.
func TestWildResultsWithPreCombatCountedExactly(t *testing.T) {
	c := compile(t, fmt.Sprintf(wildStrikes, twoShips))
	counts, size, ok := c.Tabulate()
	if !ok {
		t.Fatal("not tabulated")
	}
	if want := uint64(470_184_984_576); size != want {
		t.Fatalf("%d indices, want 6^15 = %d", size, want)
	}
	total := uint64(0)
	for _, n := range counts {
		total += n
	}
	if total != size {
		t.Fatalf("counts add up to %d of %d", total, size)
	}
	exact := sumTo1(t, c)
	const trials = 1_000_000
	mc, _, err := sim.Sample(context.Background(), c, sim.Config{Trials: trials, Seed: 24, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for o, p := range exact {
		se := math.Sqrt(p * (1 - p) / trials)
		got := float64(mc.Counts[o]) / trials
		if math.Abs(got-p) > 4.5*se+1e-9 {
			t.Errorf("outcome %d (%s): sampled %v, exact %v (%.1f standard errors)", o, c.Outcomes[o].Result, got, p, math.Abs(got-p)/se)
		}
	}
}

// README, "at most 2^40 sequences of pre-combat dice ... always fits": a
// third ship adds three naval dice, 6^14 ≈ 7.8e10 pre-combat sequences
// (under 2^40 ≈ 1.1e12) and 6^18 ≈ 1.0e14 paths in all; it is still
// counted, not refused.
func TestWildResultsPastTheOldBoundCounted(t *testing.T) {
	c := compile(t, fmt.Sprintf(wildStrikes, "[{name: Kelly, factors: 3}, {name: Kipling, factors: 4}, {name: Kashmir, factors: 5}]"))
	_, size, ok := c.Tabulate()
	if !ok {
		t.Fatal("not tabulated")
	}
	want := uint64(1)
	for range 18 {
		want *= 6
	}
	if size != want {
		t.Fatalf("%d indices, want 6^18 = %d", size, want)
	}
	if fits, err := sim.Fits(context.Background(), c, 0); !fits || err != nil {
		t.Fatalf("does not fit the default budget: %v, %v", fits, err)
	}
	sumTo1(t, c)
}

// docs/rules.md §2.4 with the pre-combat steps of §3: on small wild-results
// combats (one or two ground strikes, a naval strike, AA fire, either
// fractional-odds die, either table) the tabulated tally is the walk of
// every dice path through Resolve, outcome by outcome, and counts the same
// paths.
func TestWildTabulateIsTheWalk(t *testing.T) {
	seen := 0
	for _, tc := range []struct{ crt, opts, ships, strikes string }{
		{"standard", "fractional-odds", "[{name: A, factors: 4}]", "1"},
		{"standard", "fractional-odds-d10", "[]", "2"},
		{"2d6", "fractional-odds", "[]", "1"},
		{"2d6", "blitz-modifier", "[{name: A, factors: 6}]", "0"},
	} {
		units := ""
		for i := range int(tc.strikes[0] - '0') {
			units += fmt.Sprintf(", {type: ART, size: division, factors: %d, nation: GE, role: strike}", 4+2*i)
		}
		text := fmt.Sprintf(`kind: land
crt: %s
options: [artillery, naval-ground-strike, wild-results, %s]
attacker:
  naval_strikes: %s
  aircraft: [{name: Ju-87, a2a: 1, tactical: 3}]
  units: [{type: ARM, size: corps, factors: 7, nation: GE}%s]
defender:
  units: [{type: INF, size: army, factors: 3, nation: FR}, {type: AA, size: division, factors: 1, nation: FR}]
`, tc.crt, tc.opts, tc.ships, units)
		c := compile(t, text)
		if !c.HasPreCombat() {
			t.Fatalf("%s: no pre-combat steps", text)
		}
		sameAsWalk(t, text, c)
		seen++
	}
	if seen != 4 {
		t.Fatalf("%d combats compared", seen)
	}
}
