package plan

import (
	"testing"

	"github.com/wifodds/wifodds/scenario"
)

// A hex whose staircases outgrow maxStairPairs takes the plain bound, and
// keeps taking it at that spare or more on the points after, while a
// smaller spare that fits still gets staircases: the frontier and its
// forces stay the front search's, and the answer is the same bytes on 1
// and 3 workers (what a worker built before does not decide the bound).
// Random fronts in deciding hexes' scope, the cap lowered so that some
// staircases fit and some do not.
func TestStairsTooLarge(t *testing.T) {
	old := maxStairPairs
	maxStairPairs = 400
	defer func() { maxStairPairs = old }()
	fronts := 30
	if testing.Short() {
		fronts = 12
	}
	stairs, plain := 0, 0
	levelFronts(t, fronts, 0, 61, func(seed int, text string, s *scenario.Scenario, cfg Config) {
		st, _, diff := levelsAgree(t, s, cfg, true)
		if diff != "" {
			t.Errorf("seed %d: %s\n%s", seed, diff, text)
		}
		stairs += st.Stairs
		plain += st.TieSearches - st.Joined - st.Stairs
		if one, three := planJSON(t, s, cfg, 1), planJSON(t, s, cfg, 3); one != three {
			t.Errorf("seed %d: 3 workers answer otherwise than 1\n%s", seed, text)
		}
	})
	if stairs == 0 || plain == 0 {
		t.Errorf("%d combinations searched with staircases, %d with the plain bound: the test tests little", stairs, plain)
	}
	t.Logf("%d combinations searched with staircases, %d with the plain bound", stairs, plain)
}
