package plan

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/wifodds/wifodds/operation"
	"github.com/wifodds/wifodds/scenario"
)

// scorer is the one place a front's assignment is scored (docs/planner.md,
// Attacks that wait on others): from its hexes' own P(hex taken) (0 for a
// hex not attacked) it gives the expected value of the hexes taken, the
// objective's chance and each hex's P(attacked). With no requires the
// hexes fall independently (objective.chance); with requires, a hex is
// attacked only once all it requires are taken, and every figure is read
// from the exact joint distribution of the hexes taken (operation.Fill:
// shared ancestors make them dependent, so no product of marginals). Each
// figure rises with each hex's own P, whatever the requirements: a bound
// on the P of the hexes still open bounds the score. Expected losses (lost)
// count a hex's only when it is attacked, so with requires they depend on
// the other hexes' P too; P(attacked) <= 1, so a hex's own expected loss
// bounds its share from above, and 0 from below.
type scorer struct {
	obj      *objective // nil: the expected objective
	values   []float64  // by target
	need     []uint32   // by target: the mask of the targets it requires
	order    []int      // the order of attack
	joint    []float64  // 2^n states when some target requires another (usesJoint), else nil
	setMask  int        // objective set: its targets; all: every target
	attacked []float64  // by target: P(attacked), after score
}

// newScorer is the scorer of the plan's front with targets ts.
func newScorer(p *scenario.Plan, ts []scenario.FrontTarget) *scorer {
	n := len(ts)
	ids := make([]string, n)
	sc := &scorer{values: make([]float64, n), need: make([]uint32, n), order: p.Order, attacked: make([]float64, n)}
	for t, ft := range ts {
		ids[t], sc.values[t] = ft.ID, ft.Value
		for _, r := range ft.Requires {
			sc.need[t] |= 1 << r
		}
		sc.attacked[t] = 1
	}
	sc.obj = newObjective(p, ids)
	if hasRequires(ts) {
		sc.useJoint()
	}
	return sc
}

// useJoint makes the scorer read every figure from the joint
// distribution.
func (sc *scorer) useJoint() {
	n := len(sc.values)
	sc.joint = make([]float64, 1<<n)
	sc.setMask = 1<<n - 1
	if sc.obj != nil && sc.obj.in != nil {
		sc.setMask = 0
		for t, in := range sc.obj.in {
			if in {
				sc.setMask |= 1 << t
			}
		}
	}
}

// usesJoint reports whether the scorer reads its figures from the joint
// distribution.
func (sc *scorer) usesJoint() bool { return sc.joint != nil }

// score is the expected value of the hexes taken and the objective's
// chance (0 for the expected objective) for the hexes' own P(hex taken),
// in target order; it leaves each hex's P(attacked) in sc.attacked.
func (sc *scorer) score(ps []float64) (value, chance float64) {
	if !sc.usesJoint() {
		for t, p := range ps {
			value += sc.values[t] * p
		}
		if sc.obj != nil {
			chance = sc.obj.chance(ps)
		}
		return value, chance
	}
	operation.Fill(sc.joint, ps, sc.need, sc.order)
	for t, need := range sc.need {
		sc.attacked[t] = 1 // exactly: a hex that waits on none is attacked
		if need != 0 {
			sc.attacked[t] = operation.AllOf(sc.joint, int(need))
		}
	}
	for t, p := range ps {
		// P(taken) = P(attacked) x P(taken if attacked): the combat
		// does not depend on how its requirements were taken.
		value += sc.values[t] * sc.attacked[t] * p
	}
	if sc.obj == nil {
		return value, 0
	}
	if sc.obj.kind != scenario.ObjectiveAtLeast {
		return value, operation.AllOf(sc.joint, sc.setMask)
	}
	for m, pm := range sc.joint {
		if bits.OnesCount(uint(m)) >= sc.obj.k {
			chance += pm
		}
	}
	return value, chance
}

// lost is the expected loss over the front from each hex's own expected
// loss if attacked: a hex's counts only when it is attacked (score's
// P(attacked)).
func (sc *scorer) lost(own []float64) float64 {
	sum := 0.0
	for t, l := range own {
		sum += sc.attacked[t] * l
	}
	return sum
}

// objective scores a front's assignment by the plan's objective from its
// hexes' P(hex taken) (0 for a hex not attacked) when no target requires
// another. Once the forces are fixed each hex is its own combat, so the
// hexes fall independently: P(all) and P(set) are products and P(at least
// K) the tail of the convolution of the hexes' taken-or-not, exactly
// (docs/planner.md, Objectives). With requires, scorer reads the chance
// from the joint distribution instead.
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
