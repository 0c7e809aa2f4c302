package cells_test

import (
	"testing"

	"github.com/wifodds/wifodds/cells"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// benchBattery is the generated battery on the standard table, compiled.
func benchBattery(b *testing.B) (*crt.Table, []*scenario.Scenario, []*cells.Scenario) {
	tb, err := crt.Builtin("standard")
	if err != nil {
		b.Fatal(err)
	}
	base, err := scenario.Load("../examples/wild-results-3to1.yaml")
	if err != nil {
		b.Fatal(err)
	}
	var scs []*scenario.Scenario
	var list []*cells.Scenario
	for _, over := range []string{"table=auto,options-=wild-results", "table=auto"} {
		for _, gs := range []float64{0, 3, 9, 19, 37} {
			s, _ := scenario.Override(base, over)
			s.Attacker.GroundSupport = gs
			c, err := combat.CompileWith(s, tb, nil, combat.Options{})
			if err != nil {
				b.Fatal(err)
			}
			sc, err := cells.NewScenario(s.Name, c)
			if err != nil {
				b.Fatal(err)
			}
			scs, list = append(scs, s), append(list, sc)
		}
	}
	return tb, scs, list
}

var benchEdit = []string{"assault/3:1/4:*/1"}

// BenchmarkWhatIfReweigh answers one cell edit over the battery by
// reweighting the compiled combats' cells (docs/performance.md).
func BenchmarkWhatIfReweigh(b *testing.B) {
	tb, _, list := benchBattery(b)
	e, err := tb.ParseEdit(benchEdit[0])
	if err != nil {
		b.Fatal(err)
	}
	edits := []crt.Edit{e}
	for _, s := range list {
		s.Figures(edits) // settle the edited results once, as a search does
	}
	b.ResetTimer()
	for b.Loop() {
		for _, s := range list {
			s.Figures(edits)
		}
	}
}

// BenchmarkWhatIfRecompile answers the same edit by compiling every
// combat on the edited table and tabulating it.
func BenchmarkWhatIfRecompile(b *testing.B) {
	tb, scs, _ := benchBattery(b)
	for b.Loop() {
		e, err := tb.EditCells(benchEdit)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range scs {
			c, err := combat.CompileWith(s, e, nil, combat.Options{})
			if err != nil {
				b.Fatal(err)
			}
			c.Tabulate()
		}
	}
}
