package combat_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/sim"
)

const strikeScenario = `kind: land
crt: 2d6
table: assault
options: [artillery]
hex: {across_river: true}
attacker:
  units:
    - {type: INF, factors: 8, nation: GE}
    - {name: strike, type: ART, size: division, factors: 5, nation: GE, role: strike}
    - {name: support, type: ART, size: division, factors: 3, nation: GE, role: support}
defender:
  units:
    - {name: corps, type: INF, factors: 3, nation: USSR}
    - {name: div, type: INF, size: division, factors: 2, nation: USSR, supply: false}
`

// docs/rules.md §3, AsA 3.2.3: an ART unit bombards instead of fighting: a ground
// strike succeeds on a d6 of half its factors or less and turns a face-up
// defender face-down; support adds its factors, not halved across a river.
// Neither is in the combat, so neither can be lost.
func TestArtillery(t *testing.T) {
	c := compile(t, strikeScenario)
	// Base state: INF 8 halved across the river = 4, + support 3 = 7;
	// defence 3 + 2 = 5.
	if c.Attack != 7 || c.Defence != 5 {
		t.Fatalf("base totals %v:%v, want 7:5", c.Attack, c.Defence)
	}
	if len(c.AttOrder) != 1 {
		t.Fatalf("%d attacking units in the combat, want 1 (the INF)", len(c.AttOrder))
	}
	// A strike roll of 2 (<= 2.5) turns the unsupplied division face-down:
	// its factor falls to 1 and the face-down modifier is +1.
	r, err := analysis.Replay(c, []int{2, 3, 4}, noDice{t})
	if err != nil {
		t.Fatal(err)
	}
	o := c.Outcomes[r.Index]
	if o.Struck != 1 {
		t.Fatalf("strike roll 2: %d struck, want 1", o.Struck)
	}
	targets, order := combat.PreTargets(c)
	st := combat.PreState(c, 1<<order[0], 0)
	if c.Scenario.Defender.Units[targets[order[0]]].Name != "div" {
		t.Error("the strike did not go first for the unsupplied division")
	}
	if st.Defence != 4 || st.AtOdds[0].Modifier != 1 {
		t.Errorf("after the strike: defence %v modifier %+d, want 4 and +1", st.Defence, st.AtOdds[0].Modifier)
	}
	// A 3 fails.
	r, _ = analysis.Replay(c, []int{3, 3, 4}, noDice{t})
	if c.Outcomes[r.Index].Struck != 0 {
		t.Error("strike roll 3 succeeded with 5 factors")
	}
	w := sumTo1(t, c)
	for i, p := range w {
		if p > 0 && c.Outcomes[i].AttackerLost > 1 {
			t.Fatalf("bombarding artillery was lost: %+v", c.Outcomes[i])
		}
	}
	// Roles need the option; a defending stack cannot strike.
	for from, to := range map[string]string{
		"options: [artillery]\n":       "",
		"nation: USSR, supply: false}": "nation: USSR, supply: false}\n    - {type: ART, size: division, factors: 2, nation: USSR, role: strike}",
	} {
		if _, err := scenarioParse(strings.Replace(strikeScenario, from, to, 1)); err == nil {
			t.Errorf("accepted %q", to)
		}
	}
}

// docs/rules.md §3, AsA 3.13: a naval ground strike rolls a d6 for each face-up
// defender; half the shore bombardment factors or less turns it face-down.
func TestNavalGroundStrike(t *testing.T) {
	c := compile(t, `kind: land
crt: 2d6
table: assault
options: [naval-ground-strike]
attacker:
  naval_strikes: [{name: Warspite, factors: 6}]
  units: [{type: INF, factors: 8, nation: CW}]
defender:
  units:
    - {type: INF, factors: 2, nation: IT}
    - {type: INF, factors: 2, nation: IT, face_down: true}
    - {type: INF, factors: 2, nation: IT}
`)
	if targets, _ := combat.PreTargets(c); len(targets) != 2 {
		t.Fatalf("%d targets, want the 2 face-up defenders", len(targets))
	}
	for _, tc := range []struct {
		rolls  []int
		struck int8
		mod    int
	}{{[]int{3, 3}, 2, 3}, {[]int{3, 4}, 1, 2}, {[]int{4, 6}, 0, 1}} {
		r, err := analysis.Replay(c, append(tc.rolls, 1, 1), noDice{t})
		if err != nil {
			t.Fatal(err)
		}
		o := c.Outcomes[r.Index]
		if o.Struck != tc.struck {
			t.Errorf("naval rolls %v: %d struck, want %d", tc.rolls, o.Struck, tc.struck)
		}
		// Each face-down defender adds +1 (docs/rules.md §2.1): one was already.
		var mask int
		for k, roll := range tc.rolls {
			if 2*roll <= 6 {
				mask |= 1 << k
			}
		}
		if got := combat.PreState(c, mask, 0).AtOdds[0].Modifier; got != tc.mod {
			t.Errorf("naval rolls %v: modifier %+d, want %+d", tc.rolls, got, tc.mod)
		}
	}
	sumTo1(t, c)
}

const aaScenario = `kind: land
crt: 2d6
options: [fractional-odds, artillery]
attacker:
  aircraft:
    - {name: Stuka-1, a2a: 1, tactical: 3}
    - {name: Stuka-2, a2a: 1, tactical: 3}
    - {name: Bf-110, a2a: 4, tactical: 2}
  units:
    - {type: ARM, factors: 6, nation: GE}
    - {type: ART, size: division, factors: 4, nation: GE, role: strike}
defender:
  units:
    - {type: INF, factors: 4, nation: FR}
    - {type: AA, size: division, factors: 4, nation: FR}
`

// docs/rules.md §3 and 5, AsA 3.2.2: defending AA fires at the ground-support
// aircraft before the combat; destroyed and aborted aircraft and the rest
// of the total take their tactical factors off the attack.
func TestAAFireAtGroundSupport(t *testing.T) {
	c := compile(t, aaScenario)
	p := combat.PreAAOf(c)
	// 4 AA factors against 3 aircraft: 1 die on the 1 table (1-3 -, 4 1, 5 1, 6 1*).
	if p.Factors != 4 || p.Dice != 1 || p.Table != 1 {
		t.Fatalf("AA fire %d factors, %d dice on table %d", p.Factors, p.Dice, p.Table)
	}
	for _, tc := range []struct {
		die          int
		hit, aborted int
		support      float64
	}{{1, 0, 0, 8}, {4, 0, 0, 7}, {6, 0, 1, 5}} {
		s := p.Air.Shoot(p.Table, []int{tc.die}, p.Planes)
		if s.Hit != tc.hit || s.Aborted != tc.aborted || s.Press != tc.support {
			t.Errorf("AA die %d: hit %d aborted %d support %v, want %d %d %v", tc.die, s.Hit, s.Aborted, s.Press, tc.hit, tc.aborted, tc.support)
		}
	}
	if c.Attack != 14 {
		t.Errorf("base attack %v, want 6 + 8 tactical", c.Attack)
	}
}

// Exact and Monte Carlo agree for a combat with ground strikes and AA fire,
// on both sampling paths.
func TestPreCombatMonteCarloAgreesWithExact(t *testing.T) {
	c := compile(t, aaScenario)
	ex := exactSummary(t, c)
	for _, cc := range []*combat.Combat{c, combat.PerTrial(c)} {
		tally, run, err := sim.Sample(context.Background(), cc, sim.Config{Trials: 400_000, Seed: 9, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		mc := analysis.Summarize(c, tally, run)
		n := float64(run.Trials)
		check := func(what string, p, got float64) {
			if se := math.Sqrt(p * (1 - p) / n); math.Abs(got-p) > 4.5*se+1e-12 {
				t.Errorf("%s: Monte Carlo %.5f, exact %.5f", what, got, p)
			}
		}
		check("hex taken", ex.Probabilities.HexTaken.P, mc.Probabilities.HexTaken.P)
		for i, p := range ex.PreCombat.DefendersStruck {
			check("struck", p, mc.PreCombat.DefendersStruck[i])
		}
		for i, p := range ex.PreCombat.AircraftAborted {
			check("aborted", p, mc.PreCombat.AircraftAborted[i])
		}
		for k, p := range ex.OddsLevels.All() {
			check("odds "+k, p, mc.OddsLevels.Value(k))
		}
	}
}
