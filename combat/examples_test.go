package combat_test

import (
	"context"
	"math"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fixture"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

func load(t testing.TB, path string) *combat.Combat { return fixture.Combat(t, path) }

func exact(t testing.TB, c *combat.Combat) *stats.Tally {
	t.Helper()
	tally, _, err := sim.Exact(context.Background(), c, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tally
}

// exactSummary is the exact summary of c.
func exactSummary(t testing.TB, c *combat.Combat) *analysis.Summary {
	t.Helper()
	tally, run, err := sim.Exact(context.Background(), c, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return analysis.Summarize(c, tally, run)
}

// noDice fails the test if resolution draws a roll beyond the forced ones.
type noDice struct{ t testing.TB }

func (d noDice) Roll(int) int { d.t.Fatal("drew a random roll"); return 0 }

// AsA 3.14 worked example (docs/rules.md §2.4): 3:1 on the Assault table, the
// German rolls 5 modified to 6 (defender part 2S), the French 1 modified to
// 2 (attacker part 2): both French units destroyed, two German units lost,
// survivors face-down.
func TestWildResultsExample(t *testing.T) {
	c := load(t, "../examples/wild-results-3to1.yaml")
	if c.Attack != 13 || c.Defence != 4 {
		t.Fatalf("totals %v:%v, want 13:4", c.Attack, c.Defence)
	}
	if got := c.CRT.Levels[c.AtOdds[0].Level].String(); got != "3:1" {
		t.Fatalf("odds level %s, want 3:1", got)
	}
	r, err := analysis.Replay(c, c.Scenario.Dice, noDice{t})
	if err != nil {
		t.Fatal(err)
	}
	if r.Result != "2/2S" || r.AttackerLost != 2 || r.DefenderLost != 2 || !r.HexTaken || r.AttackerUp || r.Table != "assault" {
		t.Fatalf("replay = %+v, want 2/2S, 2 German and 2 French units lost, hex taken, attackers face-down", r)
	}
	out := c.Outcomes[r.Index]
	// The Germans lose their two cheapest units (INF 3 and INF 4).
	if out.AttackerFactorsLost != 7 || out.DefenderFactorsLost != 4 {
		t.Fatalf("factors lost %v/%v, want 7/4", out.AttackerFactorsLost, out.DefenderFactorsLost)
	}
}

// AsA 3.15 worked example (docs/rules.md §1): 16 against 3 is 5 2/6:1; a d6 of 1-2
// raises it to 6:1, so on the 2D6 table +6 with probability 1/3, else +5.
func TestFractionalOddsExample(t *testing.T) {
	c := load(t, "../examples/fractional-odds-16to3.yaml")
	sum := exactSummary(t, c)
	if math.Abs(sum.OddsLevels.Value("6:1")-1.0/3) > 1e-12 || math.Abs(sum.OddsLevels.Value("5:1")-2.0/3) > 1e-12 {
		t.Fatalf("odds levels %v, want 5:1 2/3 and 6:1 1/3", sum.OddsLevels)
	}
	if c.AtOdds[0].Modifier != 0 || c.CRT.Levels[c.AtOdds[1].Level].Modifier != 6 || c.CRT.Levels[c.AtOdds[0].Level].Modifier != 5 {
		t.Fatal("the odds modifiers are not +5 and +6")
	}
	// Replay: a fractional die of 2 raises the odds; then 2d6.
	r, err := analysis.Replay(c, []int{2, 3, 4}, noDice{t})
	if err != nil {
		t.Fatal(err)
	}
	if r.Odds != "6:1" || r.Result != c.CRT.Lookup(crt.Assault, c.AtOdds[1].Level, 7).String() {
		t.Fatalf("replay %+v, want 6:1 and row 7+6", r)
	}
	r, _ = analysis.Replay(c, []int{3, 3, 4}, noDice{t})
	if r.Odds != "5:1" {
		t.Fatalf("a fractional die of 3 gave %s, want 5:1", r.Odds)
	}
}
