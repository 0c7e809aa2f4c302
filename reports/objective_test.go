package reports

import (
	"strings"
	"testing"

	"github.com/wifodds/wifodds/plan"
)

// The short answer's objective line (issue 28 item 3): a chance
// objective's recommendation says what the most expected hexes for its
// cost would give, or that it is that assignment; the expected objective
// says nothing more.
func TestObjectiveLine(t *testing.T) {
	fl := func(x float64) *float64 { return &x }
	force := func(a, b string, value, chance float64) *plan.Force {
		return &plan.Force{Cost: 13, Value: fl(value), Chance: fl(chance), Hexes: []*plan.HexForce{
			{Target: "North", Units: []string{a}}, {Target: "South", Units: []string{b}}}}
	}
	rec := force("x", "y", 1.1, 0.34)
	tp := &plan.TablePlan{Objective: "P(every hex taken)", Recommended: rec, ExpectedPlan: force("y", "x", 1.2, 0.25)}
	if got, want := objectiveLine(tp, rec), "  the objective: P(every hex taken) 34.00%: the most expected hexes for cost 13 (1.200: y at North; x at South) would give only 25.00%\n"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	tp.ExpectedPlan = force("x", "y", 1.1, 0.34)
	if got := objectiveLine(tp, rec); !strings.HasSuffix(got, "34.00%; it is also the most expected hexes for its cost\n") {
		t.Errorf("the same assignment: %q", got)
	}
	if got := objectiveLine(tp, force("x", "x", 1, 0.1)); got != "  the objective: P(every hex taken) 10.00%\n" {
		t.Errorf("not the recommendation: %q", got)
	}
	rec.Chance = nil
	if got := objectiveLine(tp, rec); got != "" {
		t.Errorf("the expected objective: %q", got)
	}
}
