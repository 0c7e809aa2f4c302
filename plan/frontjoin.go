package plan

import (
	"bytes"
	"cmp"
	"errors"
	"math"
	"math/bits"
	"slices"
	"sort"
)

// The forces of deciding hexes' frontier by joining each hex's forces
// (docs/planner.md, "Deciding hexes"): how most frontier points get the
// assignment the front search reports (frontlevelforces.go says which:
// least expected factors lost, then fewest items, then first in the
// walk's order), in a fraction of the search's time.
//
// Of the combinations of a point's value (cost C), those no assignment
// reaches within C are dropped first (levelSearch.solve: quick to prove).
// A combination whose lower bound lb is C has no cost to spare: each hex
// of its assignments sends a force of exactly the hex's least cost to its
// level (each costs at least that, and they sum to C). Those forces are
// few, and are listed hex by hex: a walk of the hex's one-hex search
// pruned by its exact least cost to the level from each state, so every
// state it visits leads to a force listed; each force's expected factors
// lost are its final full state's (combat, smallest factors: finLost).
//
// The assignments are joined from the lists, one force per hex, the
// forces' items within their classes'; the cost is C whatever is chosen.
// Each hex's forces still compatible are a bitset over its list, by
// losses, then items, then counts. The join runs twice.
//
//   - Phase 1 finds the least losses and, among assignments losing as few
//     (costTol), the fewest items. A node's bound is each hex's best, its
//     first force left: an assignment losing as few has every hex at its
//     least. When the bests fit the items they are the node's answer;
//     otherwise a class they send more of than there are is split on: the
//     hex sending the most of it is given each count of it in turn, the
//     other hexes at most what is left.
//   - Phase 2 finds the first in the walk's order of the assignments with
//     those losses and items: the hexes in turn, each one's forces in the
//     order of their counts, the first complete assignment found.
//
// Combinations with cost to spare (lb < C) are searched as before
// (searchCombo) against the joins' best: their forces are many more, and
// the search, bounded by each hex's cost to its level, finds them faster.

// hexForce is one hex's force reaching its level at its least cost: its
// expected factors lost (0 when it sends nothing), its items, and where
// its (class, count) pairs are in its list, by class.
type hexForce struct {
	lost   float64
	size   int32
	off, n int32
}

// hexForces is one hex's forces reaching one level at its least cost, by
// losses, then items, then counts; with bitsets over them (nw words):
// thr[(thrOff[c]+r-1)*nw:] the forces sending r or more of class c, for r
// up to thrMax[c].
type hexForces struct {
	f         []hexForce
	cls       []int32
	ks        []uint8
	byX       []int32 // f's indices by counts
	rankX     []int32 // by force, its place in byX
	nw        int
	thrOff    []int32
	thrMax    []uint8
	thr       []uint64
	leastSize int // the fewest items of a force
}

// pairs is force i's (class, count) pairs.
func (l *hexForces) pairs(i int) ([]int32, []uint8) {
	f := &l.f[i]
	return l.cls[f.off : f.off+f.n], l.ks[f.off : f.off+f.n]
}

// forceJoin finds frontier points' assignments by joining the hexes'
// forces; one per worker, its lists kept across the points it finds.
type forceJoin struct {
	ls    *levelSearch
	lt    *levelTie
	lists map[joinKey]*hexForces
	items int // what the lists hold: forces, pairs, bitset words
	// The walk listing a hex's forces.
	t, lv  int
	budget float64
	out    *hexForces
	stackC []int32
	stackK []uint8
	err    error
	// The join: each hex's list, the items of each class, the assignment
	// (target-major counts), by hex the fewest items of the lists from
	// it on, and by depth each hex's forces still compatible.
	sel      []*hexForces
	used     []uint8
	caps     []uint8
	x        []uint8
	restSize []int
	sets     [][][]uint64
	cand     [][]int // phase 2, by depth: the forces to try
	// Phase 1: by depth, each hex's best; the items of each class left
	// for the hexes not given a count of it (fixed: a bit a hex).
	bests [][]int
	rem   []uint8
	fixed []uint64
	sent  []int32 // scratch: what the bests send of each class
	// The best: phase 1's losses and items, phase 2's assignment.
	found, done bool
	lostB       float64
	sizeB       int
	xB          []uint8
	nodes       int64
	weighed     int64 // assignments weighed: lt.leaves counts them
	joined      int   // combinations joined
	cancelled   bool
}

type joinKey struct{ t, lv int }

// maxJoinList bounds one hex's list (forces and pairs, about 8 bytes
// each): past it, the point is found by the search (forcePoint) instead;
// what a list holds does not depend on the points before, so neither does
// that choice, and the counts are the same on any number of workers.
// maxJoinKept bounds what a worker keeps of the lists of the points
// before (with their bitsets): past it they are forgotten.
const (
	maxJoinList = 2 << 20
	maxJoinKept = 4 << 20
)

// errJoinUnfit: the point's forces are found by the search instead
// (maxJoinList, or costs joining cannot add up: items of a class costing
// apart, or more than 64 hexes).
var errJoinUnfit = errors.New("plan: deciding hexes: the point's forces do not fit the join")

func newForceJoin(ls *levelSearch, lt *levelTie) *forceJoin {
	fj := &forceJoin{ls: ls, lt: lt, lists: map[joinKey]*hexForces{}}
	nt, nc := ls.nt, ls.nc
	fj.sel = make([]*hexForces, nt)
	fj.used, fj.caps = make([]uint8, nc), make([]uint8, nc)
	for c := range nc {
		fj.caps[c] = uint8(len(ls.fs.p.classes[c].items))
	}
	fj.x, fj.xB = make([]uint8, nt*nc), make([]uint8, nt*nc)
	fj.rem, fj.fixed, fj.sent = make([]uint8, nc), make([]uint64, nc), make([]int32, nc)
	fj.restSize = make([]int, nt+1)
	return fj
}

// fits reports whether the join can find pl's front's points: at most 64
// hexes, and every class's items costing alike, so that a force's own
// cost is its share of the assignment's.
func (fj *forceJoin) fits() bool {
	if fj.ls.nt > 64 {
		return false
	}
	for _, a := range fj.ls.add {
		for k := range a {
			if a[k] != float64(k)*a[1] {
				return false
			}
		}
	}
	return true
}

// point sets pt's assignment: the combinations of its value reached
// within its cost with none to spare by the join, the others by the
// search (searchCombo), the best of all kept. It reports how many
// combinations it joined or searched.
func (fj *forceJoin) point(pt *levelPoint, list []levelCombo, levels [][]float64) (int, error) {
	ls, lt := fj.ls, fj.lt
	if !fj.fits() {
		return 0, errJoinUnfit
	}
	var joins, searches []levelCombo
	for _, cb := range list {
		if !pt.holds(cb) {
			continue
		}
		ok, err := fj.reached(cb, pt, levels)
		switch {
		case err != nil:
			return 0, err
		case !ok:
		case cb.lb >= pt.cost-costTol:
			joins = append(joins, cb)
		default:
			searches = append(searches, cb)
		}
	}
	n := len(joins) + len(searches)
	fj.found, fj.weighed = false, 0
	for phase := 1; phase <= 2; phase++ {
		for _, cb := range joins {
			if err := ls.fs.ctx.Err(); err != nil {
				return n, err
			}
			ok, err := fj.combo(cb, levels)
			if err != nil {
				return n, err
			}
			if !ok {
				continue
			}
			if phase == 1 {
				fj.branch(0)
			} else {
				fj.done = false
				fj.join(0, 0, 0)
			}
			if fj.cancelled {
				return n, ls.fs.ctx.Err()
			}
		}
		if !fj.found {
			break
		}
		if phase == 1 {
			fj.found = false // phase 2's assignment
		}
	}
	lt.leaves += fj.weighed
	fj.joined += len(joins)
	lt.found = fj.found
	if fj.found {
		lt.lost, lt.size = fj.lostB, fj.sizeB
		copy(lt.x, fj.xB)
	}
	for _, cb := range searches {
		if err := ls.searchCombo(lt, pt, cb, levels); err != nil {
			return n, err
		}
	}
	return n, lt.give(pt)
}

// reached reports whether some assignment reaches cb's levels for a cost
// of at most pt's (costTol): the combination whose search found pt's cost
// does; any other is asked of the branch and bound of the frontier's
// values (levelSearch.solve), which proves a combination out quickly
// where the join would try every way its forces clash.
func (fj *forceJoin) reached(cb levelCombo, pt *levelPoint, levels [][]float64) (bool, error) {
	if cb.code == pt.code {
		return true, nil
	}
	ls := fj.ls
	ok := ls.solve(cb.code, levels, pt.cost+2*costTol)
	if ls.stopped {
		return false, ls.fs.ctx.Err()
	}
	return ok, nil
}

// combo readies the join for combination cb: the hexes' lists, every
// force compatible; ok is false when a hex has none.
func (fj *forceJoin) combo(cb levelCombo, levels [][]float64) (ok bool, err error) {
	ls := fj.ls
	nt := ls.nt
	ls.setLevels(cb.code, levels)
	for t := range nt {
		l, err := fj.list(t, ls.lv[t])
		if err != nil {
			return false, err
		}
		if len(l.f) == 0 {
			return false, nil
		}
		fj.sel[t] = l
	}
	fj.restSize[nt] = 0
	for t := nt - 1; t >= 0; t-- {
		fj.restSize[t] = fj.restSize[t+1] + fj.sel[t].leastSize
	}
	fj.level(0)
	for t, l := range fj.sel {
		s := fj.sets[0][t]
		for w := range s {
			s[w] = ^uint64(0)
		}
		if r := len(l.f) % 64; r != 0 {
			s[len(s)-1] = 1<<r - 1
		}
	}
	copy(fj.rem, fj.caps)
	clear(fj.fixed)
	clear(fj.used)
	clear(fj.x)
	return true, nil
}

// level readies depth d's bitsets and bests for the lists joined.
func (fj *forceJoin) level(d int) {
	for len(fj.sets) <= d {
		fj.sets = append(fj.sets, make([][]uint64, fj.ls.nt))
		fj.bests = append(fj.bests, make([]int, fj.ls.nt))
		fj.cand = append(fj.cand, nil)
	}
	for t, l := range fj.sel {
		if cap(fj.sets[d][t]) < l.nw {
			fj.sets[d][t] = make([]uint64, l.nw, l.nw*2)
		}
		fj.sets[d][t] = fj.sets[d][t][:l.nw]
	}
}

// list is hex t's forces reaching its level lv at its least cost, kept
// for the points to come.
func (fj *forceJoin) list(t, lv int) (*hexForces, error) {
	k := joinKey{t, lv}
	if l, ok := fj.lists[k]; ok {
		return l, nil
	}
	if fj.items > maxJoinKept {
		// The lists of the points before: forgotten.
		clear(fj.lists)
		fj.items = 0
	}
	ls := fj.ls
	fj.t, fj.lv = t, lv
	fj.budget = ls.tab[t][ls.off[t][0]*ls.nl[t]+lv]
	fj.out = &hexForces{}
	fj.stackC, fj.stackK = fj.stackC[:0], fj.stackK[:0]
	fj.walk(0, 0, 0, 0, 0)
	if fj.err != nil {
		err := fj.err
		fj.err = nil
		return nil, err
	}
	l := fj.out
	fj.sortList(l)
	fj.index(l)
	fj.lists[k] = l
	return l, nil
}

// walk lists hex fj.t's forces on from its state j (full state f) at
// layer pos, the force so far (fj.stackC, fj.stackK) costing cost and
// sending size items.
func (fj *forceJoin) walk(pos int, j, f int32, cost float64, size int32) {
	if fj.err != nil {
		return
	}
	ls, t := fj.ls, fj.t
	n := ls.tab[t][(ls.off[t][pos]+int(j))*ls.nl[t]+fj.lv]
	if cost+n >= fj.budget+costTol {
		return
	}
	hf := fj.lt.full[t]
	if pos == ls.nc || n == 0 && fj.lt.skipDone {
		// At its level (with skipDone a hex at its level gets nothing
		// more: see levelTie).
		fj.emit(hf.fin[pos][f], size)
		return
	}
	if ls.cancelled() {
		fj.err = ls.fs.ctx.Err()
		return
	}
	c := ls.fs.order[pos]
	hc := ls.hexes[t]
	b, bf := hc.start[pos][j], hf.start[pos][f]
	for k := range hc.start[pos][j+1] - b {
		if k > 0 {
			fj.stackC, fj.stackK = append(fj.stackC, int32(c)), append(fj.stackK, uint8(k))
		}
		fj.walk(pos+1, hc.trans[pos][b+k], hf.trans[pos][bf+k], cost+ls.add[c][k], size+k)
		if k > 0 {
			fj.stackC, fj.stackK = fj.stackC[:len(fj.stackC)-1], fj.stackK[:len(fj.stackK)-1]
		}
	}
}

// emit lists the walk's force, reaching the final full state fin with
// size items.
func (fj *forceJoin) emit(fin int32, size int32) {
	lost := 0.0
	if size > 0 {
		if lost = fj.lt.finLost[fj.t][fin]; math.IsNaN(lost) {
			fj.err = errNoCombat
			return
		}
	}
	o := fj.out
	at := len(o.cls)
	o.f = append(o.f, hexForce{lost: lost, size: size, off: int32(at), n: int32(len(fj.stackC))})
	o.cls = append(o.cls, fj.stackC...)
	o.ks = append(o.ks, fj.stackK...)
	sortPairs(o.cls[at:], o.ks[at:])
	fj.items += len(fj.stackC) + 3
	if len(o.cls)+3*len(o.f) > maxJoinList {
		fj.err = errJoinUnfit
	}
}

// sortList orders l's forces by losses, then items, then counts, and
// lists them by counts (byX).
func (fj *forceJoin) sortList(l *hexForces) {
	byCounts := func(a, b int) int {
		ca, ka := l.pairs(a)
		cb, kb := l.pairs(b)
		return comparePairs(ca, ka, cb, kb)
	}
	idx := make([]int, len(l.f))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		fa, fb := &l.f[a], &l.f[b]
		return cmp.Or(cmp.Compare(fa.lost, fb.lost), cmp.Compare(fa.size, fb.size), byCounts(a, b))
	})
	f := make([]hexForce, len(idx))
	for i, j := range idx {
		f[i] = l.f[j]
	}
	l.f = f
	// By counts: no two forces of a list send the same counts. (Sorted as
	// ints: one sort's code in the browser build, not two.)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, byCounts)
	l.byX, l.rankX = make([]int32, len(f)), make([]int32, len(f))
	for i, j := range idx {
		l.byX[i] = int32(j)
		l.rankX[j] = int32(i)
	}
	l.leastSize = math.MaxInt
	for _, f := range l.f {
		l.leastSize = min(l.leastSize, int(f.size))
	}
}

// index builds l's bitsets of the forces sending r or more of each class.
func (fj *forceJoin) index(l *hexForces) {
	nc := fj.ls.nc
	l.nw = (len(l.f) + 63) / 64
	l.thrMax = make([]uint8, nc)
	for i := range l.f {
		cls, ks := l.pairs(i)
		for q, c := range cls {
			l.thrMax[c] = max(l.thrMax[c], ks[q])
		}
	}
	l.thrOff = make([]int32, nc)
	n := int32(0)
	for c := range nc {
		l.thrOff[c] = n
		n += int32(l.thrMax[c])
	}
	l.thr = make([]uint64, int(n)*l.nw)
	for i := range l.f {
		cls, ks := l.pairs(i)
		for q, c := range cls {
			for r := range ks[q] {
				l.thr[(int(l.thrOff[c])+int(r))*l.nw+i/64] |= 1 << (i % 64)
			}
		}
	}
	fj.items += len(l.thr)
}

// branch is phase 1 at the node of depth d (package comment): it lowers
// fj.lostB and fj.sizeB to the node's least, when less.
func (fj *forceJoin) branch(d int) {
	if fj.stop() {
		return
	}
	sets, bests := fj.sets[d], fj.bests[d]
	lost, size := 0.0, 0
	for t, l := range fj.sel {
		i := firstIn(sets[t])
		if i < 0 {
			return
		}
		bests[t] = i
		if f := &l.f[i]; f.size > 0 {
			lost += f.lost
			size += int(f.size)
		}
	}
	if fj.found && (lost > fj.lostB+costTol || lost >= fj.lostB-costTol && size >= fj.sizeB) {
		return
	}
	// What the bests send of each class, the hexes given a count of it
	// apart; the class they send the most more of than is left.
	sent := fj.sent
	clear(sent)
	for t, l := range fj.sel {
		cls, ks := l.pairs(bests[t])
		for q, c := range cls {
			if fj.fixed[c]&(1<<t) == 0 {
				sent[c] += int32(ks[q])
			}
		}
	}
	cc, over := -1, int32(0)
	for c, n := range sent {
		if n-int32(fj.rem[c]) > over {
			cc, over = c, n-int32(fj.rem[c])
		}
	}
	if cc < 0 {
		fj.weighed++
		fj.found, fj.lostB, fj.sizeB = true, lost, size
		return
	}
	// The hex sending the most of it, given each count in turn, its
	// best's first.
	h, most := -1, uint8(0)
	for t, l := range fj.sel {
		if k := l.count(bests[t], int32(cc)); fj.fixed[cc]&(1<<t) == 0 && k > most {
			h, most = t, k
		}
	}
	lh := fj.sel[h]
	fj.level(d + 1)
	next := fj.sets[d+1]
	for j := range int(min(fj.rem[cc], lh.thrMax[cc])) + 1 {
		k := uint8(j)
		switch {
		case j == 0:
			k = most
		case j <= int(most):
			k = uint8(j - 1)
		}
		for t := range next {
			copy(next[t], sets[t])
		}
		lh.exactly(next[h], int32(cc), k)
		fj.rem[cc] -= k
		fj.fixed[cc] |= 1 << h
		for t, l := range fj.sel {
			if fj.fixed[cc]&(1<<t) == 0 {
				l.without(next[t], int32(cc), int(fj.rem[cc])+1)
			}
		}
		fj.branch(d + 1)
		fj.rem[cc] += k
		fj.fixed[cc] &^= 1 << h
		if fj.cancelled {
			return
		}
	}
}

// join is phase 2 at hex t, the hexes before losing lost with size items
// (package comment): the first assignment in the walk's order losing
// fj.lostB (costTol) with fj.sizeB items, into fj.xB.
func (fj *forceJoin) join(t int, lost float64, size int) {
	if fj.stop() {
		return
	}
	ls := fj.ls
	nt, nc := ls.nt, ls.nc
	if t == nt {
		fj.weighed++
		if near(lost, fj.lostB, costTol) && size == fj.sizeB {
			if !fj.found || bytes.Compare(fj.x, fj.xB) < 0 {
				fj.found = true
				copy(fj.xB, fj.x)
			}
			fj.done = true
		}
		return
	}
	// The least the hexes after t lose with the forces still compatible.
	after := 0.0
	for u := t + 1; u < nt; u++ {
		i := firstIn(fj.sets[t][u])
		if i < 0 {
			return
		}
		if f := &fj.sel[u].f[i]; f.size > 0 {
			after += f.lost
		}
	}
	// The forces to try: compatible, losing and sending few enough (by
	// losses, a prefix of the list), in the order of their counts.
	l := fj.sel[t]
	s := fj.sets[t][t]
	p := (t + 1) * nc
	fj.level(t + 1)
	limit := fj.lostB + costTol - lost - after
	end := sort.Search(len(l.f), func(i int) bool { return l.f[i].lost > limit })
	most := int32(fj.sizeB - size - fj.restSize[t+1])
	cand := fj.cand[t][:0] // places in byX (ints: the lists' sort's code)
	for w := range (end + 63) / 64 {
		v := s[w]
		if w == end/64 {
			v &= 1<<(end%64) - 1
		}
		for v != 0 {
			i := w*64 + bits.TrailingZeros64(v)
			v &= v - 1
			if l.f[i].size <= most {
				cand = append(cand, int(l.rankX[i]))
			}
		}
	}
	slices.SortFunc(cand, func(a, b int) int { return a - b })
	fj.cand[t] = cand
	for _, r := range cand {
		i := l.byX[r]
		f := &l.f[i]
		sum := lost + f.lost // 0 when it sends nothing
		fj.send(t, int(i))
		if fj.found && bytes.Compare(fj.x[:p], fj.xB[:p]) > 0 {
			// This force, and the rest by counts, come after the best.
			fj.unsend(t, int(i))
			return
		}
		fj.join(t+1, sum, size+int(f.size))
		fj.unsend(t, int(i))
		if fj.done || fj.cancelled {
			return
		}
	}
}

// send takes force i of hex t in phase 2: its items and counts, and the
// forces of the hexes after t still compatible at depth t+1.
func (fj *forceJoin) send(t, i int) {
	ls := fj.ls
	cls, ks := fj.sel[t].pairs(i)
	for q, c := range cls {
		fj.used[c] += ks[q]
		fj.x[t*ls.nc+int(c)] = ks[q]
	}
	for u := t + 1; u < ls.nt; u++ {
		lu := fj.sel[u]
		dst := fj.sets[t+1][u]
		copy(dst, fj.sets[t][u])
		for _, c := range cls {
			lu.without(dst, c, int(fj.caps[c])-int(fj.used[c])+1)
		}
	}
}

// unsend takes force i of hex t back.
func (fj *forceJoin) unsend(t, i int) {
	cls, ks := fj.sel[t].pairs(i)
	for q, c := range cls {
		fj.used[c] -= ks[q]
		fj.x[t*fj.ls.nc+int(c)] = 0
	}
}

// stop counts a node of the join and reports whether it must stop: the
// context is read every 4,096 nodes (a node costs up to a few bitsets).
func (fj *forceJoin) stop() bool {
	fj.nodes++
	if fj.nodes&(1<<12-1) == 0 && fj.ls.fs.ctx.Err() != nil {
		fj.cancelled = true
	}
	return fj.cancelled
}

// firstIn is the first force in s (the least losses), or -1.
func firstIn(s []uint64) int {
	for w, v := range s {
		if v != 0 {
			return w*64 + bits.TrailingZeros64(v)
		}
	}
	return -1
}

// count is how many of class c force i sends.
func (l *hexForces) count(i int, c int32) uint8 {
	cls, ks := l.pairs(i)
	for q, x := range cls {
		if x == c {
			return ks[q]
		}
	}
	return 0
}

// atLeast is the bitset of the forces sending r or more of class c (r
// from 1), or nil when none does.
func (l *hexForces) atLeast(c int32, r int) []uint64 {
	if r < 1 || r > int(l.thrMax[c]) {
		return nil
	}
	o := (int(l.thrOff[c]) + r - 1) * l.nw
	return l.thr[o : o+l.nw]
}

// without drops from s the forces sending r or more of class c.
func (l *hexForces) without(s []uint64, c int32, r int) {
	if b := l.atLeast(c, r); b != nil {
		for w := range s {
			s[w] &^= b[w]
		}
	}
}

// exactly keeps in s the forces sending exactly k of class c.
func (l *hexForces) exactly(s []uint64, c int32, k uint8) {
	if k > 0 {
		b := l.atLeast(c, int(k))
		if b == nil {
			clear(s)
			return
		}
		for w := range s {
			s[w] &= b[w]
		}
	}
	l.without(s, c, int(k)+1)
}

// sortPairs sorts a force's (class, count) pairs by class.
func sortPairs(cls []int32, ks []uint8) {
	for i := 1; i < len(cls); i++ {
		for j := i; j > 0 && cls[j-1] > cls[j]; j-- {
			cls[j-1], cls[j] = cls[j], cls[j-1]
			ks[j-1], ks[j] = ks[j], ks[j-1]
		}
	}
}

// comparePairs compares two forces' counts, given as (class, count) pairs
// by class, as their counts by class compare, lexicographically.
func comparePairs(ca []int32, ka []uint8, cb []int32, kb []uint8) int {
	for i := range min(len(ca), len(cb)) {
		switch {
		case ca[i] < cb[i]:
			return 1 // a sends some of class ca[i], b none
		case ca[i] > cb[i]:
			return -1
		case ka[i] != kb[i]:
			return cmp.Compare(ka[i], kb[i])
		}
	}
	return cmp.Compare(len(ca), len(cb))
}
