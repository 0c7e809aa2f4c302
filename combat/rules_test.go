package combat_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fixture"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// compile parses and compiles scenario text.
func compile(t *testing.T, text string) *combat.Combat { return fixture.CombatText(t, text) }

const twoCorps = `
attacker:
  units:
    - {type: INF, factors: 7, nation: GE}
    - {type: INF, factors: 6, nation: GE}
defender:
  units:
    - {type: INF, factors: 2, nation: FR}
    - {type: INF, factors: 2, nation: FR}
`

func land(crtName, extra string) string {
	return "kind: land\ncrt: " + crtName + "\ntable: assault\n" + extra + twoCorps
}

// sumTo1 checks that a combat's or raid's exact distribution sums to 1,
// and returns it.
func sumTo1(t *testing.T, m sim.Model) []float64 {
	t.Helper()
	tally, _, err := sim.Exact(context.Background(), m, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := tally.Weights
	total := 0.0
	for _, x := range w {
		total += x
	}
	if math.Abs(total-1) > 1e-12 {
		t.Fatalf("exact distribution sums to %v", total)
	}
	return w
}

// docs/rules.md §1: the standard table rounds each total after all halving (0.5
// up); the 2D6 table keeps fractions.
func TestRoundingAfterHalving(t *testing.T) {
	c := compile(t, land("standard", "hex: {across_river: true}\n"))
	if c.RawAttack != 6.5 || c.Attack != 7 {
		t.Errorf("standard: attack %v -> %v, want 6.5 -> 7", c.RawAttack, c.Attack)
	}
	c = compile(t, land("2d6", "hex: {across_river: true, fortified: true}\n"))
	if c.Attack != 3.25 {
		t.Errorf("2d6: attack %v, want 3.25 (13 halved twice, fractions kept)", c.Attack)
	}
}

// docs/rules.md §1: a zero defence is */2S on Assault and */2B on Blitz, with no roll.
func TestZeroDefenceAutomatic(t *testing.T) {
	for _, table := range []string{"assault", "blitz"} {
		text := strings.Replace(land("2d6", ""), "factors: 2, nation: FR", "factors: 0, nation: FR", 2)
		text = strings.Replace(text, "table: assault", "table: "+table, 1)
		c := compile(t, text)
		if !c.Automatic {
			t.Fatalf("%s: zero defence is not automatic", table)
		}
		w := sumTo1(t, c)
		want := map[string]string{"assault": "*/2S", "blitz": "*/2B"}[table]
		for i, p := range w {
			if p > 0 && (c.Outcomes[i].Result.String() != want || !c.Outcomes[i].HexTaken || !c.Outcomes[i].AttackerFaceUp) {
				t.Errorf("%s: outcome %+v, want %s with the hex taken and attackers face-up", table, c.Outcomes[i], want)
			}
		}
		if n, _ := sim.CountPaths(context.Background(), c, 10); n != 1 {
			t.Errorf("%s: an automatic result rolled %d paths", table, n)
		}
	}
}

// docs/rules.md §1: below the lowest level, the standard table uses its lowest
// column and the 2D6 table the <1:5 level (-20).
func TestBelowLowestLevel(t *testing.T) {
	weak := strings.NewReplacer("factors: 7", "factors: 1", "factors: 6", "factors: 0", "factors: 2, nation: FR", "factors: 9, nation: FR").Replace(land("2d6", ""))
	c := compile(t, weak)
	if l := c.CRT.Levels[c.AtOdds[0].Level]; l.String() != "<1:5" || l.Modifier != -20 {
		t.Errorf("2d6 1:18 read at %s (%+d), want <1:5 (-20)", l, l.Modifier)
	}
	c = compile(t, strings.Replace(weak, "crt: 2d6", "crt: standard", 1))
	if l := c.CRT.Levels[c.AtOdds[0].Level]; l.String() != "<=1:2" {
		t.Errorf("standard 1:18 read at %s, want <=1:2", l)
	}
}

func modifierOf(t *testing.T, text string) int {
	t.Helper()
	return compile(t, text).AtOdds[0].Modifier
}

// docs/rules.md §2.1: the other modifiers, each on its own and cumulative.
func TestOtherModifiers(t *testing.T) {
	base := "kind: land\ncrt: 2d6\ntable: %TABLE%\noptions: [%OPT%]\nmodifier: %MOD%\nhex: {terrain: %TERRAIN%, weather: %WEATHER%}\n" +
		"attacker:\n  hq_support: %AHQ%\n  attack_as_mud: %MUD%\n  units:\n%ATT%defender:\n  hq_support: %DHQ%\n  units:\n%DEF%"
	inf := func(n, nation string, extra string) string {
		return "    - {type: INF, factors: " + n + ", nation: " + nation + extra + "}\n"
	}
	mk := func(kv ...string) string {
		r := map[string]string{"%TABLE%": "assault", "%OPT%": "", "%MOD%": "0", "%TERRAIN%": "clear", "%WEATHER%": "clear",
			"%AHQ%": "false", "%MUD%": "false", "%DHQ%": "false", "%ATT%": inf("6", "GE", ""), "%DEF%": inf("2", "FR", "")}
		for i := 0; i+1 < len(kv); i += 2 {
			r[kv[i]] = kv[i+1]
		}
		s := base
		for k, v := range r {
			s = strings.ReplaceAll(s, k, v)
		}
		return s
	}
	cases := []struct {
		name string
		text string
		want int
	}{
		{"none", mk(), 0},
		{"face-down defenders +1 each", mk("%DEF%", inf("2", "FR", ", face_down: true")+inf("1", "FR", ", face_down: true")+inf("1", "FR", "")), 2},
		{"attacker HQ +1", mk("%AHQ%", "true"), 1},
		{"defender HQ -1", mk("%DHQ%", "true"), -1},
		{"three nationalities -2", mk("%ATT%", inf("2", "CW", "")+inf("2", "US", "")+inf("2", "FR", "")), -2},
		{"one nation however spelt", mk("%ATT%", inf("2", "GE", "")+inf("2", "Germany", "")+inf("2", "ger", "")), 0},
		{"mud -1", mk("%WEATHER%", "mud"), -1},
		{"winter -2", mk("%WEATHER%", "winter"), -2},
		{"monsoon -2", mk("%WEATHER%", "monsoon"), -2},
		{"severe winter -3", mk("%WEATHER%", "severe-winter"), -3},
		{"severe winter as mud -1", mk("%WEATHER%", "severe-winter", "%MUD%", "true", "%ATT%", inf("3", "FI", "")+inf("3", "FI", ", ski: false")), -1},
		{"forest -1", mk("%TERRAIN%", "forest"), -1},
		{"jungle -2", mk("%TERRAIN%", "jungle"), -2},
		{"jungle all Japanese -1", mk("%TERRAIN%", "jungle", "%ATT%", inf("6", "JA", "")), -1},
		{"scenario modifier", mk("%MOD%", "3"), 3},
		{"territorials attacked +1", mk("%OPT%", "territorial-modifiers", "%DEF%", inf("2", "FR", ", territorial: true")), 1},
		{"territorials attacking -1", mk("%OPT%", "territorial-modifiers", "%ATT%", "    - {type: TERR, factors: 6, nation: CW}\n"), -1},
		{"territorial option off", mk("%DEF%", inf("2", "FR", ", territorial: true")), 0},
		{"cumulative", mk("%WEATHER%", "mud", "%TERRAIN%", "forest", "%AHQ%", "true", "%DHQ%", "true", "%MOD%", "-1"), -3},
	}
	for _, c := range cases {
		if got := modifierOf(t, c.text); got != c.want {
			t.Errorf("%s: modifier %+d, want %+d", c.name, got, c.want)
		}
	}
	// Optional blitz modifier: Blitz table, clear weather only; corps count 2.
	arm := "    - {type: ARM, factors: 5, nation: GE}\n"
	armDiv := "    - {type: ARM, size: division, factors: 2, nation: GE}\n"
	if got := modifierOf(t, mk("%TABLE%", "blitz", "%OPT%", "blitz-modifier", "%ATT%", arm)); got != 1 {
		t.Errorf("blitz: ARM corps (2) against nothing: %+d, want +1", got)
	}
	if got := modifierOf(t, mk("%TABLE%", "blitz", "%OPT%", "blitz-modifier", "%ATT%", arm+armDiv, "%DEF%", "    - {type: AT, size: division, factors: 1, nation: FR}\n")); got != 1 {
		t.Errorf("blitz: ARM 3 against AT 1: %+d, want +1", got)
	}
	if got := modifierOf(t, mk("%TABLE%", "blitz", "%OPT%", "blitz-modifier", "%ATT%", arm, "%DEF%", "    - {type: AT, size: division, factors: 1, nation: FR}\n")); got != 0 {
		t.Errorf("blitz: ARM 2 against AT 1 (not more than twice): %+d, want 0", got)
	}
	if got := modifierOf(t, mk("%TABLE%", "blitz", "%OPT%", "blitz-modifier", "%DEF%", "    - {type: ARM, factors: 5, nation: FR}\n")); got != -1 {
		t.Errorf("blitz: defending ARM corps against no ARM: %+d, want -1", got)
	}
	if got := modifierOf(t, mk("%TABLE%", "assault", "%OPT%", "blitz-modifier", "%ATT%", arm)); got != 0 {
		t.Errorf("blitz modifier on the Assault table: %+d, want 0", got)
	}
	if got := modifierOf(t, mk("%TABLE%", "blitz", "%OPT%", "blitz-modifier", "%ATT%", arm, "%WEATHER%", "mud")); got != -1 {
		t.Errorf("blitz modifier in mud: %+d, want only the mud -1", got)
	}
}

// docs/rules.md §2: losses by fewest factors, ties by fewest build points, then
// input order; the winter election's first loss; units that cannot retreat
// are destroyed; the hex is taken when every defender is gone.
func TestLossAllocation(t *testing.T) {
	c := compile(t, `kind: land
crt: standard
table: assault
attacker:
  units:
    - {name: a, type: INF, factors: 4, nation: GE, bp: 6}
    - {name: b, type: INF, factors: 3, nation: GE}
    - {name: c, type: INF, factors: 4, nation: GE, bp: 5}
    - {name: d, type: INF, factors: 3, nation: GE}
defender:
  units: [{type: INF, factors: 3, nation: FR}]
`)
	var names []string
	for _, i := range c.AttOrder {
		names = append(names, c.Scenario.Attacker.Units[i].Name)
	}
	if got := strings.Join(names, ""); got != "bdca" {
		t.Errorf("loss order %s, want bdca", got)
	}
	c = compile(t, `kind: land
crt: standard
table: assault
hex: {weather: winter}
attacker:
  attack_as_mud: true
  units:
    - {name: big-ski, type: INF, factors: 6, nation: GE, ski: true}
    - {name: small, type: INF, factors: 2, nation: GE}
defender:
  units: [{type: INF, factors: 3, nation: USSR}]
`)
	if first := c.Scenario.Attacker.Units[c.AttOrder[0]].Name; first != "big-ski" {
		t.Errorf("attack as mud: first loss %s, want the ski unit", first)
	}
	// can_retreat: false turns R, S and B into destruction (docs/rules.md §2, AfA 8.3).
	c = compile(t, "kind: land\ncrt: 2d6\ntable: blitz\n"+strings.Replace(twoCorps, "defender:\n", "defender:\n  can_retreat: false\n", 1))
	w := sumTo1(t, c)
	sawEffect := false
	for i, p := range w {
		o := c.Outcomes[i]
		if p == 0 {
			continue
		}
		if o.Result.Effect != crt.NoEffect {
			sawEffect = true
			if o.DefenderLost != 2 || o.DefenderRetreated != 0 || o.DefenderShattered != 0 || !o.HexTaken {
				t.Errorf("%s with can_retreat false: %+v", o.Result, o)
			}
		}
		if o.HexTaken != (o.DefenderLost == 2) {
			t.Errorf("%s: hex taken %v with %d of 2 defenders destroyed", o.Result, o.HexTaken, o.DefenderLost)
		}
	}
	if !sawEffect {
		t.Fatal("no R/S/B result reachable; the test checks nothing")
	}
}

// docs/rules.md §2.3: which table and who chooses.
func TestTableChoice(t *testing.T) {
	mk := func(hex, att, def string) *combat.Combat {
		return compile(t, "kind: land\ncrt: 2d6\nhex: {"+hex+"}\nattacker:\n  units:\n"+att+"defender:\n  units:\n"+def)
	}
	inf := "    - {type: INF, factors: 4, nation: GE}\n"
	arm := "    - {type: ARM, factors: 4, nation: GE}\n"
	armDiv := "    - {type: ARM, size: division, factors: 2, nation: GE}\n"
	at := "    - {type: AT, size: division, factors: 1, nation: GE}\n"
	cases := []struct {
		name          string
		c             *combat.Combat
		chooser       string
		table         crt.Kind
		clause, check string
	}{
		{"city forces assault", mk("city: true", arm+arm, inf), "terrain", crt.Assault, "(a)", ""},
		{"fortified forces assault", mk("fortified: true", arm+arm, inf), "terrain", crt.Assault, "(a)", ""},
		{"reference town does not", mk("reference_town: true", arm+arm, inf), "attacker", crt.Blitz, "(b)", ""},
		{"attacker more ARM", mk("", arm, inf), "attacker", 0, "(b)", "attacker"},
		{"defender more ARM: AT counts 1/2 each", mk("", armDiv+inf, at+at), "defender", 0, "(c)", "defender"},
		{"3:1 with ARM", mk("", arm+inf+inf+inf, arm), "attacker", 0, "(d)", "attacker"},
		{"below 3:1 equal ARM", mk("", arm, arm+inf), "defender", 0, "(e)", "defender"},
		{"otherwise defender", mk("", inf+inf, inf), "defender", 0, "(e)", "defender"},
	}
	for _, tc := range cases {
		v := tc.c.AtOdds[0]
		if string(v.Chooser) != tc.chooser || !strings.HasPrefix(v.Reason, tc.clause) {
			t.Errorf("%s: chosen by %s (%s), want %s %s", tc.name, v.Chooser, v.Reason, tc.chooser, tc.clause)
			continue
		}
		switch tc.check {
		case "":
			if v.Table != tc.table {
				t.Errorf("%s: %s table, want %s", tc.name, v.Table, tc.table)
			}
		case "attacker":
			// The attacker's pick maximises P(hex taken).
			if v.Compare[v.Table].HexTaken < v.Compare[1-v.Table].HexTaken {
				t.Errorf("%s: attacker picked %s with the lower P(hex taken)", tc.name, v.Table)
			}
		case "defender":
			if v.Compare[v.Table].HexTaken > v.Compare[1-v.Table].HexTaken {
				t.Errorf("%s: defender picked %s with the higher P(hex taken)", tc.name, v.Table)
			}
		}
	}
	// table: blitz where the terrain forces Assault is refused.
	s, _ := scenario.Parse("x.yaml", []byte("kind: land\ntable: blitz\nhex: {city: true}\n"+twoCorps))
	tb, _ := crt.Builtin("standard")
	if _, err := combat.Compile(s, tb, nil); err == nil || !strings.Contains(err.Error(), "forces the Assault table") {
		t.Errorf("blitz in a city: %v", err)
	}
}

// docs/rules.md §2.4: under wild results a * in either picked part keeps the
// attackers face-up, provided they lost nothing.
func TestWildFaceUp(t *testing.T) {
	c := compile(t, "kind: land\ncrt: 2d6\ntable: blitz\noptions: [wild-results]\n"+twoCorps)
	lv := c.AtOdds[0].Level
	mod := c.AtOdds[0].Modifier
	star, plain := -1, -1
	for d := 2; d <= 12; d++ {
		r := c.CRT.Lookup(crt.Blitz, lv, d+mod)
		if r.FaceUp && star < 0 {
			star = d
		}
		if !r.FaceUp && r.AttackerLoss == 0 && plain < 0 {
			plain = d
		}
	}
	if star < 0 || plain < 0 {
		t.Fatal("fixture lacks a * row and a - row")
	}
	// Attacker rolls the * row, defender the - row: attacker part -, but face-up.
	r, err := analysis.Replay(c, split2d6(star, plain), noDice{t})
	if err != nil {
		t.Fatal(err)
	}
	if !r.AttackerUp || r.AttackerLost != 0 {
		t.Errorf("* on the attacker's roll, - on the defender's: %+v, want face-up", r)
	}
}

// split2d6 turns two 2d6 totals into four dice.
func split2d6(a, b int) []int {
	one := func(t int) []int {
		x := min(6, t-1)
		return []int{x, t - x}
	}
	return append(one(a), one(b)...)
}

// docs/rules.md §3: terrain multiplies the defence, rivers and fortified
// hexsides halve attackers, AT/AA double against ARM, towed artillery alone
// and face-down unsupplied units are worth 1.
func TestFactorRules(t *testing.T) {
	mk := func(hex, att, def string) *combat.Combat {
		return compile(t, "kind: land\ncrt: 2d6\ntable: assault\nhex: {"+hex+"}\nattacker:\n  units:\n"+att+"defender:\n  units:\n"+def)
	}
	inf := "    - {type: INF, factors: 8, nation: GE}\n"
	arm := "    - {type: ARM, factors: 8, nation: GE}\n"
	cases := []struct {
		name     string
		c        *combat.Combat
		att, def float64
	}{
		{"mountain doubles", mk("terrain: mountain", inf, "    - {type: INF, factors: 3, nation: FR}\n"), 8, 6},
		{"defence_multiplier overrides", mk("terrain: mountain, defence_multiplier: 3", inf, "    - {type: INF, factors: 3, nation: FR}\n"), 8, 9},
		{"river and fort compound", mk("across_river: true, fortified: true", inf, "    - {type: INF, factors: 3, nation: FR}\n"), 2, 3},
		{"dark AT doubles against ARM", mk("", arm, "    - {type: AT, size: division, factors: 2, red_circle: dark, nation: FR}\n    - {type: INF, factors: 1, nation: FR}\n"), 8, 5},
		{"light AT doubles against ARM", mk("", arm, "    - {type: AT, size: division, factors: 2, red_circle: light, nation: FR}\n    - {type: INF, factors: 1, nation: FR}\n"), 8, 5},
		{"AT not doubled against INF", mk("", inf, "    - {type: AT, size: division, factors: 2, red_circle: dark, nation: FR}\n    - {type: INF, factors: 1, nation: FR}\n"), 8, 3},
		{"attacking dark AT doubles against ARM", mk("", "    - {type: AT, size: division, factors: 2, red_circle: dark, nation: GE}\n", arm), 4, 8},
		{"attacking light AT does not", mk("", "    - {type: AT, size: division, factors: 2, red_circle: light, nation: GE}\n", arm), 2, 8},
		{"towed artillery alone is 1", mk("", inf, "    - {type: AT, size: division, factors: 3, towed: true, nation: FR}\n    - {type: AA, size: division, factors: 2, nation: FR}\n"), 8, 2},
		{"towed artillery with infantry keeps factors", mk("", inf, "    - {type: AT, size: division, factors: 3, towed: true, nation: FR}\n    - {type: INF, factors: 1, nation: FR}\n"), 8, 4},
		{"face-down unsupplied AT is 1", mk("", inf, "    - {type: AT, size: division, factors: 3, face_down: true, supply: false, nation: FR}\n    - {type: INF, factors: 1, nation: FR}\n"), 8, 2},
		{"face-down unsupplied division is 1", mk("", inf, "    - {type: INF, size: division, factors: 3, face_down: true, supply: false, nation: FR}\n"), 8, 1},
		{"face-down supplied division keeps factors", mk("", inf, "    - {type: INF, size: division, factors: 3, face_down: true, nation: FR}\n"), 8, 3},
		{"ground support and shore bombardment add", compile(t, "kind: land\ncrt: 2d6\ntable: assault\nattacker:\n  ground_support: 2.5\n  shore_bombardment: 1\n  units:\n"+inf+"defender:\n  ground_support: 1\n  units:\n    - {type: INF, factors: 3, nation: FR}\n"), 11.5, 4},
	}
	for _, tc := range cases {
		if tc.c.Attack != tc.att || tc.c.Defence != tc.def {
			t.Errorf("%s: %v:%v, want %v:%v", tc.name, tc.c.Attack, tc.c.Defence, tc.att, tc.def)
		}
	}
}

func TestExactSumsToOne(t *testing.T) {
	for _, p := range agreementScenarios {
		sumTo1(t, load(t, p))
		sumTo1(t, combat.PerTrial(load(t, p)))
	}
}

func TestExactBudget(t *testing.T) {
	// Walked path by path (no table, no tabulation).
	c := hidden{combat.PerTrial(load(t, "testdata/wild-2d6-fractional.yaml"))}
	if _, _, err := sim.Exact(context.Background(), c, 100, nil); err == nil || !strings.Contains(err.Error(), "budget") {
		t.Fatalf("Exact over budget: %v", err)
	}
	if _, _, err := sim.Exact(context.Background(), hidden{load(t, "testdata/wild-2d6-fractional.yaml")}, 100, nil); err == nil {
		t.Fatal("flat Exact over budget did not fail")
	}
	// Tabulated, the same tree walks no path: the budget does not bound it
	// (docs/performance.md), and the tally is the flat table's.
	tab, run, err := sim.Exact(context.Background(), load(t, "testdata/wild-2d6-fractional.yaml"), 100, nil)
	if err != nil || run.Paths <= 100 {
		t.Fatalf("tabulated Exact under a budget of 100 paths: %v, %d paths", err, run.Paths)
	}
	flat, _, _ := sim.Exact(context.Background(), hidden{load(t, "testdata/wild-2d6-fractional.yaml")}, 0, nil)
	for i := range tab.Weights {
		if tab.Weights[i] != flat.Weights[i] {
			t.Fatalf("outcome %d: tabulated %v, flat %v", i, tab.Weights[i], flat.Weights[i])
		}
	}
	if fits, err := sim.Fits(context.Background(), load(t, "testdata/wild-2d6-fractional.yaml"), 100); !fits || err != nil {
		t.Errorf("a tabulated combat does not fit a budget of 100: %v", err)
	}
	if fits, err := sim.Fits(context.Background(), hidden{load(t, "testdata/wild-2d6-fractional.yaml")}, 100); fits || err != nil {
		t.Errorf("walking 7,776 paths fits a budget of 100: %v", err)
	}
}

func TestReplayRejectsOutOfRangeDie(t *testing.T) {
	c := load(t, "../examples/wild-results-3to1.yaml")
	if _, err := analysis.Replay(c, []int{7, 1}, noDice{t}); err == nil || !strings.Contains(err.Error(), "dice[0]: 7 is not a roll of the d6") {
		t.Fatalf("Replay with a 7 on a d6: %v", err)
	}
}

// Losses by unit type follow each side's loss order (docs/rules.md §2).
func TestLossesByType(t *testing.T) {
	c := load(t, "../examples/wild-results-3to1.yaml")
	sum := exactSummary(t, c)
	arm, inf := sum.LossesByType.Attacker.Value("ARM"), sum.LossesByType.Attacker.Value("INF")
	// The ARM corps (6) is lost only as the third unit, which no result takes.
	if arm.Mean.Mean != 0 || math.Abs(inf.Mean.Mean-sum.Means.AttackerUnitsLost.Mean) > 1e-12 {
		t.Errorf("attacker losses by type: ARM %v, INF %v, total %v", arm.Mean.Mean, inf.Mean.Mean, sum.Means.AttackerUnitsLost.Mean)
	}
	if d := sum.LossesByType.Defender.Value("INF"); math.Abs(d.Mean.Mean-sum.Means.DefenderUnitsLost.Mean) > 1e-12 || d.AnyOf.P != 1 {
		t.Errorf("defender INF losses %+v", d)
	}
}

// AsA 3.1.1, docs/rules.md §3: with Kampfgruppe a corps lost with a division
// available is reduced, not destroyed; a defending one retreats, or is
// destroyed when it cannot.
func TestKampfgruppe(t *testing.T) {
	text := `kind: land
crt: 2d6
table: assault
options: [kampfgruppe]
attacker:
  units:
    - {type: INF, factors: 3, nation: GE, division_available: true}
    - {type: INF, factors: 9, nation: GE}
defender:
%s  units:
    - {type: INF, factors: 2, nation: FR, division_available: true}
    - {type: INF, factors: 3, nation: FR}
`
	c := compile(t, strings.Replace(text, "%s", "", 1))
	w := sumTo1(t, c)
	sawA, sawD := false, false
	for i, p := range w {
		o := c.Outcomes[i]
		if p == 0 {
			continue
		}
		if o.Result.AttackerLoss >= 1 {
			sawA = true
			// The 3-factor corps goes first and comes back as a division.
			if o.AttackerReduced != 1 || int(o.AttackerLost) != min(int(o.Result.AttackerLoss), 2)-1 {
				t.Errorf("%s: attacker reduced %d destroyed %d", o.Result, o.AttackerReduced, o.AttackerLost)
			}
		}
		if o.Result.DefenderLoss >= 1 {
			sawD = true
			if o.DefenderReduced != 1 || !(o.HexTaken == (o.Result.DefenderLoss >= 2 || o.Result.Effect != crt.NoEffect)) {
				t.Errorf("%s: defender reduced %d, hex taken %v", o.Result, o.DefenderReduced, o.HexTaken)
			}
		}
	}
	if !sawA || !sawD {
		t.Fatal("fixture reaches no losses")
	}
	// A defender that cannot retreat is destroyed after all.
	c = compile(t, strings.Replace(text, "%s", "  can_retreat: false\n", 1))
	for i, p := range sumTo1(t, c) {
		if p > 0 && c.Outcomes[i].DefenderReduced != 0 {
			t.Fatalf("a defender that cannot retreat was reduced: %+v", c.Outcomes[i])
		}
	}
	// Without the option the key is refused.
	if _, err := scenario.Parse("k.yaml", []byte(strings.Replace(strings.Replace(text, "%s", "", 1), "options: [kampfgruppe]\n", "", 1))); err == nil {
		t.Fatal("division_available accepted without kampfgruppe")
	}
}

func scenarioParse(text string) (*scenario.Scenario, error) {
	return scenario.Parse("test.yaml", []byte(text))
}

// Audit item 3 (docs/rules.md §3, AsA 3.1.1): under Kampfgruppe the corps
// "is destroyed" and a division replaces it, so the factors lost are the
// corps' less the division's; with no division_factors given the whole
// corps counts as lost.
func TestKampfgruppeFactorsLost(t *testing.T) {
	text := `kind: land
crt: 2d6
table: assault
options: [kampfgruppe]
attacker:
  units: [{type: INF, factors: 9, nation: GE}]
defender:
  units: [{type: ARM, factors: 5, nation: FR, division_available: true%s}]
`
	for extra, want := range map[string]float64{", division_factors: 2": 3, "": 5} {
		c := compile(t, fmt.Sprintf(text, extra))
		w := sumTo1(t, c)
		seen := false
		for i, p := range w {
			if o := c.Outcomes[i]; p > 0 && o.DefenderReduced == 1 {
				seen = true
				if o.DefenderFactorsLost != want {
					t.Errorf("%q: %s reduced the corps with %v factors lost, want %v", extra, o.Result, o.DefenderFactorsLost, want)
				}
			}
		}
		if !seen {
			t.Fatalf("%q: the corps is never reduced", extra)
		}
	}
	for _, bad := range []string{", division_factors: 6", ", division_factors: -1"} {
		if _, err := scenarioParse(fmt.Sprintf(text, bad)); err == nil || !strings.Contains(err.Error(), "division_factors") {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
}
