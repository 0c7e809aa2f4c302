package combat_test

import (
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// ResolveRoll gives what Resolve gives on the same dice, for every example
// and test scenario and generated wild, fractional and plain combats, and
// its roll is the one the table read: each total on the combat's dice,
// read at the total plus the modifier within the table's rows, and the
// outcome's result is the table's cell there (docs/rules.md §2.2; under
// wild results the composite of the two rows, §2.4).
func TestResolveRollIsResolve(t *testing.T) {
	rolled := 0
	for name, c := range mixedCombats(t) {
		d, ref := sim.NewStream(3, 4), sim.NewStream(3, 4)
		for i := range 500 {
			o, r := combat.ResolveRoll(c, sim.Dice(d))
			if want := combat.Resolve(c, sim.Dice(ref)); o != want {
				t.Fatalf("%s: trial %d: ResolveRoll %d, Resolve %d", name, i, o, want)
			}
			out := c.Outcomes[o]
			if r == nil {
				if !out.Automatic && !out.NotAllowed {
					t.Fatalf("%s: trial %d: no roll for a rolled outcome %+v", name, i, out)
				}
				continue
			}
			rolled++
			tb := c.CRT
			lo, hi := 1, 6
			if tb.Dice == 2 {
				lo, hi = 2, 12
			}
			wantDice := 1
			if c.Scenario.Has(scenario.WildResults) {
				wantDice = 2
			}
			if len(r.Dice) != wantDice || len(r.ReadAs) != wantDice {
				t.Fatalf("%s: trial %d: roll %+v, want %d totals", name, i, r, wantDice)
			}
			read := make([]crt.Result, len(r.Dice))
			for k, x := range r.Dice {
				if x < lo || x > hi || r.ReadAs[k] != min(max(x+r.Modifier, tb.MinRow), tb.MaxRow) {
					t.Fatalf("%s: trial %d: roll %+v on rows %d..%d", name, i, r, tb.MinRow, tb.MaxRow)
				}
				row, col := tb.RowFor(int(out.Level), r.ReadAs[k]-oddsMod(tb, int(out.Level)))
				read[k] = tb.Grids[out.Table].Rows[row].Cells[col]
			}
			want := read[0]
			if len(read) == 2 {
				want = combat.Composite(read[0], read[1])
				// The outcome holds the result as applied: a "*" keeps
				// the attackers face-up only if they lost nothing.
				want.FaceUp = want.FaceUp && want.AttackerLoss == 0
			}
			if out.Result != want {
				t.Fatalf("%s: trial %d: roll %+v reads %#v, outcome %#v", name, i, r, want, out.Result)
			}
		}
	}
	if rolled < 10000 {
		t.Fatalf("only %d rolls checked", rolled)
	}
}

// oddsMod is the odds' own modifier on a table read by modifier, else 0.
func oddsMod(tb *crt.Table, level int) int {
	if tb.Method == crt.ByModifier {
		return tb.Levels[level].Modifier
	}
	return 0
}

// AsA 3.14 worked example (docs/rules.md §2.4): the German's 5 is read as 6,
// the French 1 as 2, with the scenario's +1.
func TestResolveRollWildResultsExample(t *testing.T) {
	c := load(t, "../examples/wild-results-3to1.yaml")
	_, r := combat.ResolveRoll(c, &sim.Forced{Rolls: c.Scenario.Dice, Then: noDice{t}})
	if r == nil || len(r.Dice) != 2 || r.Dice[0] != 5 || r.Dice[1] != 1 || r.Modifier != 1 || r.ReadAs[0] != 6 || r.ReadAs[1] != 2 {
		t.Fatalf("roll %+v, want dice 5, 1 read as 6, 2 with modifier +1", r)
	}
}
