package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wifodds/wifodds/scenario"
)

// objective scores a front's assignment by the plan's objective from its
// hexes' P(hex taken) (0 for a hex not attacked). Once the forces are
// fixed each hex is its own combat, so the hexes fall independently: P(all)
// and P(set) are products and P(at least K) the tail of the convolution of
// the hexes' taken-or-not, exactly (docs/planner.md, Objectives).
type objective struct {
	kind string
	k    int    // at_least
	in   []bool // set: by target
	ids  []string
	dp   []float64
}

// newObjective is the plan's objective over the targets ids; expected
// (the default) is nil: the planner weighs the expected value itself.
func newObjective(p *scenario.Plan, ids []string) *objective {
	if !p.IsChance() {
		return nil
	}
	o := &objective{kind: p.Objective, k: p.AtLeast, ids: ids, dp: make([]float64, len(ids)+1)}
	if o.kind == scenario.ObjectiveSet {
		o.in = make([]bool, len(ids))
		for t, id := range ids {
			o.in[t] = slices.Contains(p.Set, id)
		}
	}
	return o
}

// chance is the objective's chance for the hexes' P(hex taken), in
// target order.
func (o *objective) chance(ps []float64) float64 {
	switch o.kind {
	case scenario.ObjectiveAll, scenario.ObjectiveSet:
		c := 1.0
		for t, p := range ps {
			if o.in == nil || o.in[t] {
				c *= p
			}
		}
		return c
	}
	// at_least: dp[j] is P(j taken) among the hexes so far.
	dp := o.dp[:len(ps)+1]
	clear(dp)
	dp[0] = 1
	for t, p := range ps {
		for j := t + 1; j >= 1; j-- {
			dp[j] = dp[j]*(1-p) + dp[j-1]*p
		}
		dp[0] *= 1 - p
	}
	c := 0.0
	for j := o.k; j < len(dp); j++ {
		c += dp[j]
	}
	return c
}

// label names the objective's chance in the report.
func (o *objective) label() string {
	switch o.kind {
	case scenario.ObjectiveAll:
		return "P(every hex taken)"
	case scenario.ObjectiveSet:
		var set []string
		for t, in := range o.in {
			if in {
				set = append(set, o.ids[t])
			}
		}
		return "P(every one of " + strings.Join(set, ", ") + " taken)"
	}
	return fmt.Sprintf("P(at least %d hexes taken)", o.k)
}
