package plan

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"slices"
)

// stateBytes is the most one state costs the search: its key, force,
// build points and group link in two layers at once, each array at most
// twice as long as it is full, and its share of the two tables.
func (l *layout) stateBytes(classes int) float64 {
	return float64(4*(8*l.words+classes+8+5) + 64)
}

// maxSearchMemory bounds the memory a limit on states may ask for.
const maxSearchMemory = 2 << 30

// states is one layer of the search: the states reached by the classes
// so far, each with the force the frontier prefers among those reaching
// it (the cheapest in build points when cost is counted in them, then the
// first in enumeration order: count vectors in lexicographic order, the
// order the frontier breaks its last ties in). Packed keys, forces and
// build points are flat arrays, found through an open-addressing table,
// so a layer of a million states is a few allocations.
type states struct {
	l     *layout
	nc    int
	keys  []uint64 // l.words each
	xs    []uint8
	bps   []float64
	table []int32 // state index + 1; 0 is empty
	// A group is the states that differ only in their smallest factors
	// (the key's first l.groupBits): gtable finds a group's newest state,
	// next chains the older ones, and dead marks a state whose force
	// another of its group beats whatever the combat turns out to be
	// (dominates).
	gtable []int32
	next   []int32
	dead   []bool
	// grouped is false when a state keeps no smallest factors: each group
	// is one state, so no group table is kept (a front's tuples).
	grouped bool
}

func newStates(l *layout, nc, room int) *states {
	st := &states{l: l, nc: nc, grouped: len(l.low) > 0}
	st.reset(room)
	return st
}

// reset empties the layer for about room states, keeping its arrays.
func (st *states) reset(room int) {
	size := 64
	for size < 2*room {
		size *= 2
	}
	if cap(st.table) >= size {
		st.table = st.table[:size]
		clear(st.table)
	} else {
		st.table = make([]int32, size)
	}
	if st.grouped {
		if cap(st.gtable) >= size {
			st.gtable = st.gtable[:size]
			clear(st.gtable)
		} else {
			st.gtable = make([]int32, size)
		}
	}
	// Room for half the states expected (a layer of distinct units grows
	// by less than twice), so a layer seldom copies its arrays and does
	// not hold twice the memory it needs.
	half := room / 2
	st.keys = slices.Grow(st.keys[:0], half*st.l.words)
	st.xs = slices.Grow(st.xs[:0], half*st.nc)
	st.bps = slices.Grow(st.bps[:0], half)
	st.dead = slices.Grow(st.dead[:0], half)
	st.next = st.next[:0]
	if st.grouped {
		st.next = slices.Grow(st.next, half)
	}
}

func (st *states) len() int           { return len(st.bps) }
func (st *states) key(i int) []uint64 { return st.keys[i*st.l.words : (i+1)*st.l.words] }
func (st *states) force(i int) counts { return counts(st.xs[i*st.nc : (i+1)*st.nc]) }

// find returns the state with key, or -1 and the empty slot for it.
func (st *states) find(key []uint64) (int, int) {
	n := st.l.words * 64
	mask := len(st.table) - 1
	for j := int(hashBits(key, n)) & mask; ; j = (j + 1) & mask {
		i := st.table[j]
		if i == 0 {
			return -1, j
		}
		if sameBits(st.key(int(i-1)), key, n) {
			return int(i - 1), j
		}
	}
}

// group returns the newest state of key's group, or -1 and the empty
// slot for it.
func (st *states) group(key []uint64) (int, int) {
	n := st.l.groupBits
	mask := len(st.gtable) - 1
	for j := int(hashBits(key, n)) & mask; ; j = (j + 1) & mask {
		i := st.gtable[j]
		if i == 0 {
			return -1, j
		}
		if sameBits(st.key(int(i-1)), key, n) {
			return int(i - 1), j
		}
	}
}

// insert adds a state at the empty slot find gave, newest in its group,
// growing the tables.
func (st *states) insert(slot int, key []uint64, x []uint8, bp float64) int {
	i := st.len()
	st.keys = append(st.keys, key...)
	st.xs = append(st.xs, x...)
	st.bps = append(st.bps, bp)
	st.dead = append(st.dead, false)
	st.table[slot] = int32(i + 1)
	if st.grouped {
		head, gslot := st.group(key)
		st.next = append(st.next, int32(head+1))
		st.gtable[gslot] = int32(i + 1)
	}
	if 2*st.len() > len(st.table) {
		st.table = make([]int32, 2*len(st.table))
		if st.grouped {
			st.gtable = make([]int32, 2*len(st.gtable))
		}
		for k := range st.len() {
			_, j := st.find(st.key(k))
			st.table[j] = int32(k + 1)
			if st.grouped {
				// Oldest first, so each group ends at its newest state.
				_, g := st.group(st.key(k))
				st.gtable[g] = int32(k + 1)
			}
		}
	}
	return i
}

// dominates reports whether force a (build points abp, packed state ak)
// beats force b of the same group whatever the combat: it costs no more,
// is first in enumeration order, and each sum of its j smallest factors is
// at most b's, so its expected factors lost are at most b's for any
// chances of losing j units (which fall as j grows). The frontier would
// list a before b, so b is never needed. Unless cost is counted in build
// points, a is known to come first (stateSearch.run) and the order is
// not compared.
func (st *states) dominates(byBP bool, abp float64, ax []uint8, ak []uint64, bbp float64, bx []uint8, bk []uint64) bool {
	if byBP && abp > bbp {
		return false
	}
	return st.fewerLost(ak, bk) && (!byBP || bytes.Compare(ax, bx) < 0)
}

// fewerLost reports whether each sum of packed state ak's j smallest
// factors is at most bk's, for states of the same group.
func (st *states) fewerLost(ak, bk []uint64) bool {
	var sa, sb uint64
	for j := range st.l.low {
		qa, oka := st.l.lowAt(ak, j)
		qb, okb := st.l.lowAt(bk, j)
		if !oka || !okb {
			break // a group's states have as many units in the combat
		}
		sa += qa
		sb += qb
		if sa > sb {
			return false
		}
	}
	return true
}

// beaten reports whether a live state of key's group, other than skip,
// dominates the force x costing bp.
func (st *states) beaten(byBP bool, key []uint64, x []uint8, bp float64, skip int) bool {
	if !st.grouped {
		return false // a group is one state
	}
	head, _ := st.group(key)
	for o := head; o >= 0; o = int(st.next[o]) - 1 {
		if o != skip && !st.dead[o] && st.dominates(byBP, st.bps[o], st.force(o), st.key(o), bp, x, key) {
			return true
		}
	}
	return false
}

// prune marks dead the states of state i's group that i dominates.
func (st *states) prune(byBP bool, i int) {
	if !st.grouped {
		return
	}
	head, _ := st.group(st.key(i))
	for o := head; o >= 0; o = int(st.next[o]) - 1 {
		if o != i && !st.dead[o] && st.dominates(byBP, st.bps[i], st.force(i), st.key(i), st.bps[o], st.force(o), st.key(o)) {
			st.dead[o] = true
		}
	}
}

// stateSearch walks the classes one at a time, keeping for each state
// reached by the classes so far the force the frontier prefers: a
// dynamic programme over states, exact because the state determines the
// combat and every figure the frontier compares but build points and the
// enumeration order, which the force kept decides.
type stateSearch struct {
	ctx       context.Context // checked between classes
	sp        *stateSpace
	p         *pool
	limit     int // plan.max_units
	maxStates int
	byBP      bool
	l         *layout
	scratch   stateKey
	buf       []uint64
	x         []uint8
}

var errTooManyStates = errors.New("too many states")

// run searches every force within the limit and returns the final states
// with their forces, or an error when the states outgrow the limit.
//
// Each layer is built in enumeration order: the states of the layer before
// in their order, each sending 0, 1, ... items of the class. Unless cost
// counts build points, the force kept for a state is the first reaching
// it, so a layer's order is its forces' enumeration order, by induction:
// a force reaching a known state is never preferred, a new state is last
// in order and dominates no older one, and only an older state can beat a
// new one, which it does by its smallest factors alone
// (TestStateSearchIsReference).
func (ss *stateSearch) run() (*states, error) {
	nc := len(ss.p.classes)
	l := ss.l
	cur := newStates(l, nc, 1)
	base := ss.sp.base
	ss.buf = make([]uint64, l.words)
	l.encode(ss.buf, &base)
	cur.insert(0, ss.buf, make([]uint8, nc), 0)
	ss.x = make([]uint8, nc)
	// Two layers, the one being built and the one it grows from, swapped
	// after each class.
	next := newStates(l, nc, 1)
	for c := range nc {
		if err := ss.ctx.Err(); err != nil {
			return nil, err
		}
		cl := &ss.p.classes[c]
		next.reset(min(cur.len()*2, ss.maxStates))
		for i := range cur.len() {
			if cur.dead[i] {
				continue
			}
			l.decode(cur.key(i), &ss.scratch)
			copy(ss.x, cur.force(i))
			ebp := cur.bps[i]
			top := min(len(cl.items), ss.limit-int(ss.scratch.size), ss.sp.room(&ss.scratch, c))
			for k := 0; k <= top; k++ {
				if k > 0 {
					ss.sp.add(&ss.scratch, c, 1)
				}
				ss.x[c] = uint8(k)
				l.encode(ss.buf, &ss.scratch)
				bp := ebp + cl.prefix[k]
				j, slot := next.find(ss.buf)
				if j >= 0 {
					// Unless cost counts build points, the first force
					// reaching a state is the one preferred (see above).
					if ss.byBP && ss.prefer(bp, ss.x, c, next.bps[j], next.force(j)) {
						next.bps[j] = bp
						copy(next.force(j), ss.x)
						// A better force may bring a beaten state back.
						if next.dead[j] && !next.beaten(ss.byBP, ss.buf, ss.x, bp, j) {
							next.dead[j] = false
						}
						if !next.dead[j] {
							next.prune(ss.byBP, j)
						}
					}
					continue
				}
				if next.beaten(ss.byBP, ss.buf, ss.x, bp, -1) {
					continue
				}
				if next.len() >= ss.maxStates {
					return nil, errTooManyStates
				}
				if i := next.insert(slot, ss.buf, ss.x, bp); ss.byBP {
					next.prune(ss.byBP, i)
				}
			}
		}
		cur, next = next, cur
	}
	return cur, nil
}

// prefer reports whether the force x (sending none of the classes after
// c), costing bp, is preferred to force y costing ybp: both reach the same
// state, so only build points and the order remain.
func (ss *stateSearch) prefer(bp float64, x []uint8, c int, ybp float64, y []uint8) bool {
	if ss.byBP && !near(bp, ybp, costTol) {
		return bp < ybp
	}
	return bytes.Compare(x[:c+1], y[:c+1]) < 0
}

// combatKey is the part of a packed state the compiled combat depends
// on, as a map key.
func (l *layout) combatKey(dst []uint64, key []uint64) ([]uint64, string) {
	dst = masked(dst, key, l.combatBits)
	b := make([]byte, 0, 8*len(dst))
	for _, w := range dst {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return dst, string(b)
}

// lowFactor reads the j-th smallest factor of a packed state, or false
// past the last.
func (l *layout) lowFactor(key []uint64, j int) (float64, bool) {
	q, ok := l.lowAt(key, j)
	return float64(q) / quarterScale, ok
}
