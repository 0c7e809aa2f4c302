package reports

import (
	"strings"
	"testing"

	"github.com/wifodds/wifodds/operation"
	"github.com/wifodds/wifodds/plan"
	"github.com/wifodds/wifodds/stats"
)

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
		{Target: "C", Value: 1, HexFigures: fig(0, "exact")}},
		Joint: &plan.FrontJoint{Exactly: []float64{0.2, 0.5, 0.3, 0}, Attacked: []float64{1, 1, 1}, Taken: []float64{0.5, 0.6, 0}}}
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

// A front's hex that no unit is sent to is "not attacked" in every full
// report, never "the committed units alone": a front commits no units.
func TestPlanFrontHexNotAttacked(t *testing.T) {
	fig := &plan.HexFigures{Odds: "2:1", Table: "blitz", Method: "exact"}
	value := 0.5
	f := &plan.Force{Units: []string{"a"}, Cost: 4, Value: &value, Hexes: []*plan.HexForce{
		{Target: "A", Units: []string{"a"}, Value: 1, HexFigures: fig}, {Target: "C", Value: 1, HexFigures: fig}},
		Joint: &plan.FrontJoint{Exactly: []float64{0.5, 0.5, 0}, Attacked: []float64{1, 1}, Taken: []float64{0.5, 0}}}
	target := 0.5
	tp := &plan.TablePlan{CRT: "2d6", Cost: "committed_factors", Target: &target, Targets: []string{"A", "C"}, Frontier: []*plan.Force{f}, Recommended: f}
	r := &plan.Result{TablePlan: tp, Plans: []*plan.TablePlan{tp}}
	for name, write := range map[string]func(*strings.Builder) error{
		"text":     func(b *strings.Builder) error { return WritePlanText(b, "x", r) },
		"markdown": func(b *strings.Builder) error { return WritePlanMarkdown(b, "x", r) },
		"html":     func(b *strings.Builder) error { return WritePlanHTML(b, "x", r, "", Chart{}) },
	} {
		var b strings.Builder
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		if s := b.String(); strings.Contains(s, "committed units alone") || !strings.Contains(s, "(not attacked)") {
			t.Errorf("%s: hex C is not said to be not attacked:\n%s", name, s)
		}
	}
}

// A front whose hexes wait on others (issue 28 item 4): the short answer
// gives the order of attack, a waiting hex's P(taken) in the plan with its
// combat's own if attacked, and losses counted when a hex is attacked, all
// read from the answer's joint figures (never recomputed as products).
func TestPlanShortFrontRequires(t *testing.T) {
	fig := &plan.HexFigures{HexTaken: stats.Estimate{P: 0.5, Lo: 0.5, Hi: 0.5}, Attack: 6, Defence: 3, Odds: "2:1", Table: "blitz", Method: "exact",
		ExpectedAttackerUnitsLost: 1, ExpectedAttackerFactorsLost: 2, ExpectedDefenderUnitsLost: 1, ExpectedDefenderFactorsLost: 2}
	value := 0.75
	f := &plan.Force{Units: []string{"a", "b"}, Cost: 9, Value: &value, Hexes: []*plan.HexForce{
		{Target: "Beach", Units: []string{"a"}, Value: 1, HexFigures: fig},
		{Target: "Inland", Units: []string{"b"}, Value: 1, Requires: []string{"Beach"}, HexFigures: fig}},
		Joint: &plan.FrontJoint{Exactly: []float64{0.5, 0.25, 0.25}, All: 0.25, Attacked: []float64{1, 0.5}, Taken: []float64{0.5, 0.25},
			Sets: []operation.SetP{{Name: "both", Targets: []string{"Beach", "Inland"}, P: 0.25}}}}
	tp := &plan.TablePlan{CRT: "2d6", Cost: "committed_factors", Targets: []string{"Beach", "Inland"}, Order: []string{"Beach", "Inland"},
		Frontier: []*plan.Force{f}, Recommended: f}
	var b strings.Builder
	if err := WritePlanShort(&b, "x", &plan.Result{TablePlan: tp, Plans: []*plan.TablePlan{tp}}); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{"order of attack: Beach, then Inland (if Beach taken)",
		"Inland  b      6:3 = 2:1 blitz  25.00% (50.00% if attacked)  1.00",
		"P(all 2 taken) 25.00%; P(exactly 0, 1, 2) 50.00%, 25.00%, 25.00%; P(both) 25.00%",
		"expected losses over the front (a hex's when it is attacked): attacker 1.50 units (3.00 factors), defender 1.50 units (3.00 factors)"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q:\n%s", want, s)
		}
	}
}
