package plan

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/maphash"
	"math"
)

// stateBytes is the most one state costs the search: its key, force and
// build points in two layers at once, each array at most twice as long as
// it is full, and its share of the table.
func (sp *stateSpace) stateBytes(classes int) float64 {
	return float64(4*(sp.keyLen()+classes+8) + 32)
}

// maxSearchMemory bounds the memory a limit on states may ask for.
const maxSearchMemory = 2 << 30

// states is one layer of the search: the states reached by the classes
// so far, each with the force the frontier prefers among those reaching
// it (the cheapest in build points when cost is counted in them, then the
// first in enumeration order: count vectors in lexicographic order, the
// order the frontier breaks its last ties in). Keys, forces and build
// points are flat arrays, found through an open-addressing table, so a
// layer of a million states is a few allocations.
type states struct {
	keyLen, nc int
	keys       []byte // keyLen bytes each: stateKey.appendAll, padded
	xs         []uint8
	bps        []float64
	table      []int32 // state index + 1; 0 is empty
	seed       maphash.Seed
	// A group is the states that differ only in their smallest factors
	// (the key's first groupLen bytes): gtable finds a group's first state,
	// next chains the rest, and dead marks a state whose force another of
	// its group beats whatever the combat turns out to be (dominates).
	groupLen int
	low      int
	gtable   []int32
	next     []int32
	dead     []bool
}

func newStates(keyLen, nc, low, room int, seed maphash.Seed) *states {
	st := &states{keyLen: keyLen, nc: nc, seed: seed, low: low, groupLen: keyLen - 4*low}
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
		st.table, st.gtable = st.table[:size], st.gtable[:size]
		clear(st.table)
		clear(st.gtable)
	} else {
		st.table, st.gtable = make([]int32, size), make([]int32, size)
	}
	st.keys, st.xs, st.bps, st.next, st.dead = st.keys[:0], st.xs[:0], st.bps[:0], st.next[:0], st.dead[:0]
}

func (st *states) len() int               { return len(st.bps) }
func (st *states) key(i int) []byte       { return st.keys[i*st.keyLen : (i+1)*st.keyLen] }
func (st *states) force(i int) counts     { return counts(st.xs[i*st.nc : (i+1)*st.nc]) }
func (st *states) slot(h uint64) int      { return int(h & uint64(len(st.table)-1)) }
func (st *states) hash(key []byte) uint64 { return maphash.Bytes(st.seed, key) }

// find returns the state with key, or -1 and the empty slot for it.
func (st *states) find(key []byte) (int, int) {
	for j := st.slot(st.hash(key)); ; j = (j + 1) & (len(st.table) - 1) {
		i := st.table[j]
		if i == 0 {
			return -1, j
		}
		if bytes.Equal(st.key(int(i-1)), key) {
			return int(i - 1), j
		}
	}
}

// group returns the first state of key's group, or -1 and the empty
// slot for it.
func (st *states) group(key []byte) (int, int) {
	g := key[:st.groupLen]
	for j := st.slot(st.hash(g)); ; j = (j + 1) & (len(st.gtable) - 1) {
		i := st.gtable[j]
		if i == 0 {
			return -1, j
		}
		if bytes.Equal(st.key(int(i - 1))[:st.groupLen], g) {
			return int(i - 1), j
		}
	}
}

// insert adds a state at the empty slot find gave, first in its group,
// growing the tables.
func (st *states) insert(slot int, key []byte, x []uint8, bp float64) int {
	i := st.len()
	st.keys = append(st.keys, key...)
	st.xs = append(st.xs, x...)
	st.bps = append(st.bps, bp)
	st.dead = append(st.dead, false)
	st.table[slot] = int32(i + 1)
	head, gslot := st.group(key)
	st.next = append(st.next, int32(head+1))
	st.gtable[gslot] = int32(i + 1)
	if 2*st.len() > len(st.table) {
		st.table, st.gtable = make([]int32, 2*len(st.table)), make([]int32, 2*len(st.table))
		for k := range st.len() {
			_, j := st.find(st.key(k))
			st.table[j] = int32(k + 1)
		}
		// Chains run from the newest state to the oldest: rebuild the
		// heads from the oldest up.
		for k := range st.len() {
			_, j := st.group(st.key(k))
			st.gtable[j] = int32(k + 1)
		}
	}
	return i
}

// dominates reports whether force a (build points abp, smallest factors
// in key ak) beats force b of the same group whatever the combat: it costs
// no more, is first in enumeration order, and each sum of its j smallest
// factors is at most b's, so its expected factors lost are at most b's for
// any chances of losing j units (which fall as j grows). The frontier
// would list a before b, so b is never needed.
func (st *states) dominates(byBP bool, abp float64, ax, ak []byte, bbp float64, bx, bk []byte) bool {
	if byBP && abp > bbp || bytes.Compare(ax, bx) >= 0 {
		return false
	}
	var sa, sb uint64
	for j := range st.low {
		at := st.groupLen + 4*j
		qa, qb := binary.LittleEndian.Uint32(ak[at:]), binary.LittleEndian.Uint32(bk[at:])
		if qa == lowPad || qb == lowPad {
			break // a group's states have as many units in the combat
		}
		sa += uint64(qa)
		sb += uint64(qb)
		if sa > sb {
			return false
		}
	}
	return true
}

// beaten reports whether a live state of key's group, other than skip,
// dominates the force x costing bp.
func (st *states) beaten(byBP bool, key []byte, x []uint8, bp float64, skip int) bool {
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
	sp        *stateSpace
	p         *pool
	limit     int // plan.max_units
	maxStates int
	byBP      bool
	scratch   stateKey
	buf       []byte
	x         []uint8
}

var errTooManyStates = errors.New("too many states")

// keyLen is the length of an encoded state: the smallest factors padded.
func (sp *stateSpace) keyLen() int { return combatKeyFixed + sp.nExact + 1 + 4*sp.low }

// run searches every force within the limit and returns the final states
// with their forces, or an error when the states outgrow the limit.
func (ss *stateSearch) run() (*states, error) {
	nc := len(ss.p.classes)
	kl := ss.sp.keyLen()
	seed := maphash.MakeSeed() // places states in the table only: the answer does not depend on it
	cur := newStates(kl, nc, ss.sp.low, 1, seed)
	base := ss.sp.base
	cur.insert(0, ss.sp.encode(ss.buf[:0], &base), make([]uint8, nc), 0)
	ss.x = make([]uint8, nc)
	// Two layers, the one being built and the one it grows from, swapped
	// after each class.
	next := newStates(kl, nc, ss.sp.low, 1, seed)
	for c := range nc {
		cl := &ss.p.classes[c]
		next.reset(min(cur.len()*2, ss.maxStates))
		for i := range cur.len() {
			if cur.dead[i] {
				continue
			}
			ss.sp.decode(cur.key(i), &ss.scratch)
			copy(ss.x, cur.force(i))
			ebp := cur.bps[i]
			top := min(len(cl.items), ss.limit-int(ss.scratch.size))
			for k := 0; k <= top; k++ {
				if k > 0 {
					ss.sp.add(&ss.scratch, c, 1)
				}
				ss.x[c] = uint8(k)
				ss.buf = ss.sp.encode(ss.buf[:0], &ss.scratch)
				bp := ebp + cl.prefix[k]
				j, slot := next.find(ss.buf)
				if j >= 0 {
					if ss.prefer(bp, ss.x, c, next.bps[j], next.force(j)) {
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
				next.prune(ss.byBP, next.insert(slot, ss.buf, ss.x, bp))
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

// encode appends state s, its smallest factors padded to sp.low.
func (sp *stateSpace) encode(b []byte, s *stateKey) []byte {
	b = s.appendAll(b)
	for range sp.low - len(s.low) {
		b = binary.LittleEndian.AppendUint32(b, lowPad)
	}
	return b
}

// lowPad pads the smallest factors: no factor is that many quarters.
const lowPad = math.MaxUint32

// decode reads an encoded state into s.
func (sp *stateSpace) decode(b []byte, s *stateKey) {
	s.n = b[0]
	f := b[1]
	s.armoured, s.anyTerr, s.allTerr, s.allJap = f&1 != 0, f&2 != 0, f&4 != 0, f&8 != 0
	s.arm2 = binary.LittleEndian.Uint16(b[2:])
	s.blitz = binary.LittleEndian.Uint16(b[4:])
	s.anti = binary.LittleEndian.Uint16(b[6:])
	s.quarters = int32(binary.LittleEndian.Uint32(b[8:]))
	s.gs = int32(binary.LittleEndian.Uint32(b[12:]))
	s.nations = binary.LittleEndian.Uint64(b[16:])
	ne := sp.nExact
	s.exact = append(s.exact[:0], b[combatKeyFixed:combatKeyFixed+ne]...)
	s.size = b[combatKeyFixed+ne]
	s.low = s.low[:0]
	for r := b[combatKeyFixed+ne+1:]; len(r) >= 4; r = r[4:] {
		q := binary.LittleEndian.Uint32(r)
		if q == lowPad {
			break
		}
		s.low = append(s.low, int32(q))
	}
}

// combatKeyFixed is the length of an encoded state's fixed part.
const combatKeyFixed = 24

// combatKey is the part of an encoded state the compiled combat depends
// on (stateKey.appendCombat).
func (sp *stateSpace) combatKey(key []byte) []byte { return key[:combatKeyFixed+sp.nExact] }

// lowFactor reads the j-th smallest factor of an encoded state, or
// false past the last.
func (sp *stateSpace) lowFactor(key []byte, j int) (float64, bool) {
	at := combatKeyFixed + sp.nExact + 1 + 4*j
	if j >= sp.low || at+4 > len(key) {
		return 0, false
	}
	q := binary.LittleEndian.Uint32(key[at:])
	if q == lowPad {
		return 0, false
	}
	return float64(q) / quarterScale, true
}
