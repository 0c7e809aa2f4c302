package combat_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fixture"
	"github.com/wifodds/wifodds/scenario"
)

// The pre-combat weights worked out step by step (docs/performance.md,
// factoring at the pre-combat/CRT boundary) equal, count for count, those
// of running the pre-combat steps (preState) on every sequence of their
// dice: for every example and test scenario with pre-combat steps, and
// generated combats mixing ground strikes, naval strikes, AA fire and the
// fractional-odds die.
func TestPreWeightsAreTheWalk(t *testing.T) {
	check := func(name string, c *combat.Combat) bool {
		steps, walk, ss, ws, ok := combat.PreWeights(c)
		if !ok {
			return false
		}
		if ss != ws || !slices.Equal(steps, walk) {
			t.Errorf("%s: step by step %v of %d, walked %v of %d", name, steps, ss, walk, ws)
		}
		return true
	}
	seen := 0
	for f, c := range exampleCombats(t, threeStrikes) {
		if check(f, c) {
			seen++
		}
	}
	for strikes := range 4 {
		for _, ships := range []string{"[]", "[{name: A, factors: 3}]", "[{name: A, factors: 5}, {name: B, factors: 12}]"} {
			for _, opts := range []string{"artillery, naval-ground-strike", "artillery, naval-ground-strike, fractional-odds", "artillery, naval-ground-strike, fractional-odds-d10, wild-results"} {
				for _, aa := range []string{"", ", {name: AA, type: AA, size: division, factors: 2, nation: FR}"} {
					units := ""
					for i := range strikes {
						units += fmt.Sprintf(", {type: ART, size: division, factors: %d, nation: GE, role: strike}", 2+3*i)
					}
					text := fmt.Sprintf(`kind: land
crt: 2d6
options: [%s]
attacker:
  naval_strikes: %s
  aircraft: [{name: Ju-87, a2a: 1, tactical: 3}]
  units: [{type: ARM, size: corps, factors: 7, nation: GE}%s]
defender:
  units: [{type: INF, size: army, factors: 4, nation: FR}, {type: INF, size: corps, factors: 3, nation: FR}%s]
`, opts, ships, units, aa)
					s, err := scenario.Parse("gen.yaml", []byte(text))
					if err != nil {
						t.Fatal(err)
					}
					tb, _ := crt.Builtin("2d6")
					c, err := combat.Compile(s, tb, fixture.Air(t, s))
					if err != nil {
						t.Fatal(err)
					}
					if check(text, c) {
						seen++
					}
				}
			}
		}
	}
	if seen < 60 {
		t.Fatalf("only %d combats compared", seen)
	}
}
