package analysis

import (
	"context"
	"math"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

func variants(t *testing.T, path string, overrides ...string) []NamedCombat {
	t.Helper()
	s, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []NamedCombat
	for i, o := range overrides {
		v, err := scenario.Override(s, o)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := crt.Open(v.CRT, "")
		if err != nil {
			t.Fatal(err)
		}
		c, err := combat.Compile(v, tb, nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, NamedCombat{Name: string(rune('a' + i)), Overrides: o, Combat: c})
	}
	return out
}

// Common random numbers give a tighter interval on the difference between
// two variants than independent streams do, and both cover the exact
// difference.
func TestCompareCommonRandomNumbers(t *testing.T) {
	vs := variants(t, "../combat/testdata/wild-2d6-fractional.yaml", "", "modifier=1")
	ex, err := CompareExact(context.Background(), "x", vs, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := ex.Variants[1].Diff["hex_taken"].P
	cfg := sim.Config{Trials: 400_000, Seed: 4, Workers: 2}
	crn, err := CompareSampled(context.Background(), "x", vs, cfg, true)
	if err != nil {
		t.Fatal(err)
	}
	ind, err := CompareSampled(context.Background(), "x", vs, cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	dc, di := crn.Variants[1].Diff["hex_taken"], ind.Variants[1].Diff["hex_taken"]
	if wc, wi := dc.Hi-dc.Lo, di.Hi-di.Lo; !(wc < 0.7*wi) {
		t.Errorf("common random numbers interval %.5f is not tighter than independent %.5f", wc, wi)
	}
	for name, d := range map[string]float64{"crn": dc.P, "independent": di.P} {
		e := map[string]float64{"crn": dc.Hi - dc.P, "independent": di.Hi - di.P}[name]
		// 4.5 standard errors: the half-width is 1.96 of them.
		if math.Abs(d-want) > 4.5/1.96*e {
			t.Errorf("%s difference %.5f, exact %.5f", name, d, want)
		}
	}
	if crn.Variants[1].Test == nil || crn.Variants[1].Test.P > 0.01 {
		t.Errorf("a modifier of +1 should change the result mix: %+v", crn.Variants[1].Test)
	}
	// The first variant's metrics agree with its exact values.
	for _, m := range CompareMetrics {
		p, got := ex.Variants[0].Metrics[m.Name].P, crn.Variants[0].Metrics[m.Name].P
		if math.Abs(got-p) > 0.01 {
			t.Errorf("%s: %v, exact %v", m.Name, got, p)
		}
	}
}

func TestCompareExactDifferences(t *testing.T) {
	vs := variants(t, "../examples/wild-results-3to1.yaml", "", "crt=2d6", "options-=wild-results")
	cmp, err := CompareExact(context.Background(), "x", vs, 0)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < 3; k++ {
		for _, m := range CompareMetrics {
			d := cmp.Variants[k].Diff[m.Name]
			want := cmp.Variants[k].Metrics[m.Name].P - cmp.Variants[0].Metrics[m.Name].P
			if d.P != want || d.Lo != d.P || d.Hi != d.P {
				t.Errorf("variant %d %s: diff %+v, want exactly %v", k, m.Name, d, want)
			}
		}
	}
	// Without wild results the single-roll distribution differs, the
	// expectation of P(hex taken) does not: both rolls read the same column.
	if math.Abs(cmp.Variants[2].Metrics["hex_taken"].P-cmp.Variants[0].Metrics["hex_taken"].P) > 1e-12 {
		t.Errorf("wild results changed P(hex taken): %v vs %v", cmp.Variants[2].Metrics["hex_taken"].P, cmp.Variants[0].Metrics["hex_taken"].P)
	}
}
