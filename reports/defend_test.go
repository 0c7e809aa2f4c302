package reports

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/plan"
)

// The text answer to a defender's plan stays short however long its
// frontier: the recommendation first, at most maxDefenceRows rows, and a
// line saying where the rest are.
func TestDefenceTextIsShort(t *testing.T) {
	dp := &plan.DefencePlan{Side: "defender", CRT: "2d6", Cost: "committed_factors", Attacker: "best-response"}
	for i := range 15 {
		taken := 1 - float64(i)/15
		dp.Frontier = append(dp.Frontier, &plan.Reserve{Units: []string{fmt.Sprintf("r%d", i)}, Cost: float64(i), HexTaken: taken, HexHeld: 1 - taken,
			Response: &plan.Force{Units: []string{"a"}, HexFigures: &plan.HexFigures{Odds: "3:1", Table: "blitz", Method: "exact"}}})
	}
	target := 0.5
	dp.Target, dp.Recommended = &target, dp.Frontier[8]
	var b strings.Builder
	d := &plan.Defence{DefencePlan: dp, Plans: []*plan.DefencePlan{dp}}
	if err := WriteDefenceText(&b, "long", d, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) > 25 || !strings.HasPrefix(lines[4], "Recommended reserves: r8") || !strings.Contains(b.String(), "... 5 more: --all") {
		t.Errorf("%d lines:\n%s", len(lines), b.String())
	}
	// --all: every row, no pointer to the rest.
	b.Reset()
	if err := WriteDefenceText(&b, "long", d, true); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); !strings.Contains(s, "r14;") || strings.Contains(s, "more: --all") {
		t.Errorf("--all:\n%s", s)
	}
}
