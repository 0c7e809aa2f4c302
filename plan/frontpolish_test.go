package plan

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Every point the bound knows (the beam's, polish's and the search's) is
// an assignment the front could send: the whole tuple search's frontier
// has a point costing no more and worth no less, in the expected hexes
// (no objective) or the objective's chance. Random fronts of 2 to 4 hexes
// and up to 12 units, every objective and cost measure, fixed seeds; and
// polish climbs to a better assignment on most of them, so the test tests
// the climbs.
func TestKnownPointsAreAssignments(t *testing.T) {
	withPruneFrom(t, 0)
	var fb *frontBound
	boundBuilt = func(b *frontBound) { fb = b }
	t.Cleanup(func() { boundBuilt = nil })
	seeds, climbed := 36, 0
	if testing.Short() {
		seeds = 12
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 31))
		targets := 2 + seed%3
		n := 4 + r.IntN([]int{9, 7, 5}[targets-2])
		text := richFrontYAML(r, seed, targets, n)
		text = withObjective(text, objectiveFor(r, seed/3, targets))
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			fb = nil
			_, whole := planPruned(t, text, 1)
			if fb == nil {
				t.Skip("no bound built") // a front with requires: searched whole
			}
			if fb.climbed > 0 {
				climbed++
			}
			known := knownPointsAreAssignments(t, fb, whole, text)
			if len(known) == 0 && len(whole.Frontier) > 0 {
				t.Errorf("no points known where the frontier has %d\n%s", len(whole.Frontier), text)
			}
		})
	}
	if climbed < seeds/3 {
		t.Errorf("polish climbed on %d of %d fronts", climbed, seeds)
	}
}

// knownPointsAreAssignments fails t unless the whole search's frontier
// has, for each point fb knows (in the objective's chance for a chance
// objective, whose frontier is of the chance), a point costing no more
// and worth no less; it returns those points.
func knownPointsAreAssignments(t *testing.T, fb *frontBound, whole *TablePlan, text string) []bpoint {
	t.Helper()
	known, chance := fb.known.pts, whole.Objective != ""
	if chance {
		known = fb.knownChance.pts
	}
	for _, q := range known {
		ok := false
		for _, f := range whole.Frontier {
			v := *f.Value
			if chance {
				v = *f.Chance
			}
			if f.Cost <= q.cost+1e-9 && v >= q.p-1e-9 {
				ok = true
				break
			}
		}
		if !ok {
			t.Fatalf("known point (cost %v, %v) beats the whole search's frontier\n%s", q.cost, q.p, text)
		}
	}
	return known
}
