package plan

import (
	"math"
	"slices"
)

// The losses' bound of the search for forces when a combination has cost
// to spare (frontlevelforces.go). The plain bound (plainLost) lets
// each hex lose as few factors as any completion of its state, whatever
// it costs; on a combination whose lower bound is below the point's cost
// those cheap losses are mostly out of reach, since the hexes together
// have only the point's cost to spend. Here each hex's completions are
// weighed by cost too: at a node whose bound is lb (its cost plus each
// hex's least cost to its level), a hex can spend on its completion at
// most its own least cost plus the spare m - lb (the others spend at
// least theirs), and its bound is the fewest factors lost among its
// completions costing no more. Each full state keeps its completions'
// staircase (cost rising, losses falling) up to its least cost plus the
// combination's spare at the root, which no node below exceeds.

// lostStairs is one hex's staircases for one level: by layer, by full
// state j, the pairs cost[start[j]:start[j+1]] and lost[...] (the cost
// the classes to come add, the factors lost once at the level), cost
// rising and losses falling, the first the least cost.
type lostStairs struct {
	spare  float64 // how far past the least cost each staircase goes
	pairs  int
	layers []stairLayer
}

type stairLayer struct {
	start      []int32
	cost, lost []float64
}

type stairKey struct{ t, lv int }

// maxStairPairs bounds one hex's staircases for one level (pairs, 16
// bytes each: 32 MiB), checked as they are built: past it the search
// takes the plain bound. maxStairKept bounds what a worker keeps of the
// staircases built for the points before: past it they are forgotten.
// (Variables: tests lower them.)
var (
	maxStairPairs = 2 << 20
	maxStairKept  = 4 << 20
)

// stairEntry is what a worker knows of one hex's staircases for one
// level: those built for the largest spare that fit, and the least spare
// known not to fit (+Inf: none). The number of pairs only grows with the
// spare, so whether a spare's staircases fit depends on the spare alone,
// not on what the worker built before.
type stairEntry struct {
	fit   *lostStairs
	bigAt float64
}

// stairsFor readies lt.stairs for the combination set in ls (its levels)
// with spare cost to spend past its lower bound; it leaves lt.stairs
// empty (the plain bound) when a hex's staircases do not fit.
func (lt *levelTie) stairsFor(ls *levelSearch, levels [][]float64, spare float64) {
	lt.stairs = lt.stairs[:0]
	if lt.stairCache == nil {
		lt.stairCache = map[stairKey]*stairEntry{}
	}
	for t := range ls.nt {
		k := stairKey{t, ls.lv[t]}
		e := lt.stairCache[k]
		if e == nil {
			e = &stairEntry{bigAt: math.Inf(1)}
			lt.stairCache[k] = e
		}
		var s *lostStairs
		switch {
		case e.fit != nil && spare <= e.fit.spare+costTol:
			s = e.fit
		case spare >= e.bigAt-costTol:
		default:
			if s = lt.buildStairs(ls, t, levels[t][ls.lv[t]], spare); s == nil {
				e.bigAt = spare
				break
			}
			if lt.stairKept += s.pairs; lt.stairKept > maxStairKept {
				// The points before's: forgotten (this one's kept).
				clear(lt.stairCache)
				lt.stairKept = s.pairs
				lt.stairCache[k] = e
			}
			e.fit = s
		}
		if s == nil {
			lt.stairs = lt.stairs[:0] // too large: the plain bound
			return
		}
		lt.stairs = append(lt.stairs, s)
	}
}

// buildStairs is hex t's staircases for reaching P(hex taken) level, up
// to spare past each state's least cost, built from the last layer back;
// nil past maxStairPairs.
func (lt *levelTie) buildStairs(ls *levelSearch, t int, level, spare float64) *lostStairs {
	h := lt.full[t]
	nc := len(h.layers) - 1
	s := &lostStairs{spare: spare, layers: make([]stairLayer, nc+1)}
	last := h.layers[nc]
	fin := &s.layers[nc]
	fin.start = make([]int32, last.len()+1)
	for j := range last.len() {
		if lost, p := lt.final(t, j); p >= level {
			fin.cost, fin.lost = append(fin.cost, 0), append(fin.lost, lost)
		}
		fin.start[j+1] = int32(len(fin.cost))
	}
	pairs := len(fin.cost)
	type pair struct{ cost, lost float64 }
	var buf, tmp []pair
	var cost, lost []float64 // a layer's pairs, copied once complete
	for pos := nc - 1; pos >= 0; pos-- {
		c := ls.fs.order[pos]
		next := &s.layers[pos+1]
		lay := &s.layers[pos]
		n := h.layers[pos].len()
		lay.start = make([]int32, n+1)
		lay.cost, lay.lost = cost[:0], lost[:0]
		for j := range n {
			// The children's staircases, each shifted by what its items
			// cost, merged by cost, then losses (each is by cost already).
			buf = buf[:0]
			b := h.start[pos][j]
			for k, q := range h.trans[pos][b:h.start[pos][j+1]] {
				add := ls.add[c][k]
				tmp = tmp[:0]
				i := 0
				for r := next.start[q]; r < next.start[q+1]; r++ {
					p := pair{add + next.cost[r], next.lost[r]}
					for i < len(buf) && (buf[i].cost < p.cost || buf[i].cost == p.cost && buf[i].lost <= p.lost) {
						tmp = append(tmp, buf[i])
						i++
					}
					tmp = append(tmp, p)
				}
				tmp = append(tmp, buf[i:]...)
				buf, tmp = tmp, buf
			}
			least := math.Inf(1)
			for _, p := range buf {
				if len(lay.cost) > int(lay.start[j]) {
					least = lay.cost[lay.start[j]]
				}
				if p.cost > least+spare+costTol {
					break
				}
				if len(lay.lost) > int(lay.start[j]) && p.lost >= lay.lost[len(lay.lost)-1] {
					continue // no fewer losses for more cost
				}
				lay.cost, lay.lost = append(lay.cost, p.cost), append(lay.lost, p.lost)
			}
			lay.start[j+1] = int32(len(lay.cost))
			if pairs+len(lay.cost) > maxStairPairs {
				return nil
			}
		}
		cost, lost = lay.cost, lay.lost
		lay.cost, lay.lost = slices.Clone(cost), slices.Clone(lost)
		pairs += len(lay.cost)
	}
	s.pairs = pairs
	return s
}

// within is the fewest factors lost by the completions of full state j
// at layer pos costing at most budget (costTol), +Inf when none does.
func (s *lostStairs) within(pos int, j int32, budget float64) float64 {
	lay := &s.layers[pos]
	lost := math.Inf(1)
	for i := lay.start[j]; i < lay.start[j+1] && lay.cost[i] <= budget+costTol; i++ {
		lost = lay.lost[i]
	}
	return lost
}
