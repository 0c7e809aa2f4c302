package combat_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/sim"
)

// AsA 3.11 worked example (docs/rules.md §4): notional 1 + 1 adjacent corps + 2
// (1-section) + 1 (2-section) - 1 surprise = 4, doubled by mountain to 8;
// MAR 4 + INF 5/2 + 6.5 + 6.5 = 19.5 -> 20; 20:8 -> 2:1. From the
// 3-section: defence 2, odds 10:1.
func TestPortMoresbyExample(t *testing.T) {
	c := load(t, "../examples/port-moresby-invasion.yaml")
	if c.Notional != 4 || c.RawDefence != 8 || c.RawAttack != 19.5 || c.Attack != 20 || c.Defence != 8 {
		t.Fatalf("notional %v, totals %v:%v (raw %v:%v), want 4, 20:8 (19.5:8)", c.Notional, c.Attack, c.Defence, c.RawAttack, c.RawDefence)
	}
	if l := c.CRT.Levels[c.AtOdds[0].Level].String(); l != "2:1" {
		t.Fatalf("odds %s, want 2:1", l)
	}
	c = load(t, "../examples/port-moresby-3-section.yaml")
	if c.Defence != 2 || c.Attack != 20 || c.CRT.Levels[c.AtOdds[0].Level].String() != ">=10:1" {
		t.Fatalf("3-section: %v:%v at %s, want 20:2 at 10:1", c.Attack, c.Defence, c.CRT.Levels[c.AtOdds[0].Level])
	}
}

func invasion(extra, hex, att, def string) string {
	return "kind: invasion\ncrt: 2d6\ntable: assault\n" + extra + "hex: {" + hex + "}\nattacker:\n  units:\n" + att + "defender:\n  units:" + def
}

const mar4 = "    - {type: MAR, factors: 4, nation: US}\n"
const inf6 = "    - {type: INF, factors: 6, nation: US}\n"

// docs/rules.md §4: MAR factors unmodified, the other invading factors halved.
func TestInvadingFactors(t *testing.T) {
	c := compile(t, invasion("", "", mar4+inf6+inf6, " []\n"))
	if c.Attack != 10 {
		t.Errorf("MAR 4 + (6 + 6)/2 = %v, want 10", c.Attack)
	}
	// A land combat does not halve.
	c = compile(t, strings.Replace(invasion("", "", mar4+inf6, "\n    - {type: INF, factors: 1, nation: JA}\n"), "kind: invasion", "kind: land", 1))
	if c.Attack != 10 {
		t.Errorf("land attack %v, want 10", c.Attack)
	}
}

// docs/rules.md §4: the notional unit and each of its modifiers.
func TestNotionalUnit(t *testing.T) {
	sec := func(n string) string { return "    - {type: MAR, factors: 4, nation: US, section: " + n + "}\n" }
	real := "\n    - {type: INF, factors: 2, nation: JA}\n"
	cases := []struct {
		name     string
		text     string
		notional float64
		defence  float64
	}{
		{"base", invasion("", "", sec("3"), " []\n"), 1, 1},
		{"surprise", invasion("", "surprise: true", sec("3"), " []\n"), 0, 0},
		{"out of supply", invasion("", "supply: false", sec("3"), " []\n"), 0, 0},
		{"never below 0", invasion("", "supply: false, surprise: true", sec("3"), " []\n"), 0, 0},
		{"home nation", invasion("", "home_nation: true", sec("3"), " []\n"), 2, 2},
		{"city", invasion("", "city: true", sec("3"), " []\n"), 2, 2},
		{"adjacent corps, empty hex", invasion("", "adjacent_friendly_corps: true", sec("3"), " []\n"), 2, 2},
		{"adjacent corps, real unit present", invasion("", "adjacent_friendly_corps: true", sec("3"), real), 1, 3},
		{"2-section", invasion("", "", sec("2"), " []\n"), 2, 2},
		{"1-section", invasion("", "", sec("1"), " []\n"), 3, 3},
		{"each unit counts", invasion("", "", sec("1")+sec("2")+sec("3"), " []\n"), 4, 4},
		{"added before terrain", invasion("", "terrain: mountain", sec("3"), real), 1, 6},
		{"paradrop: no sections", strings.Replace(invasion("", "", "    - {type: PARA, factors: 2, nation: US}\n", " []\n"), "kind: invasion", "kind: paradrop", 1), 1, 1},
	}
	for _, tc := range cases {
		c := compile(t, tc.text)
		if c.Notional != tc.notional || c.Defence != tc.defence {
			t.Errorf("%s: notional %v defence %v, want %v and %v", tc.name, c.Notional, c.Defence, tc.notional, tc.defence)
		}
	}
}

// docs/rules.md §4: a zero defence is an automatic success ("infinity to 1"),
// and the invaders keep their face-up status; otherwise any defender part
// but "-" destroys the notional unit without counting as a loss, and after
// a success outside clear and desert the invaders turn face-down.
func TestInvasionResults(t *testing.T) {
	c := compile(t, invasion("", "surprise: true, terrain: jungle", mar4, " []\n"))
	if !c.Automatic {
		t.Fatal("zero defence is not automatic")
	}
	w := sumTo1(t, c)
	for i, p := range w {
		if p > 0 && (!c.Outcomes[i].HexTaken || !c.Outcomes[i].AttackerFaceUp) {
			t.Errorf("automatic success: %+v", c.Outcomes[i])
		}
	}
	for _, terrain := range []string{"clear", "jungle"} {
		c = compile(t, invasion("", "terrain: "+terrain, mar4+inf6, "\n    - {type: INF, factors: 1, nation: JA}\n"))
		w = sumTo1(t, c)
		checked := 0
		for i, p := range w {
			o := c.Outcomes[i]
			if p == 0 {
				continue
			}
			if o.Result.DefenderLoss == 0 && o.Result.Effect == crt.NoEffect && o.HexTaken {
				t.Errorf("%s: %s took the hex", terrain, o.Result)
			}
			if o.Result.DefenderLoss > 0 && (!o.HexTaken || o.DefenderLost != 1) {
				t.Errorf("%s: %s: hex taken %v, %d units lost; the notional unit must not count", terrain, o.Result, o.HexTaken, o.DefenderLost)
			}
			if terrain == "jungle" && o.HexTaken && o.AttackerFaceUp {
				t.Errorf("jungle: invaders face-up after %s", o.Result)
			}
			if terrain == "clear" && o.Result.FaceUp && o.Result.AttackerLoss == 0 && !o.AttackerFaceUp {
				t.Errorf("clear: %s should leave the invaders face-up", o.Result)
			}
			checked++
		}
		if checked == 0 {
			t.Fatal("no outcomes checked")
		}
	}
	// Only the notional unit: a defender part of 1 or more takes the hex.
	c = compile(t, invasion("", "", mar4+inf6, " []\n"))
	w = sumTo1(t, c)
	for i, p := range w {
		o := c.Outcomes[i]
		if p > 0 && o.HexTaken != (o.Result.DefenderLoss > 0 || o.Result.Effect != crt.NoEffect) {
			t.Errorf("notional only: %s hex taken %v", o.Result, o.HexTaken)
		}
		if p > 0 && o.DefenderLost != 0 {
			t.Errorf("notional only: %d defending units counted lost", o.DefenderLost)
		}
	}
}

// docs/rules.md §3, AfA 3.6: fortifications never halve paradroppers, and a drop
// does not cross the fortified hexside, so it does not force Assault.
func TestParadropAndFortifications(t *testing.T) {
	para := "    - {type: PARA, factors: 4, nation: GE}\n"
	arm := "    - {type: ARM, factors: 4, nation: GE}\n"
	text := strings.Replace(invasion("", "fortified: true", para+arm, "\n    - {type: INF, factors: 1, nation: CW}\n"), "kind: invasion", "kind: paradrop", 1)
	text = strings.Replace(text, "table: assault\n", "", 1)
	c := compile(t, text)
	if c.Attack != 8 {
		t.Errorf("paradrop through a fort: attack %v, want 8", c.Attack)
	}
	if c.AtOdds[0].Chooser == "terrain" {
		t.Error("a paradrop was forced onto the Assault table by a fortified hexside")
	}
	c = compile(t, strings.Replace(text, "kind: paradrop", "kind: land", 1))
	if c.Attack != 4 || c.AtOdds[0].Chooser != "terrain" {
		t.Errorf("land attack through a fort: %v, chooser %s", c.Attack, c.AtOdds[0].Chooser)
	}
}

// Exact and Monte Carlo agree for an invasion with fractional odds and wild
// results, on both sampling paths.
func TestInvasionMonteCarloAgreesWithExact(t *testing.T) {
	c := compile(t, invasion("options: [fractional-odds, wild-results]\n", "terrain: forest, city: true",
		mar4+inf6+"    - {type: INF, factors: 3, nation: US, section: 2}\n", "\n    - {type: INF, factors: 2, nation: JA}\n"))
	ex := exactSummary(t, c)
	if ex.OddsLevels == nil || len(ex.OddsLevels) != 2 {
		t.Fatalf("fixture should straddle two odds levels: %v", ex.OddsLevels)
	}
	for _, cc := range []*combat.Combat{c, combat.PerTrial(c)} {
		tally, run, err := sim.Sample(context.Background(), cc, sim.Config{Trials: 300_000, Seed: 11, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		mc := analysis.Summarize(c, tally, run)
		n := float64(run.Trials)
		for what, pair := range map[string][2]float64{
			"success":  {ex.Probabilities.HexTaken.P, mc.Probabilities.HexTaken.P},
			"face-up":  {ex.Probabilities.AttackerFaceUp.P, mc.Probabilities.AttackerFaceUp.P},
			"no loss":  {ex.Distributions.AttackerUnitsLost[0], mc.Distributions.AttackerUnitsLost[0]},
			"one loss": {ex.Distributions.AttackerUnitsLost[1], mc.Distributions.AttackerUnitsLost[1]},
		} {
			p, got := pair[0], pair[1]
			if se := math.Sqrt(p * (1 - p) / n); math.Abs(got-p) > 4.5*se+1e-12 {
				t.Errorf("%s: Monte Carlo %.5f, exact %.5f", what, got, p)
			}
		}
		for lv, p := range ex.OddsLevels.All() {
			if se := math.Sqrt(p * (1 - p) / n); math.Abs(mc.OddsLevels.Value(lv)-p) > 4.5*se {
				t.Errorf("odds %s: Monte Carlo %.5f, exact %.5f", lv, mc.OddsLevels.Value(lv), p)
			}
		}
	}
}

// docs/rules.md §6: AWAW DMs favour the defender; on our tables a DM of d is a
// modifier of -d.
func TestAWAWSignConversion(t *testing.T) {
	for _, d := range []int{-2, -1, 0, 1, 2} {
		if combat.AWAWDM(d) != -d {
			t.Errorf("DM %+d became %+d", d, combat.AWAWDM(d))
		}
	}
}

// docs/rules.md §6, AWAW 10.71 and 10.84: the defender's +1 DM against invasion
// (a -1 modifier) is cancelled when American marines or Japanese SNLF are
// at least half the invading factors; commandos do not cancel it.
func TestAWAWMarines(t *testing.T) {
	opt := "options: [awaw-unit-effects]\n"
	cases := []struct {
		name, att string
		want      int
	}{
		{"US marines half", "    - {type: MAR, factors: 4, nation: US}\n    - {type: INF, factors: 4, nation: US}\n", 0},
		{"US marines under half", "    - {type: MAR, factors: 3, nation: US}\n    - {type: INF, factors: 4, nation: US}\n", -1},
		{"SNLF", "    - {type: MAR, factors: 4, nation: JA}\n", 0},
		{"CW marines do not count", "    - {type: MAR, factors: 4, nation: CW}\n", -1},
		{"commandos do not cancel", "    - {type: CMDO, size: division, factors: 4, nation: CW}\n", -1},
	}
	for _, tc := range cases {
		c := compile(t, invasion(opt, "", tc.att, " []\n"))
		if got := c.AtOdds[0].Modifier; got != tc.want {
			t.Errorf("%s: modifier %+d, want %+d", tc.name, got, tc.want)
		}
		if c := compile(t, invasion("", "", tc.att, " []\n")); c.AtOdds[0].Modifier != 0 {
			t.Errorf("%s without the option: modifier %+d", tc.name, c.AtOdds[0].Modifier)
		}
	}
}

// docs/rules.md §6, AWAW 10.55C-D: airdrops only at 1:1 or better, reported as not
// allowed; units defending only against an airdrop get DM +1 (infantry,
// replacements, partisans) or +2 (armour, specialized).
func TestAWAWAirdrops(t *testing.T) {
	drop := func(opts, att, def string) *combat.Combat {
		return compile(t, strings.Replace(invasion(opts, "", att, def), "kind: invasion", "kind: paradrop", 1))
	}
	para4 := "    - {type: PARA, factors: 4, nation: GE}\n"
	opt := "options: [awaw-unit-effects]\n"
	for def, want := range map[string]int{
		"\n    - {type: INF, factors: 1, nation: CW}\n":                                            -1,
		"\n    - {type: REPL, size: division, factors: 1, nation: CW}\n":                           -1,
		"\n    - {type: ARM, factors: 1, nation: CW}\n":                                            -2,
		"\n    - {type: INF, factors: 1, nation: CW}\n    - {type: MAR, factors: 1, nation: CW}\n": -2,
		"\n    - {type: HQ, factors: 1, nation: CW}\n":                                             0,
	} {
		if got := drop(opt, para4, def).AtOdds[0].Modifier; got != want {
			t.Errorf("defenders%s: modifier %+d, want %+d", def, got, want)
		}
	}
	// 4 against 5 is below 1:1: not allowed, never a failure.
	c := drop(opt, para4, "\n    - {type: INF, factors: 5, nation: CW}\n")
	sumTo1(t, c)
	sum := exactSummary(t, c)
	if sum.Probabilities.NotAllowed == nil || sum.Probabilities.NotAllowed.P != 1 || sum.Probabilities.HexTaken.P != 0 || sum.Results.Value(analysis.NotAllowed) != 1 {
		t.Fatalf("4:5 airdrop: %+v, results %v", sum.Probabilities, sum.Results)
	}
	// With fractional odds straddling 1:1 only the low side is refused.
	// 9 against 9 + the notional 1 is 0.9: 4 sixths of the way from 2:3 to
	// 1:1, so a d6 of 5 or 6 stays below 1:1.
	c = drop("options: [awaw-unit-effects, fractional-odds]\n", "    - {type: PARA, factors: 9, nation: GE}\n", "\n    - {type: INF, factors: 9, nation: CW}\n")
	sum = exactSummary(t, c)
	if p := sum.Probabilities.NotAllowed.P; math.Abs(p-2.0/6) > 1e-12 {
		t.Errorf("9:10 with fractional odds: P(not allowed) %v, want 2/6", p)
	}
	// An empty hex (only the notional unit) has no enemy unit: no restriction.
	c = drop(opt, "    - {type: PARA, factors: 1, nation: GE}\n", " []\n")
	if c.AirdropLimited() {
		t.Error("an airdrop on an empty hex was limited")
	}
}

// docs/rules.md §6 on land: AWAW 10.13, 10.24, 10.32, 10.41F, 10.64A, 10.23.
func TestAWAWLand(t *testing.T) {
	mk := func(hex, attExtra, att, defExtra, def string) *combat.Combat {
		return compile(t, "kind: land\ncrt: 2d6\ntable: assault\noptions: [awaw-unit-effects]\nhex: {"+hex+"}\nattacker:\n"+attExtra+"  units:\n"+att+"defender:\n"+defExtra+"  units:\n"+def)
	}
	arm := "    - {type: ARM, factors: 6, nation: GE}\n"
	inf := "    - {type: INF, factors: 2, nation: USSR}\n"
	repl := "    - {type: REPL, size: division, factors: 3, nation: USSR}\n"
	para := "    - {type: PARA, size: division, factors: 2, nation: USSR}\n"
	negated := "    - {type: ARM, factors: 3, nation: USSR, mech_negated: true}\n"
	exp := "  exploiting: true\n"
	cases := []struct {
		name string
		c    *combat.Combat
		want int
	}{
		{"infantry attacked by exploiting armour", mk("", exp, arm, "", inf), 1},
		{"replacements too", mk("", exp, arm, "", repl), 1},
		{"negated armour too", mk("", exp, arm, "", negated), 1},
		{"not in a protected hex", mk("protected: true", exp, arm, "", inf), 0},
		{"specialized units are exempt", mk("", exp, arm, "", inf+para), 0},
		{"not exploiting", mk("", "", arm, "", inf), 0},
		{"negated armour with CTL 0", mk("", "", arm, "  ctl: 0\n", negated), 1},
		{"negated armour with CTL 1", mk("", "", arm, "  ctl: 1\n", negated), 0},
		{"negated armour at home", mk("home_nation: true", "", arm, "  ctl: 0\n", negated), 0},
		{"both", mk("", exp, arm, "  ctl: -1\n", negated), 2},
		{"isolated Chindit", mk("", "", "    - {type: CHINDIT, size: brigade, factors: 1, nation: CW, isolated: true}\n", "", inf), 1},
		{"supported Chindit", mk("", "", "    - {type: CHINDIT, size: brigade, factors: 1, nation: CW}\n", "", inf), 0},
	}
	for _, tc := range cases {
		if got := tc.c.AtOdds[0].Modifier; got != tc.want {
			t.Errorf("%s: modifier %+d, want %+d", tc.name, got, tc.want)
		}
	}
	// Replacements defend with 1 factor (10.23).
	if c := mk("", "", arm, "", repl); c.Defence != 1 {
		t.Errorf("replacement defending: %v, want 1", c.Defence)
	}
	// Without the option they keep their factors and no DM applies.
	c := compile(t, "kind: land\ncrt: 2d6\ntable: assault\nattacker:\n  units:\n"+arm+"defender:\n  units:\n"+repl)
	if c.Defence != 3 {
		t.Errorf("replacement without the option: %v", c.Defence)
	}
}

// AsA 3.2: a Katyusha is self-propelled for combat, so it is not worth 1
// when alone like towed artillery.
func TestKatyusha(t *testing.T) {
	c := compile(t, "kind: land\ncrt: 2d6\ntable: assault\nattacker:\n  units: [{type: INF, factors: 6, nation: GE}]\ndefender:\n  units: [{type: ART, size: division, factors: 3, nation: USSR, katyusha: true}]\n")
	if c.Defence != 3 {
		t.Errorf("a Katyusha alone defends with %v, want 3", c.Defence)
	}
	c = compile(t, "kind: land\ncrt: 2d6\ntable: assault\nattacker:\n  units: [{type: INF, factors: 6, nation: GE}]\ndefender:\n  units: [{type: ART, size: division, factors: 3, nation: USSR, towed: true}]\n")
	if c.Defence != 1 {
		t.Errorf("towed artillery alone defends with %v, want 1", c.Defence)
	}
}

// Audit item 2 (docs/rules.md §4; AsA 3.11, 3.13): with no real land unit
// in the hex the notional unit may be ground-struck as if it were one, and
// face-down it gives the +1 for a face-down defender. A 2-factor MAR
// against the notional unit is 2:1 on the Assault table, where a roll of 3
// or more takes the hex (4/6); a 6-factor ship strikes on 1-3, and then a
// 2 or more does (5/6): 1/2 x 4/6 + 1/2 x 5/6 = 3/4.
func TestNotionalUnitGroundStrike(t *testing.T) {
	c := compile(t, `kind: invasion
table: assault
options: [naval-ground-strike]
attacker:
  naval_strikes: [{name: cruiser, factors: 6}]
  units: [{type: MAR, size: division, factors: 2, nation: US}]
`)
	sum := exactSummary(t, c)
	if p := sum.Probabilities.HexTaken.P; !near(p, 0.75) {
		t.Errorf("P(hex taken) %v, want 0.75", p)
	}
	if got := sum.PreCombat.DefendersStruck; len(got) != 2 || !near(got[1], 0.5) {
		t.Errorf("struck %v, want the notional unit face-down half the time", got)
	}
	// With a real defender in the hex the notional unit is not a target.
	c = compile(t, `kind: invasion
table: assault
options: [naval-ground-strike]
attacker:
  naval_strikes: [{name: cruiser, factors: 6}]
  units: [{type: MAR, size: division, factors: 2, nation: US}]
defender:
  units: [{type: INF, size: division, factors: 1, nation: JA, face_down: true}]
`)
	if targets, _ := combat.PreTargets(c); !c.HasPreCombat() || len(targets) != 0 {
		t.Errorf("targets %v, want none: the only real unit is already face-down", targets)
	}
}
