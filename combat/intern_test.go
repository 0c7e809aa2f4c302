package combat_test

import (
	"strings"
	"testing"

	"github.com/wifodds/wifodds/combat"
)

// A combat's outcomes are distinct values (a trial records an outcome's
// index; the summary counts by it). Combats without pre-combat steps rely
// on settling each result once instead of interning: checked here on
// every example and test scenario and on generated combats of every
// table, dice and option mix, including composite wild results.
func TestOutcomesDistinct(t *testing.T) {
	check := func(name string, c *combat.Combat) {
		seen := make(map[combat.Outcome]int, len(c.Outcomes))
		for i, o := range c.Outcomes {
			if j, ok := seen[o]; ok {
				t.Errorf("%s: outcomes %d and %d are equal: %+v", name, j, i, o)
			}
			seen[o] = i
		}
	}
	n := 0
	for f, c := range exampleCombats(t) {
		check(f, c)
		n++
	}
	for _, crtName := range []string{"standard", "2d6"} {
		for _, opts := range []string{"[]", "[wild-results]", "[fractional-odds, wild-results]", "[fractional-odds-d10, wild-results, blitz-modifier]", "[kampfgruppe, wild-results]"} {
			for _, att := range []int{1, 3, 5, 9, 17, 40} {
				defs := []string{
					"[{type: INF, factors: 3, nation: FR}]",
					"[{type: INF, factors: 0, nation: FR}]",
					"[{type: ARM, factors: 7, nation: FR}, {type: INF, factors: 2, nation: FR}]",
				}
				if strings.Contains(opts, "kampfgruppe") {
					defs = append(defs, "[{type: INF, size: corps, factors: 4, nation: FR, division_available: true, division_factors: 2}, {type: MIL, factors: 1, nation: FR}]")
				}
				for _, def := range defs {
					text, c := generated(t, crtName, opts, att, def)
					check(text, c)
					n++
				}
			}
		}
	}
	if n < 200 {
		t.Fatalf("only %d combats checked", n)
	}
}
