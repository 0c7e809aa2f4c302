package operation

import (
	"fmt"
	"math/bits"

	"github.com/wifodds/wifodds/scenario"
)

// MaxTargets bounds the combats of a joint distribution: it holds 2^n
// states.
const MaxTargets = 20

// Target is one combat as the joint distribution sees it.
type Target struct {
	ID    string
	Value float64 // what taking the hex is worth
	// P is P(hex taken | attacked): the combat's own chance.
	P float64
	// Requires lists the targets (indices) that must all be taken before
	// this one is attacked.
	Requires []int
}

// Joint is the exact distribution of which hexes an operation takes.
// State mask m (bit i for target i) has probability State(m); a state in
// which a target is taken without all it requires has probability 0.
type Joint struct {
	Targets []Target
	p       []float64 // indexed by state mask
}

// NewJoint is the joint distribution of the targets: each attacked when
// all it requires are taken, then taken with its own P independently of
// the others. The number of targets is checked before anything is
// allocated; requirements must name other targets and form no cycle.
func NewJoint(targets []Target) (*Joint, error) {
	n := len(targets)
	if n == 0 || n > MaxTargets {
		return nil, fmt.Errorf("operation: %d targets: want 1 to %d (the joint distribution has 2^n states)", n, MaxTargets)
	}
	need := make([]uint32, n)
	for i, t := range targets {
		if !(t.P >= 0 && t.P <= 1) {
			return nil, fmt.Errorf("operation: target %q: P(taken) %v is not a probability", t.ID, t.P)
		}
		for _, r := range t.Requires {
			if r < 0 || r >= n || r == i {
				return nil, fmt.Errorf("operation: target %q requires target %d, which is not another target", t.ID, r)
			}
			need[i] |= 1 << r
		}
	}
	order, err := Order(targets)
	if err != nil {
		return nil, err
	}
	j := &Joint{Targets: targets, p: make([]float64, 1<<n)}
	ps := make([]float64, n)
	for i, t := range targets {
		ps[i] = t.P
	}
	Fill(j.p, ps, need, order)
	return j, nil
}

// Fill writes into p (2^n entries, n = len(ps)) the joint distribution of
// n targets, target i taken with ps[i] once every target of the mask
// need[i] is taken, played in order (an order of attack): NewJoint's
// method, without allocating, for the planner, which scores many
// assignments (plan.scorer).
func Fill(p, ps []float64, need []uint32, order []int) {
	clear(p)
	p[0] = 1
	// Play the targets in the order of attack: before target i is
	// played, only states within the targets played so far have any
	// probability, and none takes i; each that holds all i requires
	// splits into taken (its P) and not (1 - P), the others stay whole
	// (i is not attacked). So only the supersets of i's requirements
	// among the played are visited (the order plays them first).
	played := 0
	for _, i := range order {
		bit, q, req := 1<<i, ps[i], int(need[i])
		free := played &^ req
		for sub := free; ; sub = (sub - 1) & free {
			m := sub | req
			if pm := p[m]; pm != 0 {
				p[m|bit] = pm * q
				p[m] = pm * (1 - q)
			}
			if sub == 0 {
				break
			}
		}
		played |= bit
	}
}

// Order is an order of attack: every target after those it requires,
// among the ready the first in the list (scenario.AttackOrder). A cycle
// is an error.
func Order(targets []Target) ([]int, error) {
	requires := make([][]int, len(targets))
	for i, t := range targets {
		requires[i] = t.Requires
	}
	order, ok := scenario.AttackOrder(requires)
	if !ok {
		return nil, fmt.Errorf("operation: the requirements go round in a circle: no target left can be attacked first")
	}
	return order, nil
}

// States is the number of states, 2^len(Targets).
func (j *Joint) States() int { return len(j.p) }

// State is the probability that exactly the targets in mask are taken.
func (j *Joint) State(mask int) float64 { return j.p[mask] }

// AllOf is the probability that every target in mask is taken.
func (j *Joint) AllOf(mask int) float64 { return AllOf(j.p, mask) }

// AllOf is P(every target in mask taken) of the joint distribution p (2^n
// states, as Fill writes it): the sum over the states holding mask, 1 for
// the empty mask. It visits only those states, in increasing order (so the
// sum is the one a pass over every state makes), and allocates nothing,
// for the planner's scorer.
func AllOf(p []float64, mask int) float64 {
	free := (len(p) - 1) &^ mask
	sum := 0.0
	for sub := 0; ; sub = (sub - free) & free {
		sum += p[sub|mask]
		if sub == free {
			return sum
		}
	}
}

// Mask is the state mask of the targets listed.
func Mask(targets []int) int {
	m := 0
	for _, i := range targets {
		m |= 1 << i
	}
	return m
}

// Taken is P(target i taken).
func (j *Joint) Taken(i int) float64 { return j.AllOf(1 << i) }

// TakenAll is P(taken) of every target, in one pass over the states.
func (j *Joint) TakenAll() []float64 {
	out := make([]float64, len(j.Targets))
	for m, p := range j.p {
		for b := uint(m); b != 0; b &= b - 1 {
			out[bits.TrailingZeros(b)] += p
		}
	}
	return out
}

// Attacked is P(target i attacked): P(every target it requires taken),
// 1 when it requires none.
func (j *Joint) Attacked(i int) float64 {
	if len(j.Targets[i].Requires) == 0 {
		return 1
	}
	return j.AllOf(Mask(j.Targets[i].Requires))
}

// All is P(every target taken).
func (j *Joint) All() float64 { return j.p[len(j.p)-1] }

// Exactly is P(exactly k targets taken) for k = 0..n.
func (j *Joint) Exactly() []float64 {
	out := make([]float64, len(j.Targets)+1)
	for m, p := range j.p {
		out[bits.OnesCount(uint(m))] += p
	}
	return out
}

// AtLeast is P(k or more targets taken) for k = 0..n.
func (j *Joint) AtLeast() []float64 {
	out := j.Exactly()
	for k := len(out) - 2; k >= 0; k-- {
		out[k] += out[k+1]
	}
	return out
}

// Expected is the expected value of the hexes taken, each worth its Value.
func (j *Joint) Expected() float64 {
	sum := 0.0
	for i, p := range j.TakenAll() {
		sum += j.Targets[i].Value * p
	}
	return sum
}
