package combat_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fixture"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// hidden is a model that does not offer Tabulate: Exact walks or reads
// its flat table instead.
type hidden struct{ sim.Model }

// exampleCombats compiles every land combat among the examples and test
// scenarios, by file; scenarios meant to be refused are left out.
func exampleCombats(t *testing.T, extra ...string) map[string]*combat.Combat {
	files, _ := filepath.Glob("../examples/*.yaml")
	more, _ := filepath.Glob("testdata/*.yaml")
	out := map[string]*combat.Combat{}
	for _, f := range append(append(files, more...), extra...) {
		s, err := scenario.Load(f)
		if err != nil || s.Kind == scenario.Bombardment || s.IsPlan() {
			continue
		}
		tb, err := crt.Open(s.CRT, filepath.Dir(f))
		if err != nil {
			continue
		}
		if c, err := combat.CompileWith(s, tb, fixture.Air(t, s), combat.Options{}); err == nil {
			out[f] = c
		}
	}
	return out
}

// generated compiles a one-unit attack of att factors on the defenders
// def (a YAML list) under the table and options given, and returns its
// text with it.
func generated(t *testing.T, crtName, opts string, att int, def string) (string, *combat.Combat) {
	t.Helper()
	text := fmt.Sprintf("kind: land\ncrt: %s\noptions: %s\nattacker: {units: [{type: ARM, factors: %d, nation: GE}]}\ndefender: {units: %s}\n", crtName, opts, att, def)
	s, err := scenario.Parse("gen.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := crt.Builtin(crtName)
	c, err := combat.Compile(s, tb, nil)
	if err != nil {
		t.Fatal(err)
	}
	return text, c
}

// Tabulate's exact tally is the flat table's, to the bit, for every combat
// with no pre-combat steps among the examples and test scenarios; and the
// run record counts the same paths.
func TestTabulateIsTheFlatTable(t *testing.T) {
	seen := 0
	for f, c := range exampleCombats(t) {
		if _, _, ok := c.Tabulate(); !ok {
			continue
		}
		a, ra, err := sim.Exact(context.Background(), c, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, rb, err := sim.Exact(context.Background(), hidden{c}, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range a.Weights {
			if math.Float64bits(a.Weights[i]) != math.Float64bits(b.Weights[i]) {
				t.Errorf("%s: outcome %d: %v tabulated, %v from the dice tree", f, i, a.Weights[i], b.Weights[i])
			}
		}
		if rb.Paths != ra.Paths {
			t.Errorf("%s: %d paths tabulated, %d in the flat table", f, ra.Paths, rb.Paths)
		}
		seen++
	}
	// And every mix of table, dice and options that reaches Tabulate.
	for _, crtName := range []string{"standard", "2d6"} {
		for _, opts := range []string{"[]", "[wild-results]", "[fractional-odds]", "[fractional-odds-d10, wild-results]", "[fractional-odds, blitz-modifier]"} {
			for _, att := range []int{1, 5, 9, 17, 40} {
				for _, def := range []string{"[{type: INF, factors: 3, nation: FR}]", "[{type: INF, factors: 0, nation: FR}]", "[{type: ARM, factors: 7, nation: FR}, {type: INF, factors: 2, nation: FR}]"} {
					text, c := generated(t, crtName, opts, att, def)
					a, ra, _ := sim.Exact(context.Background(), c, 0, nil)
					b, rb, _ := sim.Exact(context.Background(), hidden{c}, 0, nil)
					for i := range a.Weights {
						if math.Float64bits(a.Weights[i]) != math.Float64bits(b.Weights[i]) || ra.Paths != rb.Paths {
							t.Fatalf("%s: outcome %d: %v tabulated, %v from the flat table (%d, %d paths)", text, i, a.Weights[i], b.Weights[i], ra.Paths, rb.Paths)
						}
					}
					seen++
				}
			}
		}
	}
	if seen < 150 {
		t.Fatalf("only %d combats compared", seen)
	}
}
