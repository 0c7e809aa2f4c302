package combat_test

import (
	"math"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/combat"
)

// The readings of issue 24: each checked against the rulebook text.

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
