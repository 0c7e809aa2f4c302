package cells_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/cells"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// designBattery is a small battery on the standard table: the
// wild-results example without wild results, in clear and forest, at
// three attack totals.
func designBattery(t *testing.T) (*crt.Table, []*scenario.Scenario, []*cells.Scenario) {
	t.Helper()
	tb, _ := builtin(t, "standard")
	base, err := scenario.Load("../examples/wild-results-3to1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var scs []*scenario.Scenario
	var list []*cells.Scenario
	for _, terrain := range []string{"clear", "forest"} {
		for _, gs := range []float64{0, 5, 12} {
			s, err := scenario.Override(base, "options-=wild-results")
			if err != nil {
				t.Fatal(err)
			}
			s.Hex.Terrain, s.Attacker.GroundSupport = terrain, gs
			s.Name = fmt.Sprintf("%s gs=%g", terrain, gs)
			sc, err := cells.NewScenario(s.Name, compile(t, s, tb))
			if err != nil {
				t.Fatal(err)
			}
			scs, list = append(scs, s), append(list, sc)
		}
	}
	return tb, scs, list
}

// candidates are every edit of a cell some scenario reads on a table it
// uses or weighs, to another result the table uses: found here by
// trying each cell's edit on every scenario, not by the search's spans.
func candidates(t *testing.T, tb *crt.Table, list []*cells.Scenario) []crt.Edit {
	var out []crt.Edit
	for _, k := range crt.Kinds {
		for row := range tb.MaxRow - tb.MinRow + 1 {
			for col := range tb.Columns() {
				c := crt.Cell{Kind: k, Row: row, Col: col}
				var es []crt.Edit
				moves := false
				for _, r := range tb.Codes() {
					if r == tb.Cell(c) {
						continue
					}
					es = append(es, crt.Edit{Cell: c, Result: r})
					for _, s := range list {
						moves = moves || fmt.Sprint(s.Figures(es[len(es)-1:])) != fmt.Sprint(s.Figures(nil))
					}
				}
				if moves {
					out = append(out, es...)
				}
			}
		}
	}
	return out
}

// monotoneByTable checks an edited table: no edited cell is dominated by
// its neighbour at a lower roll or lower odds, nor dominates the one at a
// higher roll or higher odds.
func monotoneByTable(t *testing.T, tb *crt.Table, es []crt.Edit) bool {
	e, err := tb.Apply(es)
	if err != nil {
		t.Fatal(err)
	}
	for _, ed := range es {
		c := ed.Cell
		for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			n := crt.Cell{Kind: c.Kind, Row: c.Row + d[0], Col: c.Col + d[1]}
			if n.Row < 0 || n.Row > tb.MaxRow-tb.MinRow || n.Col < 0 || n.Col >= tb.Columns() {
				continue
			}
			lo, hi := e.Cell(n), e.Cell(c)
			if d[0]+d[1] > 0 {
				lo, hi = hi, lo
			}
			if cells.Dominates(lo, hi) {
				return false
			}
		}
	}
	return true
}

// TestDesignFindsFewestEdits: on a small battery the search finds a set
// of the fewest edits that a brute force over every single and double
// edit finds, says it is optimal, and counts the others of that size;
// with and without --keep-monotone. Single edits are weighed by
// compiling the edited table, pairs by reweighting.
func TestDesignFindsFewestEdits(t *testing.T) {
	tb, scs, list := designBattery(t)
	ctx := context.Background()
	cands := candidates(t, tb, list)
	if len(cands) < 50 {
		t.Fatalf("only %d candidate edits", len(cands))
	}
	// mean hex_taken and losses per hex over the battery under edits.
	figures := func(es []crt.Edit, recompile bool) (hex, perHex float64) {
		var att float64
		for i, s := range list {
			var f cells.Figures
			if recompile {
				e, err := tb.Apply(es)
				if err != nil {
					t.Fatal(err)
				}
				f = numerators(t, compile(t, scs[i], e))
			} else {
				f = s.Figures(es)
			}
			hex += f.Value(0)
			att += f.Value(3)
		}
		return hex / float64(len(list)), att / hex
	}
	baseHex, basePer := figures(nil, false)
	for _, mono := range []bool{false, true} {
		allowed := func(es []crt.Edit) bool { return !mono || monotoneByTable(t, tb, es) }
		// The goal: P(hex taken) between the best single edit allowed
		// and the best pair, losses per hex no worse than now.
		bestSingle, bestPair := 0.0, 0.0
		for i := range cands {
			if h, p := figures(cands[i:i+1], true); p <= basePer && allowed(cands[i:i+1]) {
				bestSingle = max(bestSingle, h)
			}
			for j := i + 1; j < len(cands); j++ {
				es := []crt.Edit{cands[i], cands[j]}
				if h, p := figures(es, false); cands[i].Cell != cands[j].Cell && p <= basePer && h > bestPair && allowed(es) {
					bestPair = h
				}
			}
		}
		if bestPair <= bestSingle {
			t.Fatalf("monotone %v: no pair does better than a single edit (%v): the test needs one", mono, bestSingle)
		}
		target := (bestSingle + bestPair) / 2
		goals := []string{fmt.Sprintf("hex_taken>=%v", target), fmt.Sprintf("att_losses_per_hex<=%v", basePer)}
		meets := func(es []crt.Edit) bool {
			if !allowed(es) {
				return false
			}
			h, p := figures(es, false)
			return h >= target && p <= basePer
		}
		singles, doubles := 0, 0
		for i := range cands {
			if meets(cands[i : i+1]) {
				singles++
			}
			for j := i + 1; j < len(cands); j++ {
				if cands[i].Cell != cands[j].Cell && meets([]crt.Edit{cands[i], cands[j]}) {
					doubles++
				}
			}
		}
		if singles != 0 || doubles == 0 {
			t.Fatalf("monotone %v: %d single and %d double edits meet the goals: the test wants 0 and some", mono, singles, doubles)
		}
		var gs []cells.Goal
		for _, spec := range goals {
			g, err := cells.ParseGoal(spec, tb, list)
			if err != nil {
				t.Fatal(err)
			}
			gs = append(gs, g)
		}
		d, err := cells.Search(ctx, tb, list, gs, cells.DesignOptions{KeepMonotone: mono})
		if err != nil {
			t.Fatal(err)
		}
		if !d.Met || len(d.Edits) != 2 || !d.Optimal || d.Alike+1 != doubles || !meets(d.EditList()) {
			t.Errorf("monotone %v: met %v, edits %v, optimal %v, %d alike; brute force: %d pairs meet the goals (base P(hex) %.4f, best single %.4f)",
				mono, d.Met, d.Edits, d.Optimal, d.Alike, doubles, baseHex, bestSingle)
		}
		for _, g := range d.Goals {
			if g.Shortfall != 0 {
				t.Errorf("monotone %v: goal %s falls short by %v", mono, g.Goal, g.Shortfall)
			}
		}
		t.Logf("monotone %v: %v, %d candidates, %d evaluations", mono, d.Edits, d.Candidates, d.Evaluations)
		// Past the bound on pairs the beam searches them: what it
		// returns as met is met, and two edits are the fewest since no
		// single edit is.
		b, err := cells.Search(ctx, tb, list, gs, cells.DesignOptions{KeepMonotone: mono, MaxPairWork: 1})
		if err != nil {
			t.Fatal(err)
		}
		// Past the best pair: three edits at least, the fewest when the
		// beam finds three since every pair was weighed.
		var hard []cells.Goal
		for _, spec := range []string{fmt.Sprintf("hex_taken>=%v", bestPair+0.005), goals[1]} {
			g, err := cells.ParseGoal(spec, tb, list)
			if err != nil {
				t.Fatal(err)
			}
			hard = append(hard, g)
		}
		h, err := cells.Search(ctx, tb, list, hard, cells.DesignOptions{KeepMonotone: mono, MaxEdits: 3})
		if err != nil {
			t.Fatal(err)
		}
		if h.Met {
			// Weighed afresh by compiling the edited table.
			if hx, p := figures(h.EditList(), true); hx < bestPair+0.005 || p > basePer {
				t.Errorf("monotone %v: the three edits give P(hex) %v, losses per hex %v", mono, hx, p)
			}
		}
		if h.Met && (len(h.Edits) != 3 || !h.Optimal || !allowed(h.EditList())) || !h.Met && (h.Optimal || h.Goals[0].Shortfall == 0 && h.Goals[1].Shortfall == 0) {
			t.Errorf("monotone %v, past the best pair: %+v", mono, h)
		}
		t.Logf("monotone %v, past the best pair: met %v with %d edits: %s", mono, h.Met, len(h.Edits), h.Search)
		if b.Optimal != (b.Met && len(b.Edits) == 2) || !strings.Contains(b.Search, "past the exhaustive bound") || len(b.Edits) < 2 || b.Met != meets(b.EditList()) {
			t.Errorf("monotone %v, pairs past the bound: %+v", mono, b)
		}
	}
	// A goal no edit can meet: the closest set found, and by how much.
	g, err := cells.ParseGoal("hex_taken>=1.5", tb, list)
	if err != nil {
		t.Fatal(err)
	}
	d, err := cells.Search(ctx, tb, list, []cells.Goal{g}, cells.DesignOptions{MaxEdits: 3})
	if err != nil {
		t.Fatal(err)
	}
	if d.Met || d.Optimal || len(d.Edits) == 0 || math.Abs(float64(d.Goals[0].Shortfall-(1.5-d.Goals[0].After))) > 1e-15 || !strings.Contains(d.Search, "closest") {
		t.Errorf("impossible goal: %+v", d)
	}
}

// Goals name their figure, selector and bound; mistakes are errors that
// list what is allowed.
func TestParseGoal(t *testing.T) {
	tb, _, list := designBattery(t)
	for spec, want := range map[string]string{
		"hex_taken@3:1,clear>=0.75":    "",
		"hex_taken@<=1:2<=0.1":         "no scenario of the battery is at <=1:2",
		"att_losses_per_hex<=1.2":      "",
		"breakthrough@forest>=0.1":     "",
		"hex_taken@3:2>=0.5":           "selector \"3:2\" is no odds level of table standard (<=1:2, 1:1",
		"hex_takn>=0.5":                "unknown figure \"hex_takn\"; figures are hex_taken",
		"hex_taken=0.5":                "want FIGURE[@SELECT]>=VALUE",
		"hex_taken>=x":                 "value \"x\"",
		"hex_taken@desert>=0.5":        "no scenario of the battery is at desert",
		"defender_units_lost@mud>=0.5": "no scenario of the battery is at mud",
	} {
		_, err := cells.ParseGoal(spec, tb, list)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", spec, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v, want one containing %q", spec, err, want)
		}
	}
}

// FuzzParseGoal: any --goal text is a goal over some scenario of the
// battery, or an error; never a panic, and a goal's value is a number.
func FuzzParseGoal(f *testing.F) {
	for _, s := range []string{"hex_taken@3:1,clear>=0.75", "att_losses_per_hex<=1.2", "hex_taken@<=1:2<=0.1", "x@>=", "@,,>=1e400", "breakthrough@forest>=NaN"} {
		f.Add(s)
	}
	tb, err := crt.Builtin("standard")
	if err != nil {
		f.Fatal(err)
	}
	s, err := scenario.Load("../examples/wild-results-3to1.yaml")
	if err != nil {
		f.Fatal(err)
	}
	c, err := combat.CompileWith(s, tb, nil, combat.Options{})
	if err != nil {
		f.Fatal(err)
	}
	sc, err := cells.NewScenario(s.Name, c)
	if err != nil {
		f.Fatal(err)
	}
	list := []*cells.Scenario{sc}
	f.Fuzz(func(t *testing.T, spec string) {
		g, err := cells.ParseGoal(spec, tb, list)
		if err != nil {
			return
		}
		if v := g.Value([][]float64{sc.Figures(nil).Values()}); math.IsNaN(v) || math.IsNaN(g.Shortfall(v)) {
			t.Fatalf("%q: value %v", spec, v)
		}
	})
}

// A figure that does not exist (losses per hex where the hex is never
// taken) is written null in JSON, which has no infinity.
func TestGoalResultJSON(t *testing.T) {
	b, err := json.Marshal(cells.GoalResult{Goal: "att_losses_per_hex<=1", Before: cells.JSONFloat(math.Inf(1)), After: 0.5, Shortfall: 0})
	if err != nil || string(b) != `{"goal":"att_losses_per_hex\u003c=1","before":null,"after":0.5,"shortfall":0}` {
		t.Errorf("%s, %v", b, err)
	}
}
