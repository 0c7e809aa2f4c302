package plan

import (
	"math"
	"math/rand/v2"
	"slices"
)

// The climbs (frontpolish.go) take only an assignment worth more for no
// more or as much for less: at high costs, where a better assignment
// spends more and moves several units at once, they stop short. On
// plan-front-4x24.yaml they knew 2.97 expected hexes at every cost from
// 70 factors up where annealing finds 3.06 from 78 on; on the front's
// first 18 units the points annealing adds before the search starts are
// worth a third of the states the bound keeps checking (docs/performance.md).
// anneal walks over whole assignments within a budget, from the best
// climb's end within it: a move sends an item of a class to another hex
// or keeps it back, or swaps it with an item of another class; a worse
// assignment is taken with a chance that falls as the walk goes on
// (simulated annealing). Every assignment it weighs is offered to the
// points known. Each is an assignment the search could send as it is
// (each unit once, to a hex it can attack, at most one HQ a hex, within
// plan.max_units), weighed through the hexes' own states, so the bound
// stays exact. The walk's random source has a fixed seed and it runs on
// one goroutine before the search: the same front gives the same points
// whatever the workers.

// annealBudgets is how many budgets anneal walks at, annealSteps how many
// moves it tries at each (a weighing each at most), annealHot and
// annealCold the temperature at the first and last move as a share of the
// most a hex is worth, and annealWork how many steps through the hexes'
// states (a weighing is one per hex and class) the walks take at most: on
// a front of many hexes and classes a weighing is dear, and annealing
// only makes pruning better, so it stops there (plan-front-4x24 takes
// less than half of it).
const (
	annealBudgets = 32
	annealSteps   = 5000
	annealHot     = 0.2
	annealCold    = 0.0005
	annealWork    = 1 << 25
)

// anneal walks at annealBudgets budgets from half the dearest point known
// (or of what every item sent would cost) up; see above.
func (fb *frontBound) anneal() error {
	fs := fb.fs
	nt, nc := len(fb.hexes), len(fs.p.classes)
	if len(fb.known.pts) == 0 {
		return nil
	}
	before := slices.Clone(fb.known.pts)
	defer func() { fb.annealed = !slices.Equal(before, fb.known.pts) }()
	top := fb.known.pts[len(fb.known.pts)-1].cost
	if !fb.lossCost {
		top = max(top, fb.rest[0])
	}
	scale := 0.0
	for _, v := range fb.values {
		scale = max(scale, v)
	}
	pz := &polisher{fb: fb, nt: nt, nc: nc, idx: make([]int32, nt), total: make(counts, nc)}
	x := make([]uint8, nt*nc)
	pz.x = x
	r := rand.New(rand.NewPCG(25, 24))
	sent := func() int {
		n := 0
		for _, k := range x {
			n += int(k)
		}
		return n
	}
	for b := range annealBudgets {
		if err := fs.ctx.Err(); err != nil {
			return err
		}
		budget := top * float64(annealBudgets+b) / float64(2*annealBudgets-1)
		// Start from the best climb's end within the budget.
		clear(x)
		bestV := -1.0
		for _, c := range fb.tops {
			if c.cost <= budget+costTol && c.value > bestV {
				bestV = c.value
				copy(x, c.x)
			}
		}
		if err := pz.eval(); err != nil {
			return err
		}
		cur := 0.0
		if pz.ok {
			cur = pz.score[1]
		}
		for step := range annealSteps {
			if pz.work > annealWork {
				return nil
			}
			temp := scale * annealHot * math.Pow(annealCold/annealHot, float64(step)/float64(annealSteps))
			c, from, to := r.IntN(nc), r.IntN(nt+1), r.IntN(nt+1)
			if to == from || pz.held(from, c) == 0 || (to < nt && !pz.fits(to, c)) {
				continue
			}
			// Half the moves swap with an item of another class at to.
			d := -1
			if r.IntN(2) == 0 {
				if e := r.IntN(nc); e != c && pz.held(to, e) > 0 && (from == nt || pz.fits(from, e)) {
					d = e
				}
			}
			pz.move(c, from, to)
			if d >= 0 {
				pz.move(d, to, from)
			}
			fit := pz.valid() && sent() <= fs.limit
			v := math.Inf(-1)
			if fit {
				if err := pz.eval(); err != nil {
					return err
				}
				if pz.ok {
					v = pz.score[1]
				}
			}
			if fit && pz.ok && pz.cost <= budget+costTol && (v >= cur || r.Float64() < math.Exp((v-cur)/temp)) {
				cur = v
				continue
			}
			if d >= 0 {
				pz.move(d, from, to)
			}
			pz.move(c, to, from)
		}
	}
	return nil
}

// climbTop is where a climb ended: an assignment and its figures.
type climbTop struct {
	x           []uint8
	cost, value float64
}
