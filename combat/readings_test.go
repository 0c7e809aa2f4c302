package combat_test

import (
	"math"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/scenario"
)

// The readings of issue 24: each checked against the rulebook text.

// hasTerm reports whether the chosen table's modifiers at the base odds
// include one whose name contains name.
func hasTerm(c *combat.Combat, name string) bool {
	for _, t := range c.AtOdds[0].Terms {
		if strings.Contains(t.Name, name) {
			return true
		}
	}
	return false
}

// Reading 1, docs/rules.md §2 and §3 (AsA 3.1.1): under Kampfgruppe a corps
// a division replaces costs its factors less the division's, and the
// default policy loses the cheapest first. Hand-worked: the 5-factor ARM
// corps replaced by a 3-factor division costs 5 - 3 = 2, the INF corps 3,
// so the ARM corps goes first; a result of one defending loss reduces it
// (2 factors lost, no unit destroyed) where the old reading destroyed the
// INF corps (3 factors). Without division_factors the corps costs all 5
// and the INF corps goes first. Equal costs go to the fewer build points:
// the ARM corps (cost 2, 10 BP) after a 2-factor INF division of 4 BP. A
// defender that cannot retreat is destroyed after all, so costs 5.
func TestKampfgruppeLossOrderByCost(t *testing.T) {
	const text = `kind: land
crt: 2d6
table: assault
options: [kampfgruppe]
attacker:
  units: [{type: INF, factors: 12, nation: GE}]
defender:
%s  units:
    - {name: Pz, type: ARM, size: corps, factors: 5, nation: FR, division_available: true%s}
    - {name: Inf, type: INF, factors: %s, nation: FR%s}
`
	first := func(retreat, divFactors, inf, infBP string) string {
		c := compile(t, fill(text, retreat, divFactors, inf, infBP))
		return c.Scenario.Defender.Units[c.DefOrder[0]].Name
	}
	if got := first("", ", division_factors: 3", "3", ", size: corps"); got != "Pz" {
		t.Errorf("the ARM corps costs 2, the INF 3: %s lost first, want Pz", got)
	}
	if got := first("", "", "3", ", size: corps"); got != "Inf" {
		t.Errorf("without division_factors the ARM corps costs 5: %s lost first, want Inf", got)
	}
	if got := first("", ", division_factors: 3, bp: 10", "2", ", size: division, bp: 4"); got != "Inf" {
		t.Errorf("equal costs of 2: %s lost first, want Inf (fewer build points)", got)
	}
	if got := first("  can_retreat: false\n", ", division_factors: 3", "3", ", size: corps"); got != "Inf" {
		t.Errorf("a corps that cannot retreat is destroyed, costing 5: %s lost first, want Inf", got)
	}
	// And the outcome of one defending loss.
	c := compile(t, fill(text, "", ", division_factors: 3", "3", ", size: corps"))
	seen := false
	for i, p := range sumTo1(t, c) {
		o := c.Outcomes[i]
		if p == 0 || o.Result.DefenderLoss != 1 {
			continue
		}
		seen = true
		if o.DefenderReduced != 1 || o.DefenderLost != 0 || o.DefenderFactorsLost != 2 {
			t.Errorf("%s: reduced %d, destroyed %d, %v factors lost; want 1, 0, 2", o.Result, o.DefenderReduced, o.DefenderLost, o.DefenderFactorsLost)
		}
	}
	if !seen {
		t.Fatal("no result takes one defending loss")
	}
}

// fill replaces each %s of text in turn.
func fill(text string, parts ...string) string {
	for _, p := range parts {
		text = strings.Replace(text, "%s", p, 1)
	}
	return text
}

// Reading 2, docs/rules.md §4 (AsA 3.11): "If an invasion is successful,
// ... the invading land units are turned face down" is an invasion rule;
// paradroppers follow the CRT's "*" and "-" like any attacker. Hand-worked:
// 20 PARA factors drop on a 1-factor INF in jungle: defence 1 + notional 1
// = 2, 20:2 is 10:1 (+10), jungle -2, so the row is the 2d6 roll + 8; the
// Assault table's only "*" row is 15, reached on a roll of 7 or more:
// P(face-up) = 21/36. The same units invading are halved, 10:2 is 5:1
// (+5 - 2 = +3), row 15 on a 12 only, and in jungle the invaders turn
// face-down: P(face-up) = 0.
func TestParadroppersFollowTheCRT(t *testing.T) {
	text := `kind: paradrop
crt: 2d6
table: assault
hex: {terrain: jungle}
attacker:
  units: [{type: PARA, size: corps, factors: 20, nation: US}]
defender:
  units: [{type: INF, factors: 1, nation: JA}]
`
	faceUp := func(c *combat.Combat) float64 {
		p := 0.0
		for i, w := range sumTo1(t, c) {
			if c.Outcomes[i].AttackerFaceUp {
				p += w
			}
		}
		return p
	}
	if p := faceUp(compile(t, text)); math.Abs(p-21.0/36) > 1e-12 {
		t.Errorf("paradrop into jungle: P(face-up) %v, want 21/36", p)
	}
	if p := faceUp(compile(t, strings.Replace(text, "kind: paradrop", "kind: invasion", 1))); p != 0 {
		t.Errorf("invasion of jungle: P(face-up) %v, want 0", p)
	}
}

// Issue 24, docs/rules.md §2.4 and §4 (AsA 3.14, 3.11): under wild results
// the composite code says what happens, so after an invasion turns the
// invaders face-down it carries no "*". Hand-worked: the invasion above
// is 10:2, 5:1 (+5). In clear the row is the roll + 5; the attacker's roll
// reads "*/2S" (row 15) on 10 or more (6/36); the defender's roll reads an
// attacker part with no loss on 6 (row 11, "-"), 8, 9 (rows 13, 14, "-")
// (14/36) and "*" on 10 or more (6/36). The code shows "*" when the
// defender's roll reads "*", or reads "-" while the attacker's reads "*":
// 6/36 + 14/36 x 6/36 = 300/1296, the probability the invaders stay
// face-up. In jungle (+3) every success turns them face-down, so "*"
// shows only on a failure, which leaves them face-up: the defender's roll
// reads "*" on a 12 (1/36) while the attacker's reads "-" for the defender
// (rows 0 to 6) on 3 or less (3/36): 3/1296.
func TestWildLabelsAfterInvasion(t *testing.T) {
	text := `kind: invasion
crt: 2d6
table: assault
options: [wild-results]
hex: {terrain: %s}
attacker:
  units: [{type: PARA, size: corps, factors: 20, nation: US}]
defender:
  units: [{type: INF, factors: 1, nation: JA}]
`
	for _, terrain := range []string{"jungle", "clear"} {
		c := compile(t, fill(text, terrain))
		star := 0.0
		for i, p := range sumTo1(t, c) {
			o := c.Outcomes[i]
			if p == 0 {
				continue
			}
			if o.Result.FaceUp != o.AttackerFaceUp {
				t.Errorf("%s: code %s, attackers face-up %v", terrain, o.Result, o.AttackerFaceUp)
			}
			if o.Result.FaceUp {
				star += p
			}
		}
		want := map[string]float64{"clear": 300.0 / 1296, "jungle": 3.0 / 1296}[terrain]
		if math.Abs(star-want) > 1e-12 {
			t.Errorf("%s: P(code shows *) %v, want %v", terrain, star, want)
		}
	}
}

// Reading 3, docs/rules.md §3 and §4 (AsA 3.2.3, 3.11): only invading
// artillery is barred; an ART striking or supporting an invasion or a
// paradrop from an adjacent hex is not an invading unit. Hand-worked: a
// 4-factor US MAR invades an empty hex (the notional unit, 1) beside a
// 4-factor ART making a ground strike, which succeeds on a d6 of 2 or less
// (P 1/3) and turns the notional unit face-down (+1). The attack is the
// MAR's 4 alone (4:1); a supporting 3-factor ART adds 3, not halved as
// invading factors are: 7. An invading ART, or a sea-box section for a
// bombarding one, is refused.
func TestArtilleryBombardsAnInvasion(t *testing.T) {
	text := `kind: %s
crt: 2d6
table: assault
options: [artillery]
attacker:
  units:
    - {type: MAR, factors: 4, nation: US}
    - {type: ART, size: division, factors: %s, nation: US%s}
defender:
  units: []
`
	for _, kind := range []string{"invasion", "paradrop"} {
		c := compile(t, fill(text, kind, "4", ", role: strike"))
		targets, _ := combat.PreTargets(c)
		if len(targets) != 1 || targets[0] != combat.NotionalTarget {
			t.Fatalf("%s: strike targets %v, want the notional unit", kind, targets)
		}
		if c.Attack != 4 || c.Defence != 1 {
			t.Errorf("%s: %v:%v, want 4:1", kind, c.Attack, c.Defence)
		}
		if base, struck := combat.PreState(c, 0, 0), combat.PreState(c, 1, 0); struck.AtOdds[0].Modifier != base.AtOdds[0].Modifier+1 {
			t.Errorf("%s: struck modifier %+d, base %+d; want one more", kind, struck.AtOdds[0].Modifier, base.AtOdds[0].Modifier)
		}
		if c := compile(t, fill(text, kind, "3", ", role: support")); c.Attack != 7 {
			t.Errorf("%s: attack with supporting ART %v, want 4 + 3 = 7", kind, c.Attack)
		}
	}
	for _, bad := range []string{fill(text, "invasion", "4", ""), fill(text, "paradrop", "4", ", role: combat"), fill(text, "invasion", "4", ", role: strike, section: 1")} {
		if _, err := scenario.Parse("art.yaml", []byte(bad)); err == nil {
			t.Errorf("accepted:\n%s", bad)
		}
	}
}

// Reading 4, docs/rules.md §2.1 and §4 (AfA 3.11: "If all defending land
// units are territorial"): the notional unit is not a territorial, so
// against it alone the +1 does not apply; a real territorial defender
// alone gives it. Hand-worked: MAR 4 against the notional unit alone
// (4:1) has no other modifier: 0. With a 1-factor TERR defender (4:2,
// 2:1) the one other modifier is the territorial +1.
func TestTerritorialNotVacuous(t *testing.T) {
	text := `kind: invasion
crt: 2d6
table: assault
options: [territorial-modifiers]
attacker:
  units: [{type: MAR, factors: 4, nation: US}]
defender:
  units: %s
`
	if c := compile(t, fill(text, "[]")); hasTerm(c, "territorial") || c.AtOdds[0].Modifier != 0 {
		t.Errorf("the notional unit alone: terms %v, want none", c.AtOdds[0].Terms)
	}
	if c := compile(t, fill(text, "[{type: TERR, size: division, factors: 1, nation: CW}]")); !hasTerm(c, "non-territorials attacking territorials") || c.AtOdds[0].Modifier != 1 {
		t.Errorf("a territorial defender: terms %v, want +1", c.AtOdds[0].Terms)
	}
}

// Reading 5, docs/rules.md §6 (AWAW 10.32): armour with its mechanized
// component negated and a CTL of 0 or less takes -1 "when attacked", in
// invasion and airdrop combat too (only 10.64A names an exception for
// invasion combat). A DM of d is a modifier of -d (docs/rules.md §6).
// Hand-worked, a US INF invading a negated ARM: the defender's +1 DM
// against invasion (-1) and the CTL DM of -1 (+1) = 0; with CTL 1 only -1.
// An airdrop on it: DM +2 for armour defending only against an airdrop
// (-2) and the CTL DM (+1) = -1; with CTL 1, -2.
func TestNegatedArmourCTLInInvasions(t *testing.T) {
	text := `kind: %s
crt: 2d6
table: assault
options: [awaw-unit-effects]
attacker:
  units: [{type: %s, factors: 9, nation: US}]
defender:
  ctl: %s
  units: [{type: ARM, factors: 2, nation: JA, mech_negated: true}]
`
	for _, tc := range []struct {
		kind, unit, ctl string
		want            int
	}{
		{"invasion", "INF", "0", 0},
		{"invasion", "INF", "1", -1},
		{"paradrop", "PARA", "0", -1},
		{"paradrop", "PARA", "1", -2},
	} {
		c := compile(t, fill(text, tc.kind, tc.unit, tc.ctl))
		if hasTerm(c, "CTL") != (tc.ctl == "0") {
			t.Errorf("%s, CTL %s: terms %v", tc.kind, tc.ctl, c.AtOdds[0].Terms)
		}
		if got := c.AtOdds[0].Modifier; got != tc.want {
			t.Errorf("%s, CTL %s: modifier %+d (%v), want %+d", tc.kind, tc.ctl, got, c.AtOdds[0].Terms, tc.want)
		}
	}
}

// Decision, docs/rules.md §8: an ART bombarding (strike or support) adds
// factors as ground support does and is no attacking unit for the
// nationality and territorial modifiers (AfA 3.11: "a unit attacking the
// target stack", "all attacking land units"). Hand-worked: a German ARM
// with an Italian ART in support is one attacking nationality (no -1);
// the same ART joining the combat makes two (-1). Territorials attacking
// with a non-territorial ART in support are all the attacking units:
// -1 against a non-territorial defender.
func TestBombardingArtilleryIsNoAttackingUnit(t *testing.T) {
	text := `kind: land
crt: 2d6
table: assault
options: [artillery, territorial-modifiers]
attacker:
  units:
    - {type: %s, factors: 6, nation: GE}
    - {type: ART, size: division, factors: 3, nation: IT, role: %s}
defender:
  units: [{type: INF, factors: 2, nation: FR}]
`
	if c := compile(t, fill(text, "ARM", "support")); hasTerm(c, "nationalities") {
		t.Errorf("a supporting Italian ART counted as an attacking nationality: %v", c.AtOdds[0].Terms)
	}
	if c := compile(t, fill(text, "ARM", "combat")); !hasTerm(c, "2 attacking nationalities") {
		t.Errorf("an Italian ART in the combat did not count: %v", c.AtOdds[0].Terms)
	}
	if c := compile(t, fill(text, "TERR", "strike")); !hasTerm(c, "territorials attacking non-territorials") {
		t.Errorf("territorials with a striking ART: %v, want -1", c.AtOdds[0].Terms)
	}
}

// Decision, docs/rules.md §6 and §8: territorials and militia are infantry
// for A World at War's exploiting-armour DM (AWAW 10.13): AWAW's ground
// units are armour, infantry, replacements and the specialized units, and
// AfA 3.2 treats territorials "just the same as any other units of the
// controlling Major Power" and counts them against infantry gearing
// limits. Hand-worked: DM -1, a modifier of +1, for each alone.
func TestTerritorialsAndMilitiaAreInfantry(t *testing.T) {
	for _, typ := range []string{"TERR", "MIL"} {
		c := compile(t, `kind: land
crt: 2d6
table: assault
options: [awaw-unit-effects]
attacker:
  exploiting: true
  units: [{type: ARM, factors: 6, nation: GE}]
defender:
  units: [{type: `+typ+`, size: division, factors: 1, nation: CW}]
`)
		if c.AtOdds[0].Modifier != 1 {
			t.Errorf("%s attacked by exploiting armour: modifier %+d, want +1", typ, c.AtOdds[0].Modifier)
		}
	}
}

// docs/rules.md §4 (AsA 3.11, 3.2.3): "not stacked with an actual land
// unit" reads the units in the hex; a defending ART supporting from an
// adjacent hex is not one. Hand-worked: an invasion of an empty hex with
// a friendly corps adjacent and a 2-factor ART in defensive support: the
// notional unit is 1 + 1 = 2, and the defence 2 + 2 support = 4.
func TestDefensiveArtilleryIsNotInTheHex(t *testing.T) {
	c := compile(t, `kind: invasion
crt: 2d6
table: assault
options: [artillery]
hex: {adjacent_friendly_corps: true}
attacker:
  units: [{type: MAR, factors: 8, nation: US}]
defender:
  units: [{type: ART, size: division, factors: 2, nation: JA, role: support}]
`)
	if c.Notional != 2 || c.Defence != 4 {
		t.Errorf("notional %v, defence %v; want 2 and 4", c.Notional, c.Defence)
	}
}

// docs/rules.md §4 with §3: an invasion or paradrop with ART striking the
// notional unit (and a naval strike, and wild results at fractional odds)
// is tabulated exactly: the tally is the walk of every dice path through
// Resolve.
func TestArtilleryStrikingAnInvasionTabulated(t *testing.T) {
	for _, kind := range []string{"invasion", "paradrop"} {
		for _, def := range []string{"[]", "[{type: INF, size: division, factors: 1, nation: JA, supply: false}]"} {
			text := fill(`kind: %s
crt: standard
options: [artillery, naval-ground-strike, wild-results, fractional-odds]
hex: {terrain: forest}
attacker:
  naval_strikes: [{name: A, factors: 4}]
  units:
    - {type: MAR, factors: 5, nation: US}
    - {type: ART, size: division, factors: 4, nation: US, role: strike}
    - {type: ART, size: division, factors: 2, nation: US, role: support}
defender:
  units: %s
`, kind, def)
			sameAsWalk(t, text, compile(t, text))
		}
	}
}
