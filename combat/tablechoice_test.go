package combat_test

import (
	"strings"
	"testing"

	"github.com/wifodds/wifodds/combat"
)

// docs/rules.md §2.3 (AfA 8.2): the answer says at each final odds level
// which table was read, who chose it and by which clause. A fractional
// 2.75:1 reads 2:1 and 3:1, where the chooser differs: equal ARM gives
// the defender the choice below 3:1 (e) and the attacker at 3:1 (d).
func TestTableChoices(t *testing.T) {
	c := compile(t, `kind: land
crt: standard
options: [fractional-odds]
attacker:
  units:
    - {type: ARM, factors: 4, nation: GE}
    - {type: INF, factors: 4, nation: GE}
    - {type: INF, factors: 3, nation: GE}
defender:
  units:
    - {type: ARM, factors: 2, nation: FR}
    - {type: INF, factors: 2, nation: FR}
`)
	got := c.TableChoices()
	if len(got) != 2 {
		t.Fatalf("a fractional 2.75:1 gives %d choices, want 2: %+v", len(got), got)
	}
	want := []struct {
		odds    string
		chooser combat.Chooser
		clause  string
	}{{"2:1", combat.ChooserDefender, "(e)"}, {"3:1", combat.ChooserAttacker, "(d)"}}
	for i, w := range want {
		g, v := got[i], c.AtOdds[i]
		if g.Odds != w.odds || g.Chooser != w.chooser || !strings.HasPrefix(g.Reason, w.clause) {
			t.Errorf("choice %d: %+v, want %s chosen by %s under %s", i, g, w.odds, w.chooser, w.clause)
		}
		// The choice is the engine's, not worked out again.
		if g.Table != v.Table.String() || g.Reason != v.Reason || g.Chooser != v.Chooser {
			t.Errorf("choice %d: %+v, the engine's %s by %s: %s", i, g, v.Table, v.Chooser, v.Reason)
		}
	}
	// Forced by the terrain: one choice, clause (a).
	c = compile(t, "kind: land\nhex: {city: true}\n"+twoCorps)
	if got := c.TableChoices(); len(got) != 1 || got[0].Table != "assault" || got[0].Chooser != combat.ChooserTerrain || !strings.HasPrefix(got[0].Reason, "(a)") {
		t.Errorf("a city: %+v, want assault forced by the terrain under (a)", got)
	}
}
