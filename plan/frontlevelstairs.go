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
	layers []stairLayer
}

type stairLayer struct {
	start      []int32
	cost, lost []float64
}

type stairKey struct{ t, lv int }

// maxStairPairs bounds one hex's staircases (pairs, 16 bytes each): past
// it the plain bound is used.
const maxStairPairs = 4 << 20

// stairsFor readies lt.stairs for the combination set in ls (its levels)
// with spare cost to spend past its lower bound, or clears it when the
// combination has none.
func (lt *levelTie) stairsFor(ls *levelSearch, levels [][]float64, spare float64) {
	lt.stairs = lt.stairs[:0]
	if spare <= costTol {
		return
	}
	if lt.stairCache == nil {
		lt.stairCache = map[stairKey]*lostStairs{}
	}
	for t := range ls.nt {
		k := stairKey{t, ls.lv[t]}
		s, ok := lt.stairCache[k]
		if !ok || s.spare < spare-costTol {
			s = lt.buildStairs(ls, t, levels[t][ls.lv[t]], spare)
			lt.stairCache[k] = s
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
		lost, p := 0.0, 0.0
		if v := h.finEval[j]; v != nil && h.lay.size.get(last.key(j)) > 0 {
			lost, p = lt.finLost[t][j], v.HexTaken.P
		}
		if p >= level {
			fin.cost, fin.lost = append(fin.cost, 0), append(fin.lost, lost)
		}
		fin.start[j+1] = int32(len(fin.cost))
	}
	pairs := len(fin.cost)
	type pair struct{ cost, lost float64 }
	var buf []pair
	var cost, lost []float64 // a layer's pairs, copied once complete
	for pos := nc - 1; pos >= 0; pos-- {
		c := ls.fs.order[pos]
		next := &s.layers[pos+1]
		lay := &s.layers[pos]
		n := h.layers[pos].len()
		lay.start = make([]int32, n+1)
		lay.cost, lay.lost = cost[:0], lost[:0]
		for j := range n {
			buf = buf[:0]
			b := h.start[pos][j]
			for k, q := range h.trans[pos][b:h.start[pos][j+1]] {
				add := ls.add[c][k]
				for i := next.start[q]; i < next.start[q+1]; i++ {
					buf = append(buf, pair{add + next.cost[i], next.lost[i]})
				}
			}
			// By cost, then losses: a few pairs (insertion: no sort's
			// code of its own in the browser build).
			for i := 1; i < len(buf); i++ {
				for j := i; j > 0 && (buf[j].cost < buf[j-1].cost || buf[j].cost == buf[j-1].cost && buf[j].lost < buf[j-1].lost); j-- {
					buf[j], buf[j-1] = buf[j-1], buf[j]
				}
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
		}
		cost, lost = lay.cost, lay.lost
		lay.cost, lay.lost = slices.Clone(cost), slices.Clone(lost)
		if pairs += len(lay.cost); pairs > maxStairPairs {
			return nil
		}
	}
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
