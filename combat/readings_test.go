package combat_test

import (
	"strings"
	"testing"
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
