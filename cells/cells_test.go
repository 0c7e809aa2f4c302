package cells_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/cells"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fixture"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// examples are the example combats the lab takes: every land combat,
// invasion and paradrop that is not a plan.
func examples(t *testing.T) []*scenario.Scenario {
	t.Helper()
	paths, err := filepath.Glob("../examples/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var out []*scenario.Scenario
	for _, p := range paths {
		s, err := scenario.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		if s.Kind == scenario.Bombardment || s.IsPlan() || s.IsOperation() {
			continue
		}
		out = append(out, s)
	}
	if len(out) < 6 {
		t.Fatalf("only %d example combats found", len(out))
	}
	return out
}

// generated is a small battery built by hand from the wild-results
// example: attack totals, terrains, wild results on and off, fractional
// odds and the players' choice of table.
func generated(t *testing.T) []*scenario.Scenario {
	t.Helper()
	base, err := scenario.Load("../examples/wild-results-3to1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var out []*scenario.Scenario
	for _, over := range []string{"table=auto", "table=auto,options-=wild-results", "options=fractional-odds", "table=auto,options=fractional-odds+wild-results"} {
		for _, terrain := range []string{"clear", "forest", "mountain"} {
			for _, gs := range []float64{0, 3, 9, 19, 37} {
				s, err := scenario.Override(base, over)
				if err != nil {
					t.Fatal(err)
				}
				s.Hex.Terrain = terrain
				s.Attacker.GroundSupport = gs
				s.Name = fmt.Sprintf("%s %s gs=%g", over, terrain, gs)
				out = append(out, s)
			}
		}
	}
	return out
}

func compile(t *testing.T, s *scenario.Scenario, tb *crt.Table) *combat.Combat {
	t.Helper()
	c, err := combat.CompileWith(s, tb, fixture.Air(t, s), combat.Options{})
	if err != nil {
		t.Fatalf("%s: %v", s.Name, err)
	}
	return c
}

func builtin(t *testing.T, name string) (*crt.Table, []byte) {
	t.Helper()
	tb, err := crt.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	src, err := crt.BuiltinSource(name)
	if err != nil {
		t.Fatal(err)
	}
	return tb, src
}

var cellsList = regexp.MustCompile(`cells: \[([^\]]*)\]`)

// writeEdited writes the table's data file with the edits made in its
// text, and loads it back: the edited table as a designer would write it.
func writeEdited(t *testing.T, tb *crt.Table, src []byte, edits []crt.Edit) *crt.Table {
	t.Helper()
	lines := strings.Split(string(src), "\n")
	section := ""
	for i, line := range lines {
		switch strings.TrimSpace(line) {
		case "assault:", "blitz:":
			section = strings.TrimSuffix(strings.TrimSpace(line), ":")
			continue
		}
		for _, e := range edits {
			roll := fmt.Sprintf("{roll: %d,", tb.MinRow+e.Cell.Row)
			if section != e.Cell.Kind.String() || !strings.Contains(line, roll) {
				continue
			}
			m := cellsList.FindStringSubmatchIndex(line)
			if m == nil {
				t.Fatalf("no cells on line %q", line)
			}
			cs := strings.Split(line[m[2]:m[3]], ", ")
			cs[e.Cell.Col] = fmt.Sprintf("%q", e.Result.String())
			line = line[:m[2]] + strings.Join(cs, ", ") + line[m[3]:]
			lines[i] = line
		}
	}
	path := filepath.Join(t.TempDir(), "edited.yaml")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := crt.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, ed := range edits {
		if got := e.Cell(ed.Cell); got != ed.Result {
			t.Fatalf("edited file reads %s at %s, want %s", got, tb.CellLabel(ed.Cell), ed.Result)
		}
	}
	return e
}

// numerators are a compiled combat's exact figures as counts, from its
// own tabulation.
func numerators(t *testing.T, c *combat.Combat) cells.Figures {
	t.Helper()
	counts, size, ok := c.Tabulate()
	if !ok {
		t.Fatalf("%s: not tabulated", c.Scenario.Name)
	}
	f := cells.Figures{Num: make([]int64, len(cells.Metrics)), Size: size}
	for o, n := range counts {
		for m, met := range cells.Metrics {
			f.Num[m] += int64(n) * int64(met.Value(&c.Outcomes[o]))
		}
	}
	return f
}

func randomEdits(rng *rand.Rand, tb *crt.Table, n int) []crt.Edit {
	codes := tb.Codes()
	seen := map[crt.Cell]bool{}
	var out []crt.Edit
	for len(out) < n {
		c := crt.Cell{Kind: crt.Kinds[rng.IntN(2)], Row: rng.IntN(tb.MaxRow - tb.MinRow + 1), Col: rng.IntN(tb.Columns())}
		if seen[c] {
			continue
		}
		seen[c] = true
		out = append(out, crt.Edit{Cell: c, Result: codes[rng.IntN(len(codes))]})
	}
	return out
}

// TestReweighEqualsRecompile: every figure reweighed under random cell
// edits equals, to the count, the figure of the combat compiled afresh
// on the edited table written as a CRT file; on every example under
// both tables and on a generated battery (docs/crtlab.md).
func TestReweighEqualsRecompile(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	scs := append(examples(t), generated(t)...)
	checked := 0
	kinds := map[string]bool{}
	for _, name := range []string{"standard", "2d6"} {
		tb, src := builtin(t, name)
		for _, s := range scs {
			if s.ForcesAssault() && s.Table == "blitz" {
				continue
			}
			s, err := scenario.Override(s, "crt="+name)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := cells.NewScenario(s.Name, compile(t, s, tb))
			if err != nil {
				t.Fatal(err)
			}
			c := sc.Combat
			kinds["pre-combat steps"] = kinds["pre-combat steps"] || c.HasPreCombat()
			kinds["wild results"] = kinds["wild results"] || s.Has(scenario.WildResults)
			kinds["fractional odds"] = kinds["fractional odds"] || c.Fraction.Chance > 0
			kinds["players choose the table"] = kinds["players choose the table"] || c.AtOdds[0].Chooser == combat.ChooserAttacker || c.AtOdds[0].Chooser == combat.ChooserDefender
			kinds["invasion"] = kinds["invasion"] || s.Kind == scenario.Invasion
			kinds["paradrop"] = kinds["paradrop"] || s.Kind == scenario.Paradrop
			if got, want := sc.Figures(nil), numerators(t, sc.Combat); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s on %s unedited: reweighed %v, tabulated %v", s.Name, name, got, want)
			}
			for trial := range 3 {
				edits := randomEdits(rng, tb, 1+trial*2)
				got := sc.Figures(edits)
				want := numerators(t, compile(t, s, writeEdited(t, tb, src, edits)))
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s on %s, edits %v: reweighed %v, recompiled %v", s.Name, name, edits, got, want)
				}
				checked++
			}
		}
	}
	for _, k := range []string{"pre-combat steps", "wild results", "fractional odds", "players choose the table", "invasion", "paradrop"} {
		if !kinds[k] {
			t.Errorf("no combat with %s was checked", k)
		}
	}
	t.Logf("%d edited tables checked", checked)
}

func weigh(t *testing.T, tb *crt.Table, scs []*scenario.Scenario) (*cells.Weights, []*cells.Scenario) {
	t.Helper()
	var list []*cells.Scenario
	for _, s := range scs {
		sc, err := cells.NewScenario(s.Name, compile(t, s, tb))
		if err != nil {
			t.Fatal(err)
		}
		list = append(list, sc)
	}
	w, err := cells.Weigh(context.Background(), tb, list)
	if err != nil {
		t.Fatal(err)
	}
	return w, list
}

// TestWeightsSumToOne: per scenario, each side's masses with the mass no
// cell decides sum to 1; the battery's too.
func TestWeightsSumToOne(t *testing.T) {
	for _, name := range []string{"standard", "2d6"} {
		tb, _ := builtin(t, name)
		var scs []*scenario.Scenario
		for _, s := range append(examples(t), generated(t)...) {
			s, err := scenario.Override(s, "crt="+name)
			if err != nil {
				t.Fatal(err)
			}
			scs = append(scs, s)
		}
		w, _ := weigh(t, tb, scs)
		check := func(who string, cws []cells.CellWeight, fixed float64) {
			var a, d, m float64
			for _, cw := range cws {
				a += cw.AttackerRoll
				d += cw.DefenderRoll
				m += cw.Weight
			}
			for _, x := range []float64{a, d, m} {
				if math.Abs(x+fixed-1) > 1e-12 {
					t.Errorf("%s on %s: weights sum to %v+%v (attacker %v, defender %v), want 1", who, name, m, fixed, a, d)
				}
			}
		}
		for _, sw := range w.Scenarios {
			check(sw.Name, sw.Cells, sw.Fixed)
		}
		check("battery", w.Cells, w.Fixed)
	}
}

// TestWeightsAgreeWithOutcomes: without wild results, a roll reads one
// cell and the combat settles its result, so the weights of the cells
// holding each result sum to the exact answer's probability of
// outcomes with that result; and a cell no roll can read has weight 0.
func TestWeightsAgreeWithOutcomes(t *testing.T) {
	tb, _ := builtin(t, "standard")
	var scs []*scenario.Scenario
	for _, s := range generated(t) {
		if !s.Has(scenario.WildResults) {
			scs = append(scs, s)
		}
	}
	w, list := weigh(t, tb, scs)
	for i, sw := range w.Scenarios {
		c := list[i].Combat
		tally, _, err := sim.Exact(context.Background(), c, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := map[crt.Result]float64{}
		for o, p := range tally.Weights {
			if !c.Outcomes[o].Automatic {
				want[c.Outcomes[o].Result] += p
			}
		}
		got := map[crt.Result]float64{}
		levels := map[int]bool{}
		for _, v := range c.AtOdds {
			levels[v.Level] = true
		}
		for _, cw := range sw.Cells {
			r := tb.Cell(cw.Cell)
			r.FaceUp = r.FaceUp && r.AttackerLoss == 0
			got[r] += cw.Weight
			if cw.Weight > 0 && !levels[cw.Cell.Col] {
				t.Errorf("%s: cell %s at an odds level the combat never reads has weight %v", sw.Name, cw.Label, cw.Weight)
			}
		}
		for r, p := range want {
			if math.Abs(got[r]-p) > 1e-12 {
				t.Errorf("%s: cells reading %s weigh %v, exact P %v", sw.Name, r, got[r], p)
			}
		}
	}
	// The battery's weight of a column no scenario reads is 0.
	for _, cw := range w.Cells {
		if cw.Cell.Col == 0 && cw.Weight != 0 {
			t.Errorf("battery: %s (odds below every scenario's) weighs %v", cw.Label, cw.Weight)
		}
	}
}

// TestSensitivityIsFiniteDifference: each cell's change under another
// result equals the difference compare reports between the scenario on
// the table and on the table with that cell alone edited.
func TestSensitivityIsFiniteDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	for _, name := range []string{"standard", "2d6"} {
		tb, src := builtin(t, name)
		var scs []*scenario.Scenario
		for _, s := range generated(t) {
			if rng.IntN(4) == 0 {
				s, _ = scenario.Override(s, "crt="+name)
				scs = append(scs, s)
			}
		}
		w, list := weigh(t, tb, scs)
		for i, sw := range w.Scenarios {
			for range 3 {
				cw := sw.Cells[rng.IntN(len(sw.Cells))]
				ch := cw.Changes[rng.IntN(len(cw.Changes))]
				r, err := crt.ParseResult(ch.Result)
				if err != nil {
					t.Fatal(err)
				}
				edited := compile(t, scs[i], writeEdited(t, tb, src, []crt.Edit{{Cell: cw.Cell, Result: r}}))
				cmp, err := analysis.CompareExact(context.Background(), sw.Name, []analysis.NamedCombat{{Name: "a", Combat: list[i].Combat}, {Name: "b", Combat: edited}}, 0)
				if err != nil {
					t.Fatal(err)
				}
				for m, met := range cells.Metrics {
					if d := cmp.Variants[1].Diff[met.Name].P; math.Abs(d-ch.Delta[m]) > 1e-12 {
						t.Errorf("%s: %s -> %s: %s changes by %v, compare says %v", sw.Name, cw.Label, ch.Result, met.Name, ch.Delta[m], d)
					}
				}
			}
		}
	}
}
