package reports

import (
	"math"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/plan"
	"github.com/wifodds/wifodds/stats"
)

// A front's joint figures in the short answer: once the forces are fixed
// each hex falls on its own, so P(exactly k) is the product over every
// pattern of taken hexes, here by brute force over the 2^3 patterns (a hex
// not attacked is never taken).
func TestFrontJointIsIndependentHexes(t *testing.T) {
	hex := func(id string, p float64, units ...string) *plan.HexForce {
		return &plan.HexForce{Target: id, Units: units, Value: 1, HexFigures: &plan.HexFigures{HexTaken: stats.Estimate{P: p, Lo: p, Hi: p}, Method: "exact"}}
	}
	f := &plan.Force{Hexes: []*plan.HexForce{hex("A", 0.3, "a"), hex("B", 0.8, "b"), hex("C", 0.9)}}
	j, ok := frontJoint(f)
	if !ok {
		t.Fatal("no joint")
	}
	ps := []float64{0.3, 0.8, 0} // C is not attacked
	want := make([]float64, 4)
	for m := range 8 {
		p, k := 1.0, 0
		for i, q := range ps {
			if m&(1<<i) != 0 {
				p, k = p*q, k+1
			} else {
				p *= 1 - q
			}
		}
		want[k] += p
	}
	for k, got := range j.Exactly() {
		if math.Abs(got-want[k]) > 1e-12 {
			t.Errorf("P(exactly %d) = %v, want %v", k, got, want[k])
		}
	}
	if j.All() != 0 {
		t.Errorf("P(all) = %v with a hex not attacked", j.All())
	}
}

// With no target the short answer says so and shows the frontier's best
// force, not nothing; with one it leads with "Send".
func TestPlanShortHeadline(t *testing.T) {
	fig := func(p float64) *plan.HexFigures {
		return &plan.HexFigures{HexTaken: stats.Estimate{P: p, Lo: p - 0.01, Hi: p + 0.01}, Odds: "3:1", Table: "blitz", Method: "monte-carlo"}
	}
	tp := &plan.TablePlan{CRT: "2d6", Cost: "committed_factors", Frontier: []*plan.Force{
		{Units: []string{"a"}, Cost: 3, HexFigures: fig(0.4)}, {Units: []string{"a", "b"}, Cost: 6, HexFigures: fig(0.7)}}}
	var b strings.Builder
	if err := WritePlanShort(&b, "x", &plan.Result{TablePlan: tp, Plans: []*plan.TablePlan{tp}}); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{"No target set", "Best found: a, b", "P(hex taken) 70.00% (Monte Carlo, in 69.00%..71.00%)", "the next cheaper force: cost 3, P(hex taken) 40.00%: a"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
	tp.Recommended = tp.Frontier[1]
	b.Reset()
	if err := WritePlanShort(&b, "x", &plan.Result{TablePlan: tp, Plans: []*plan.TablePlan{tp}}); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(b.String(), "\n"); lines[2] != "Send: a, b" {
		t.Errorf("opens with %q:\n%s", lines[2], b.String())
	}
}

// A front's short answer: each hex's line (a hex not attacked says so, a
// sampled hex gives its interval), the joint figures (noted as from
// estimates when a hex was sampled) and the losses summed over the front.
func TestPlanShortFront(t *testing.T) {
	fig := func(p float64, method string) *plan.HexFigures {
		return &plan.HexFigures{HexTaken: stats.Estimate{P: p, Lo: p - 0.05, Hi: p + 0.05}, Attack: 6, Defence: 3, Odds: "2:1", Table: "blitz", Method: method,
			ExpectedAttackerUnitsLost: 0.5, ExpectedAttackerFactorsLost: 1.25, ExpectedDefenderUnitsLost: 1, ExpectedDefenderFactorsLost: 2}
	}
	value := 1.1
	f := &plan.Force{Units: []string{"a", "b"}, Cost: 9, Value: &value, Hexes: []*plan.HexForce{
		{Target: "A", Units: []string{"a"}, Value: 1, HexFigures: fig(0.5, "exact")},
		{Target: "B", Units: []string{"b"}, Value: 1, HexFigures: fig(0.6, "monte-carlo")},
		{Target: "C", Value: 1, HexFigures: fig(0, "exact")}}}
	target := 1.0
	tp := &plan.TablePlan{CRT: "2d6", Cost: "committed_factors", Target: &target, Targets: []string{"A", "B", "C"}, Frontier: []*plan.Force{f}, Recommended: f}
	var b strings.Builder
	if err := WritePlanShort(&b, "x", &plan.Result{TablePlan: tp, Plans: []*plan.TablePlan{tp}}); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{"Send (cost 9):", "C    not attacked", "60.00% (MC 55.00%..65.00%)",
		"expected hexes taken 1.100; P(all 3 taken) 0.00%; P(exactly 0, 1, 2, 3) 20.00%, 50.00%, 30.00%, 0.00% (from the hexes' Monte Carlo estimates)",
		"expected losses over the front: attacker 1.00 units (2.50 factors), defender 2.00 units (4.00 factors)"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
}
