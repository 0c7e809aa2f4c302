package analysis_test

import (
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/internal/fixture"
)

// A replay carries its result in words (combat.Combat.Words): AsA 3.14's
// wild-results example, 2/2S at 3:1 (docs/rules.md §2, §2.4).
func TestReplayWords(t *testing.T) {
	c := fixture.Combat(t, "../examples/wild-results-3to1.yaml")
	r, err := analysis.Replay(c, []int{5, 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const want = "The attackers lose 2 of their 3 units and the other turns face-down; both defending units are destroyed; the hex is taken."
	if r.Result != "2/2S" || r.Words != want {
		t.Errorf("replay reads %s: %q, want 2/2S: %q", r.Result, r.Words, want)
	}
}
