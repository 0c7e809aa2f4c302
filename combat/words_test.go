package combat_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/internal/fixture"
	"github.com/wifodds/wifodds/sim"
)

// landText is a land combat on table k of crt with the net modifier mod:
// attacking German and defending French infantry corps of the given
// factors (docs/scenario-format.md); extra is added to the defender.
func landText(crtName, k string, mod int, options string, att, def []int, extra string) string {
	b := &strings.Builder{}
	fmt.Fprintf(b, "name: t\nkind: land\ncrt: %s\ntable: %s\nmodifier: %d\noptions: [%s]\nhex: {terrain: clear, weather: clear}\nattacker:\n  units:\n", crtName, k, mod, options)
	for _, f := range att {
		fmt.Fprintf(b, "    - {type: INF, size: corps, factors: %d, nation: GE}\n", f)
	}
	fmt.Fprintf(b, "defender:\n%s  units:\n", extra)
	for _, f := range def {
		fmt.Fprintf(b, "    - {type: INF, size: corps, factors: %d, nation: FR}\n", f)
	}
	return b.String()
}

// wordsCase is a combat, the dice replayed, the result code they give and
// the sentence written by hand from docs/rules.md.
type wordsCase struct {
	name  string
	text  string
	dice  []int
	code  string
	words string
}

// checkWords replays each case's dice and compares the result code and
// Combat.Words with the hand-written ones.
func checkWords(t *testing.T, cases []wordsCase) {
	t.Helper()
	for _, tc := range cases {
		c := fixture.CombatText(t, tc.text)
		f := &sim.Forced{Rolls: tc.dice}
		i, _ := combat.ResolveRoll(c, f)
		if f.Err != nil || f.Drawn > 0 {
			t.Fatalf("%s: dice %v: err %v, %d drawn", tc.name, tc.dice, f.Err, f.Drawn)
		}
		o := &c.Outcomes[i]
		if got := o.Result.String(); got != tc.code {
			t.Errorf("%s: dice %v give %s, want %s", tc.name, tc.dice, got, tc.code)
		}
		if got := c.Words(o); got != tc.words {
			t.Errorf("%s: %s reads\n  %q\nwant\n  %q", tc.name, tc.code, got, tc.words)
		}
	}
}

var (
	even3v2 = [2][]int{{2, 2, 2}, {3, 3}}    // 1:1
	even4v2 = [2][]int{{2, 2, 1, 1}, {3, 3}} // 1:1
	even3v3 = [2][]int{{2, 2, 2}, {2, 2, 2}} // 1:1
	even3v4 = [2][]int{{2, 2, 4}, {2, 2, 2, 2}}
	even1v2 = [2][]int{{6}, {3, 3}}
	even2v2 = [2][]int{{3, 3}, {3, 3}}
	even3v1 = [2][]int{{2, 2, 2}, {6}}
	three   = [2][]int{{6, 4, 3}, {2, 2}} // 13:4, 3:1
)

func stacks(crtName, k string, mod int, sides [2][]int) string {
	return landText(crtName, k, mod, "", sides[0], sides[1], "")
}

// Every code of the 2D6 table (docs/rules.md §2.1, AfA 3.11 and section 8)
// read as §2 says (AfA 8.3): N attacking units destroyed and the rest
// face-down, "-" face-down, "*" face-up; N defending units destroyed, the
// survivors retreating (R) or shattered (S, B), an R or S that meets no
// survivor said nothing of; the hex taken when every defender is
// destroyed, retreated or shattered; B a breakthrough. At 1:1 the odds
// modifier is 0, so the row is the dice plus the scenario's modifier.
func TestWords2D6(t *testing.T) {
	checkWords(t, []wordsCase{
		{"assault row 0", stacks("2d6", "assault", -2, even3v2), []int{1, 1}, "4/-",
			"All 3 attacking units are lost; the defenders are unharmed; the hex holds."},
		{"assault row 1", stacks("2d6", "assault", -1, even4v2), []int{1, 1}, "3/-",
			"The attackers lose 3 of their 4 units and the other turns face-down; the defenders are unharmed; the hex holds."},
		{"assault row 4", stacks("2d6", "assault", 0, even3v2), []int{2, 2}, "2/-",
			"The attackers lose 2 of their 3 units and the other turns face-down; the defenders are unharmed; the hex holds."},
		{"assault row 6", stacks("2d6", "assault", 0, even3v2), []int{3, 3}, "1/-",
			"The attackers lose 1 of their 3 units and the rest turn face-down; the defenders are unharmed; the hex holds."},
		{"assault row 7", stacks("2d6", "assault", 0, even3v2), []int{3, 4}, "2/1",
			"The attackers lose 2 of their 3 units and the other turns face-down; 1 of the 2 defending units is destroyed; the hex holds."},
		{"assault row 8", stacks("2d6", "assault", 0, even3v2), []int{4, 4}, "1/1",
			"The attackers lose 1 of their 3 units and the rest turn face-down; 1 of the 2 defending units is destroyed; the hex holds."},
		{"assault row 10", stacks("2d6", "assault", 0, even3v2), []int{5, 5}, "1/2",
			"The attackers lose 1 of their 3 units and the rest turn face-down; both defending units are destroyed; the hex is taken."},
		{"assault row 11", stacks("2d6", "assault", 0, even3v2), []int{5, 6}, "-/2",
			"None of the 3 attacking units is lost and they turn face-down; both defending units are destroyed; the hex is taken."},
		{"assault row 12, a survivor", stacks("2d6", "assault", 0, even3v3), []int{6, 6}, "1/2S",
			"The attackers lose 1 of their 3 units and the rest turn face-down; 2 of the 3 defending units are destroyed; the survivor is shattered, to the production spiral; the hex is taken."},
		{"assault row 13, no survivor", stacks("2d6", "assault", 1, even3v2), []int{6, 6}, "-/2S",
			"None of the 3 attacking units is lost and they turn face-down; both defending units are destroyed; the hex is taken."},
		{"assault row 15, two survivors", stacks("2d6", "assault", 3, even3v4), []int{6, 6}, "*/2S",
			"None of the 3 attacking units is lost and they stay face-up; 2 of the 4 defending units are destroyed; the 2 survivors are shattered, to the production spiral; the hex is taken."},
		{"blitz row 0, one attacker", stacks("2d6", "blitz", -2, even1v2), []int{1, 1}, "3/-",
			"The attacking unit is lost; the defenders are unharmed; the hex holds."},
		{"blitz row 3", stacks("2d6", "blitz", 0, even3v2), []int{1, 2}, "2/-",
			"The attackers lose 2 of their 3 units and the other turns face-down; the defenders are unharmed; the hex holds."},
		{"blitz row 5", stacks("2d6", "blitz", 0, even2v2), []int{2, 3}, "1/-",
			"The attackers lose 1 of their 2 units and the other turns face-down; the defenders are unharmed; the hex holds."},
		{"blitz row 7, one defender", stacks("2d6", "blitz", 0, even3v1), []int{3, 4}, "1/1",
			"The attackers lose 1 of their 3 units and the rest turn face-down; the defending unit is destroyed; the hex is taken."},
		{"blitz row 8", stacks("2d6", "blitz", 0, even3v2), []int{4, 4}, "1/1R",
			"The attackers lose 1 of their 3 units and the rest turn face-down; 1 of the 2 defending units is destroyed; the survivor retreats; the hex is taken."},
		{"blitz row 9, nobody to retreat", stacks("2d6", "blitz", 0, even3v1), []int{4, 5}, "-/1R",
			"None of the 3 attacking units is lost and they turn face-down; the defending unit is destroyed; the hex is taken."},
		{"blitz row 11", stacks("2d6", "blitz", 0, even3v3), []int{5, 6}, "*/1S",
			"None of the 3 attacking units is lost and they stay face-up; 1 of the 3 defending units is destroyed; the 2 survivors are shattered, to the production spiral; the hex is taken."},
		{"blitz row 13", stacks("2d6", "blitz", 1, even3v2), []int{6, 6}, "*/2S",
			"None of the 3 attacking units is lost and they stay face-up; both defending units are destroyed; the hex is taken."},
		{"blitz row 14, a survivor", stacks("2d6", "blitz", 2, even3v3), []int{6, 6}, "*/2B",
			"None of the 3 attacking units is lost and they stay face-up; 2 of the 3 defending units are destroyed; the survivor is shattered, to the production spiral; the hex is taken, with a breakthrough."},
		{"blitz row 15, no survivor", stacks("2d6", "blitz", 3, even3v2), []int{6, 6}, "*/2B",
			"None of the 3 attacking units is lost and they stay face-up; both defending units are destroyed; the hex is taken, with a breakthrough."},
	})
}

// Every code of the standard table (docs/rules.md §2.2), one die plus the
// modifier, in the 1:1 and 3:1 columns; the same reading as §2.
func TestWordsStandard(t *testing.T) {
	checkWords(t, []wordsCase{
		{"assault 1:1 row 0", stacks("standard", "assault", -1, even3v2), []int{1}, "4/-",
			"All 3 attacking units are lost; the defenders are unharmed; the hex holds."},
		{"assault 1:1 row 1", stacks("standard", "assault", 0, even4v2), []int{1}, "3/-",
			"The attackers lose 3 of their 4 units and the other turns face-down; the defenders are unharmed; the hex holds."},
		{"assault 1:1 row 2", stacks("standard", "assault", 0, even3v2), []int{2}, "2/-",
			"The attackers lose 2 of their 3 units and the other turns face-down; the defenders are unharmed; the hex holds."},
		{"assault 1:1 row 3", stacks("standard", "assault", 0, even3v2), []int{3}, "1/-",
			"The attackers lose 1 of their 3 units and the rest turn face-down; the defenders are unharmed; the hex holds."},
		{"assault 1:1 row 4", stacks("standard", "assault", 0, even3v2), []int{4}, "2/1",
			"The attackers lose 2 of their 3 units and the other turns face-down; 1 of the 2 defending units is destroyed; the hex holds."},
		{"assault 1:1 row 5", stacks("standard", "assault", 0, even3v2), []int{5}, "1/1",
			"The attackers lose 1 of their 3 units and the rest turn face-down; 1 of the 2 defending units is destroyed; the hex holds."},
		{"assault 1:1 row 6", stacks("standard", "assault", 0, even3v2), []int{6}, "1/2",
			"The attackers lose 1 of their 3 units and the rest turn face-down; both defending units are destroyed; the hex is taken."},
		{"assault 1:1 row 7", stacks("standard", "assault", 1, even3v3), []int{6}, "1/2S",
			"The attackers lose 1 of their 3 units and the rest turn face-down; 2 of the 3 defending units are destroyed; the survivor is shattered, to the production spiral; the hex is taken."},
		{"assault 3:1 row 5", stacks("standard", "assault", 0, three), []int{5}, "-/2",
			"None of the 3 attacking units is lost and they turn face-down; both defending units are destroyed; the hex is taken."},
		{"assault 3:1 row 6", stacks("standard", "assault", 0, three), []int{6}, "-/2S",
			"None of the 3 attacking units is lost and they turn face-down; both defending units are destroyed; the hex is taken."},
		{"assault 3:1 row 7", stacks("standard", "assault", 1, three), []int{6}, "*/2S",
			"None of the 3 attacking units is lost and they stay face-up; both defending units are destroyed; the hex is taken."},
		{"blitz 1:1 row 5", stacks("standard", "blitz", 0, even3v2), []int{5}, "1/1R",
			"The attackers lose 1 of their 3 units and the rest turn face-down; 1 of the 2 defending units is destroyed; the survivor retreats; the hex is taken."},
		{"blitz 1:1 row 6", stacks("standard", "blitz", 0, even3v3), []int{6}, "-/1R",
			"None of the 3 attacking units is lost and they turn face-down; 1 of the 3 defending units is destroyed; the 2 survivors retreat; the hex is taken."},
		{"blitz 1:1 row 7", stacks("standard", "blitz", 1, even3v2), []int{6}, "*/1S",
			"None of the 3 attacking units is lost and they stay face-up; 1 of the 2 defending units is destroyed; the survivor is shattered, to the production spiral; the hex is taken."},
		{"blitz 3:1 row 7", stacks("standard", "blitz", 1, three), []int{6}, "*/2B",
			"None of the 3 attacking units is lost and they stay face-up; both defending units are destroyed; the hex is taken, with a breakthrough."},
	})
}

// moresby3 is the Port Moresby invasion from the 3-section (docs/rules.md
// §4): 20:2, the >=10:1 column, with no real defender.
const moresby3 = `name: inv
kind: invasion
crt: standard
table: assault
hex: {terrain: mountain, weather: clear, surprise: true, adjacent_friendly_corps: true}
attacker:
  shore_bombardment: 6.5
  ground_support: 6.5
  units:
    - {type: MAR, size: corps, factors: 4, nation: JA, section: 3}
    - {type: INF, size: corps, factors: 5, nation: JA, section: 3}
defender:
  units: []
`

// What the options and kinds that change a result's reading say.
func TestWordsOptions(t *testing.T) {
	checkWords(t, []wordsCase{
		// Wild results (docs/rules.md §2.4, AsA 3.14's example): the
		// attacker's 5+1 reads 2S from the 3:1 column, the defender's 1+1
		// reads 2; the composite loses the "*" with the attackers' units.
		{"wild results, AsA 3.14", landText("standard", "assault", 1, "wild-results", three[0], three[1], ""), []int{5, 1}, "2/2S",
			"The attackers lose 2 of their 3 units and the other turns face-down; both defending units are destroyed; the hex is taken."},
		// The attacker's 6+1 reads */2S, whose "*" keeps the attackers
		// face-up although the defender's 5+1 reads "-" (§2.4).
		{"wild results, a * from the attacker's roll", landText("standard", "assault", 1, "wild-results", three[0], three[1], ""), []int{6, 5}, "*/2S",
			"None of the 3 attacking units is lost and they stay face-up; both defending units are destroyed; the hex is taken."},
		// A defender that cannot retreat loses its survivors to an R
		// (docs/rules.md §2, AfA 8.3).
		{"cannot retreat", landText("2d6", "blitz", 0, "", even3v2[0], even3v2[1], "  can_retreat: false\n"), []int{4, 4}, "1/1R",
			"The attackers lose 1 of their 3 units and the rest turn face-down; 1 of the 2 defending units is destroyed; the survivor cannot retreat and is destroyed; the hex is taken."},
		// A successful invasion outside clear and desert turns the invaders
		// face-down whatever the "*" (docs/rules.md §4, AsA 3.11); with no
		// real defender, only the notional unit is destroyed. Port Moresby
		// from the 3-section: 20:2, the ≥10:1 column, row 6.
		{"invasion, turned face-down", moresby3, []int{6}, "*/2S",
			"None of the 2 attacking units is lost and they turn face-down, as invaders do after a successful invasion outside clear and desert; the notional defending unit is destroyed; the invasion succeeds and the hex is taken."},
		{"invasion, a unit lost", moresby3, []int{1}, "1/2S",
			"The attackers lose 1 of their 2 units and the other turns face-down; the notional defending unit is destroyed; the invasion succeeds and the hex is taken."},
		// A "-" defender part leaves the notional unit in place (§4).
		{"paradrop fails", `name: para
kind: paradrop
crt: 2d6
table: assault
hex: {terrain: clear, weather: clear}
attacker:
  units:
    - {type: PARA, size: division, factors: 1, nation: GE}
defender:
  units: []
`, []int{1, 1}, "3/-",
			"The attacking unit is lost; the notional defending unit holds; the paradrop fails."},
		// Under A World at War an airdrop on enemy units below 1:1 may not
		// be made (docs/rules.md §6, AWAW 10.55C): no dice are read.
		{"airdrop not allowed", `name: air
kind: paradrop
crt: 2d6
table: assault
options: [awaw-unit-effects]
hex: {terrain: clear, weather: clear}
attacker:
  units:
    - {type: PARA, size: division, factors: 1, nation: GE}
defender:
  units:
    - {type: INF, size: corps, factors: 7, nation: CW}
`, nil, "-/-",
			"The airdrop may not be made below 1:1 (AWAW 10.55C); nothing happens."},
		// Kampfgruppe (docs/rules.md §3, AsA 3.1.1): the defending corps
		// lost is replaced by its division, which retreats; the hex holds
		// with the other defender. 15:6 is 2:1, +2, net +1: 8 reads row 9.
		{"kampfgruppe", `name: kampfgruppe-mud
kind: land
crt: 2d6
table: assault
options: [kampfgruppe, blitz-modifier]
hex: {terrain: forest, weather: winter}
attacker:
  attack_as_mud: true
  units:
    - {name: 1st Ski, type: SKI, size: corps, factors: 4, nation: USSR}
    - {name: 3rd Shock, type: INF, size: army, factors: 6, nation: USSR, white_print: true}
    - {name: 5th Tank, type: ARM, size: corps, factors: 5, nation: USSR}
defender:
  units:
    - {name: XLVI Pz, type: ARM, size: corps, factors: 4, nation: GE, face_down: true, division_available: true, division_factors: 2}
    - {name: 2nd SS, type: INF, size: division, factors: 2, nation: GE}
`, []int{4, 4}, "1/1",
			"The attackers lose 1 of their 3 units and the rest turn face-down; 1 of the 2 defending units is destroyed (1 of them replaced by a Kampfgruppe division, which retreats); the hex holds."},
		// An attacking corps replaced by its division (§3): its loss costs
		// 1 factor, so it goes first; 2/- takes it and one more.
		{"kampfgruppe, attacking", `name: t
kind: land
crt: 2d6
table: assault
options: [kampfgruppe]
hex: {terrain: clear, weather: clear}
attacker:
  units:
    - {type: INF, size: corps, factors: 2, nation: GE}
    - {type: INF, size: corps, factors: 2, nation: GE, division_available: true, division_factors: 1}
    - {type: INF, size: corps, factors: 2, nation: GE}
defender:
  units:
    - {type: INF, size: corps, factors: 3, nation: FR}
    - {type: INF, size: corps, factors: 3, nation: FR}
`, []int{2, 2}, "2/-",
			"The attackers lose 2 of their 3 units (1 of them replaced by a Kampfgruppe division) and the other turns face-down; the defenders are unharmed; the hex holds."},
	})
}
