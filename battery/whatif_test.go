package battery

import (
	"context"
	"math"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// whatIfItems are a generated battery from the wild-results example
// (wild results, the players' choice of table with table=auto).
func whatIfItems(t testing.TB) ([]Item, func(ref string) (*crt.Table, error), *crt.AirTables) {
	return generatedItems(t, "../examples/wild-results-3to1.yaml", []Axis{{Key: "attack", Values: []string{"8", "11", "14", "20", "30"}}, {Key: "terrain", Values: []string{"clear", "forest", "mountain"}}})
}

// generatedItems generates a battery from an example and axes.
func generatedItems(t testing.TB, file string, axes []Axis) ([]Item, func(ref string) (*crt.Table, error), *crt.AirTables) {
	s, err := scenario.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	open := func(ref string) (*crt.Table, error) { return crt.Open(ref, "") }
	air, err := crt.BuiltinAir("strategic")
	if err != nil {
		t.Fatal(err)
	}
	items, _, err := Generate(s, axes, open, air)
	if err != nil {
		t.Fatal(err)
	}
	return items, open, air
}

var whatIfSpecs = []string{
	"base=crt=standard,table=auto",
	"e1=crt=standard,cell=assault/3:1/4:*/1,table=auto",
	"e2=crt=standard,table=auto,cell=blitz/4:1/2:-/2S,cell=assault/4:1/3:4/-",
	"tame=crt=standard,table=auto,options-=wild-results,cell=assault/2:1/5:-/1R",
	"d6=crt=2d6,cell=blitz/-/9:*/2B",
}

// A battery answers cell= variants by reweighting the cells of the
// variant compiled without them, and the figures are those of the
// variants compiled on their edited tables (docs/crtlab.md).
func TestWhatIfReweighsAsCompiled(t *testing.T) {
	items, open, air := whatIfItems(t)
	ctx := context.Background()
	req := analysis.Request{Engine: analysis.Exact}
	for _, it := range items {
		v, err := compileVariants(it.Scenario, whatIfSpecs, open, air)
		if err != nil {
			t.Fatal(err)
		}
		if v.plan == nil || len(v.vs) != 3 {
			t.Fatalf("%s: the edited variants were not planned from 3 bases: %d", it.Name, len(v.vs))
		}
		if one, err := compileVariants(it.Scenario, whatIfSpecs[:2], open, air); err != nil || one.plan == nil || len(one.vs) != 1 {
			t.Fatalf("%s: two variants of one base: %v", it.Name, err)
		}
		got, err := v.compare(ctx, it.Name, req, false)
		if err != nil {
			t.Fatal(err)
		}
		want, err := v.compiled(ctx, it.Name, req, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Variants) != len(want.Variants) || got.Method != want.Method {
			t.Fatalf("%s: %d variants by %s, compiled %d by %s", it.Name, len(got.Variants), got.Method, len(want.Variants), want.Method)
		}
		for k, g := range got.Variants {
			w := want.Variants[k]
			if g.Name != w.Name || g.CRT != w.CRT || g.Overrides != w.Overrides {
				t.Errorf("%s: variant %q crt %q (%q), compiled %q crt %q (%q)", it.Name, g.Name, g.CRT, g.Overrides, w.Name, w.CRT, w.Overrides)
			}
			for m, e := range w.Metrics {
				if math.Abs(g.Metrics[m].P-e.P) > 1e-12 || math.Abs(g.Diff[m].P-w.Diff[m].P) > 1e-12 {
					t.Errorf("%s, %s, %s: reweighed %v (diff %v), compiled %v (diff %v)", it.Name, g.Name, m, g.Metrics[m], g.Diff[m], e, w.Diff[m])
				}
			}
		}
	}
	// Sampled, the edited variants are compiled: common random numbers
	// need their combats.
	v, err := compileVariants(items[0].Scenario, whatIfSpecs, open, air)
	if err != nil {
		t.Fatal(err)
	}
	mc := analysis.Request{Engine: analysis.MonteCarlo}
	mc.Sample.Trials, mc.Sample.Seed, mc.Sample.Workers = 20000, 1, 1
	got, err := v.compare(ctx, items[0].Name, mc, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.Method == "exact" || len(got.Variants) != len(whatIfSpecs) || got.Variants[1].CRT != "standard (edited)" {
		t.Errorf("sampled: %s, %d variants, %q", got.Method, len(got.Variants), got.Variants[1].CRT)
	}
	// A lone base named scenario, as CompileVariants names the scenario
	// as written, is compiled as written.
	if v, err := compileVariants(items[0].Scenario, []string{"scenario=crt=standard", "e=crt=standard,cell=assault/3:1/4:*/1"}, open, air); err != nil || v.plan != nil {
		t.Errorf("a base named scenario: %v", err)
	}
	// A bad cell names its variant.
	if _, err := compileVariants(items[0].Scenario, []string{"a=crt=standard", "b=crt=standard,cell=assault/3:2/4:1/-"}, open, air); err == nil || err.Error() != `variant b: cell "assault/3:2/4": table standard has no odds level "3:2" (levels: <=1:2, 1:1, 2:1, 3:1, 4:1, 5:1, 7:1, >=10:1)` {
		t.Errorf("bad cell: %v", err)
	}
}

// BenchmarkWhatIfBattery answers four edited variants of one table over
// a battery by reweighting; BenchmarkWhatIfBatteryCompiled compiles and
// enumerates each on its edited table (docs/performance.md). The
// PreCombat pair does the same on a battery whose combats have
// pre-combat steps (ground strikes and AA fire), which cost more to
// compile.
func BenchmarkWhatIfBattery(b *testing.B) { benchWhatIf(b, false, false) }

func BenchmarkWhatIfBatteryCompiled(b *testing.B) { benchWhatIf(b, true, false) }

func BenchmarkWhatIfPreCombat(b *testing.B) { benchWhatIf(b, false, true) }

func BenchmarkWhatIfPreCombatCompiled(b *testing.B) { benchWhatIf(b, true, true) }

func benchWhatIf(b *testing.B, compiled, pre bool) {
	items, open, air := whatIfItems(b)
	specs := []string{"base=crt=standard,table=auto", "e1=crt=standard,table=auto,cell=assault/3:1/4:*/1",
		"e2=crt=standard,table=auto,cell=assault/3:1/3:1/2", "e3=crt=standard,table=auto,cell=assault/4:1/2:1/2",
		"e4=crt=standard,table=auto,cell=blitz/3:1/4:-/1S"}
	if pre {
		items, open, air = generatedItems(b, "../examples/artillery-support.yaml", []Axis{{Key: "terrain", Values: []string{"clear", "forest", "mountain"}}})
		specs = []string{"base=crt=2d6", "e1=crt=2d6,cell=assault/-/8:1/1", "e2=crt=2d6,cell=assault/-/9:1/2",
			"e3=crt=2d6,cell=blitz/-/8:-/1R", "e4=crt=2d6,cell=blitz/-/10:*/2B"}
	}
	ctx := context.Background()
	req := analysis.Request{Engine: analysis.Exact}
	for b.Loop() {
		for _, it := range items {
			var err error
			if compiled {
				var vs []analysis.NamedCombat
				if vs, err = analysis.CompileVariants(it.Scenario, specs, open, air); err == nil {
					_, err = analysis.Compare(ctx, it.Name, vs, req, false)
				}
			} else {
				var v *variants
				if v, err = compileVariants(it.Scenario, specs, open, air); err == nil {
					_, err = v.compare(ctx, it.Name, req, false)
				}
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
