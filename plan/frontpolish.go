package plan

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
)

// The front's bound drops a state only against points known (frontbound.go),
// so the better those points, the more it drops. The beam that seeds them
// keeps few assignments per cost, and deep in a front of many distinct
// units its best are well below the frontier (on plan-front-4x16.yaml,
// 2.31 expected hexes known at cost 56 where the frontier reaches 2.44).
// polish climbs from the beam's best at each cost: it moves an item from
// one hex to another, swaps two items between hexes (or with one kept
// back), or keeps an item back, as long as the assignment gets better
// (worth more for no more, or as much for less), and offers every
// assignment it weighs to the points known. Each is an assignment the
// search could send as it is (every unit at most once, to a hex it can
// attack, at most one HQ a hex, within plan.max_units), weighed through
// the hexes' own states, so the bound stays exact: polishing only makes
// the known points better.

// polishPerCost is how many of the beam's assignments at each cost (to an
// eighth) polish climbs from, polishSweeps how many rounds of moves each
// climb takes at most, and polishWork how many steps through the hexes'
// states (a weighing is one per hex and class) all the climbs take at
// most: on a wide front the swaps grow with the square of the classes,
// and polishing only makes pruning better, so it stops there.
const (
	polishPerCost = 2
	polishSweeps  = 32
	polishWork    = 1 << 27
)

// polisher holds an assignment being climbed and its figures.
type polisher struct {
	fb    *frontBound
	nt    int
	nc    int
	x     []uint8 // hex-major counts
	idx   []int32 // the hexes' final states
	total counts
	score [2]float64
	cost  float64
	ok    bool
	work  int // steps taken (polishWork)
}

// polish climbs from starts (hex-major counts) and offers what it meets.
func (fb *frontBound) polish(starts [][]uint8) error {
	fs := fb.fs
	nt, nc := len(fb.hexes), len(fs.p.classes)
	pz := &polisher{fb: fb, nt: nt, nc: nc, idx: make([]int32, nt), total: make(counts, nc)}
	type start struct {
		x     []uint8
		score [2]float64
		cost  float64
	}
	var ss []start
	for _, x := range starts {
		pz.x = x
		if !pz.valid() {
			continue // the beam does not hold a hex to one HQ
		}
		if err := pz.eval(); err != nil {
			return err
		}
		if pz.ok {
			ss = append(ss, start{x, pz.score, pz.cost})
		}
	}
	bucket := func(c float64) float64 { return math.Round(c * 8) }
	// (sort.SliceStable: a few starts, and no sort's code of their own
	// in the browser build.)
	sort.SliceStable(ss, func(i, j int) bool {
		a, b := ss[i], ss[j]
		if c := cmp.Compare(bucket(a.cost), bucket(b.cost)); c != 0 {
			return c < 0
		}
		if c := cmp.Compare(b.score[0], a.score[0]); c != 0 {
			return c < 0
		}
		return cmp.Compare(b.score[1], a.score[1]) < 0
	})
	run := 0
	cur := make([]uint8, nt*nc)
	for n, s := range ss {
		if n > 0 && bucket(s.cost) == bucket(ss[n-1].cost) {
			run++
		} else {
			run = 0
		}
		if run >= polishPerCost {
			continue
		}
		if pz.work > polishWork {
			break
		}
		if err := fs.ctx.Err(); err != nil {
			return err
		}
		copy(cur, s.x)
		up, err := pz.climb(cur)
		if err != nil {
			return err
		}
		if pz.eval(); pz.ok {
			fb.tops = append(fb.tops, climbTop{slices.Clone(cur), pz.cost, pz.score[1]})
		}
		if up {
			fb.climbed++
		}
	}
	return nil
}

// eval weighs pz.x through the hexes' states, offering it to the points
// known; ok is false when it is no attack.
func (pz *polisher) eval() error {
	fb, fs := pz.fb, pz.fb.fs
	nc := pz.nc
	var sent, land uint64
	pz.work += pz.nt * pz.nc
	clear(pz.total)
	for t, h := range fb.hexes {
		i := int32(0)
		for pos, c := range fs.order {
			k := pz.x[t*nc+c]
			lo, hi := h.start[pos][i], h.start[pos][i+1]
			if int32(k) >= hi-lo {
				// The climbs and the annealing keep to what the hex's own
				// search allows (its targets, max_units): this is a bug,
				// not a point.
				return fmt.Errorf("plan: a known point's assignment sends %d of a class to hex %d, past its search", k, t)
			}
			i = h.trans[pos][lo+int32(k)]
			if k > 0 {
				pz.total[c] += k
				sent |= 1 << t
				if fs.p.items[fs.p.classes[c].items[0]].Unit != nil {
					land |= 1 << t
				}
			}
		}
		pz.idx[t] = i
	}
	pz.cost = 0
	if !fb.lossCost {
		pz.cost = fb.pl.costOf(pz.total, 0, 0)
	}
	ok, err := fb.score(&pz.score, &pz.cost, sent, land, pz.idx, nc)
	pz.ok = ok
	return err
}

// better reports whether figures (score, cost) beat (s0, c0): worth more
// for no more, or as much for less.
func better(score [2]float64, cost float64, s0 [2]float64, c0 float64) bool {
	cmpS := 0
	for i := range 2 {
		if d := score[i] - s0[i]; math.Abs(d) > valueTol {
			cmpS = 1
			if d < 0 {
				cmpS = -1
			}
			break
		}
	}
	switch {
	case cost <= c0+costTol && cmpS > 0:
		return true
	case cost < c0-costTol && cmpS >= 0:
		return true
	}
	return false
}

// fits reports whether hex t may take one more item of class c.
func (pz *polisher) fits(t, c int) bool {
	p := pz.fb.fs.p
	if !p.classes[c].can[t] {
		return false
	}
	if !p.isHQ(c) {
		return true
	}
	for d := range pz.nc {
		if p.isHQ(d) && pz.x[t*pz.nc+d] > 0 {
			return false
		}
	}
	return true
}

// climb improves x in place by single moves and swaps until none helps,
// and reports whether any did.
func (pz *polisher) climb(x []uint8) (up bool, err error) {
	pz.x = x
	if err := pz.eval(); err != nil {
		return false, err
	}
	if !pz.ok {
		return false, nil
	}
	nt, nc := pz.nt, pz.nc
	best, bestCost := pz.score, pz.cost
	// try applies a change, keeps it if it is better, else undoes it.
	try := func(do, undo func()) (bool, error) {
		do()
		if err := pz.eval(); err != nil {
			return false, err
		}
		if pz.ok && better(pz.score, pz.cost, best, bestCost) {
			best, bestCost = pz.score, pz.cost
			return true, nil
		}
		undo()
		return false, nil
	}
	for range polishSweeps {
		if pz.work > polishWork {
			break
		}
		improved := false
		for c := range nc {
			for from := range nt {
				if pz.held(from, c) == 0 {
					continue
				}
				// Move one item of c to another hex or keep it back.
				for to := range nt + 1 {
					if to == from || (to < nt && !pz.fits(to, c)) {
						continue
					}
					ok, err := try(func() { pz.move(c, from, to) }, func() { pz.move(c, to, from) })
					if err != nil {
						return up, err
					}
					if ok {
						improved, up = true, true
						break
					}
				}
				if pz.held(from, c) == 0 {
					continue
				}
				// Swap it with an item of another class elsewhere.
				for d := range nc {
					if d == c {
						continue
					}
					for to := range nt + 1 {
						if to == from || pz.held(to, d) == 0 {
							continue
						}
						pz.move(c, from, to)
						pz.move(d, to, from)
						fit := (to == nt || pz.hqOK(to)) && pz.hqOK(from) &&
							(to == nt || pz.fb.fs.p.classes[c].can[to]) && pz.fb.fs.p.classes[d].can[from]
						pz.move(d, from, to)
						pz.move(c, to, from)
						if !fit {
							continue
						}
						ok, err := try(func() { pz.move(c, from, to); pz.move(d, to, from) },
							func() { pz.move(d, from, to); pz.move(c, to, from) })
						if err != nil {
							return up, err
						}
						if ok {
							improved, up = true, true
						}
						if pz.held(from, c) == 0 {
							break
						}
					}
					if pz.held(from, c) == 0 {
						break
					}
				}
			}
		}
		if !improved {
			break
		}
	}
	return up, nil
}

// held is how many items of class c slot holds in pz.x: a slot is a hex,
// or nt for the items kept back.
func (pz *polisher) held(slot, c int) int {
	x, nt, nc := pz.x, pz.nt, pz.nc
	if slot < nt {
		return int(x[slot*nc+c])
	}
	n := len(pz.fb.fs.p.classes[c].items)
	for t := range nt {
		n -= int(x[t*nc+c])
	}
	return n
}

// move moves one item of class c in pz.x from slot from to slot to.
func (pz *polisher) move(c, from, to int) {
	if from < pz.nt {
		pz.x[from*pz.nc+c]--
	}
	if to < pz.nt {
		pz.x[to*pz.nc+c]++
	}
}

// valid reports whether every hex of pz.x holds at most one HQ.
func (pz *polisher) valid() bool {
	for t := range pz.nt {
		if !pz.hqOK(t) {
			return false
		}
	}
	return true
}

// hqOK reports whether hex t holds at most one HQ.
func (pz *polisher) hqOK(t int) bool {
	p, n := pz.fb.fs.p, 0
	for d := range pz.nc {
		if p.isHQ(d) {
			n += int(pz.x[t*pz.nc+d])
		}
	}
	return n <= 1
}
