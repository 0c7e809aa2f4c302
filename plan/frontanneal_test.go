package plan

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Every point annealing offers is an assignment the front could send: on
// TestKnownPointsAreAssignments' random fronts (2 to 4 hexes, up to 12
// units, every objective and cost measure, fixed seeds), with the points
// known cut to the cheapest and no climbs to start from, annealing alone
// adds points, and the whole tuple search's frontier has a point costing
// no more and worth no less than each; the search pruned against them
// still gives the whole search's answer.
func TestAnnealPointsAreAssignments(t *testing.T) {
	withPruneFrom(t, 0)
	var fb *frontBound
	var err error
	boundBuilt = func(b *frontBound) {
		fb = b
		b.known.pts = b.known.pts[:min(1, len(b.known.pts))]
		b.knownChance.pts = b.knownChance.pts[:min(1, len(b.knownChance.pts))]
		b.tops = nil
		err = b.anneal()
	}
	t.Cleanup(func() { boundBuilt = nil })
	seeds, annealed := 36, 0
	if testing.Short() {
		seeds = 12
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 37))
		targets := 2 + seed%3
		n := 4 + r.IntN([]int{9, 7, 5}[targets-2])
		text := richFrontYAML(r, seed, targets, n)
		text = withObjective(text, objectiveFor(r, seed/3, targets))
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			fb, err = nil, nil
			pruned, whole := planPruned(t, text, 1)
			if fb == nil {
				t.Skip("no bound built") // a front with requires: searched whole
			}
			if err != nil {
				t.Fatal(err)
			}
			if g, w := frontAnswer(t, pruned), frontAnswer(t, whole); g != w {
				t.Errorf("pruned search\n got %s\nwant %s\n%s", g, w, text)
			}
			if fb.annealed {
				annealed++
			}
			knownPointsAreAssignments(t, fb, whole, text)
		})
	}
	if annealed < seeds/2 {
		t.Errorf("annealing added points on %d of %d fronts", annealed, seeds)
	}
}
