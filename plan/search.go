package plan

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// stateBytes is what one state costs the search at most, by the classes
// it counts: its key, its force and the map's share, for the two layers
// held at once. The limit on states is checked against memory with it.
func stateBytes(classes, low int) float64 {
	return 2 * float64(3*classes+4*low+160)
}

// maxSearchMemory bounds the memory a limit on states may ask for.
const maxSearchMemory = 2 << 30

// hexState is a state the search reached and the force reaching it that
// the frontier prefers: the cheapest in build points when cost is
// counted in them, then the first in enumeration order (count vectors in
// lexicographic order, the order the frontier breaks its last ties in).
type hexState struct {
	key string // stateKey.appendAll
	bp  float64
	x   int32 // offset of its force in the layer's arena
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
}

// run searches every force within the limit and returns the final states
// with their forces, or ErrTooLarge (wrapped by the caller) when the
// states outgrow the limit.
func (ss *stateSearch) run() (states []hexState, arena []uint8, err error) {
	nc := len(ss.p.classes)
	base := ss.sp.base
	key := string(base.appendAll(nil))
	cur := []hexState{{key: key}}
	curArena := make([]uint8, nc)
	for c := range nc {
		cl := &ss.p.classes[c]
		next := make([]hexState, 0, len(cur))
		nextArena := make([]uint8, 0, len(cur)*nc)
		index := make(map[string]int32, len(cur))
		for i := range cur {
			e := &cur[i]
			ss.decode(e.key)
			x := curArena[int(e.x) : int(e.x)+nc]
			top := min(len(cl.items), ss.limit-int(ss.scratch.size))
			for k := 0; k <= top; k++ {
				if k > 0 {
					ss.sp.add(&ss.scratch, c, 1)
				}
				ss.buf = ss.scratch.appendAll(ss.buf[:0])
				bp := e.bp + cl.prefix[k]
				if j, ok := index[string(ss.buf)]; ok {
					o := &next[j]
					y := nextArena[int(o.x) : int(o.x)+nc]
					if ss.prefer(bp, x, k, c, o.bp, y) {
						o.bp = bp
						copy(y, x)
						y[c] = uint8(k)
					}
					continue
				}
				if len(next) >= ss.maxStates {
					return nil, nil, fmt.Errorf("over %d states", ss.maxStates)
				}
				index[string(ss.buf)] = int32(len(next))
				off := int32(len(nextArena))
				nextArena = append(nextArena, x...)
				nextArena[int(off)+c] = uint8(k)
				next = append(next, hexState{key: string(ss.buf), bp: bp, x: off})
			}
		}
		cur, curArena = next, nextArena
	}
	return cur, curArena, nil
}

// prefer reports whether the force x with k items of class c (and none of
// the classes after it), costing bp, is preferred to force y costing ybp:
// both reach the same state, so only build points and the order remain.
func (ss *stateSearch) prefer(bp float64, x []uint8, k, c int, ybp float64, y []uint8) bool {
	if ss.byBP && !near(bp, ybp, costTol) {
		return bp < ybp
	}
	if d := bytes.Compare(x[:c], y[:c]); d != 0 {
		return d < 0
	}
	return k < int(y[c])
}

// decode reads an encoded state into ss.scratch.
func (ss *stateSearch) decode(key string) {
	s := &ss.scratch
	b := []byte(key) // small: the compiler keeps it off the heap
	s.n = b[0]
	f := b[1]
	s.armoured, s.anyTerr, s.allTerr, s.allJap = f&1 != 0, f&2 != 0, f&4 != 0, f&8 != 0
	s.arm2 = binary.LittleEndian.Uint16(b[2:])
	s.blitz = binary.LittleEndian.Uint16(b[4:])
	s.anti = binary.LittleEndian.Uint16(b[6:])
	s.quarters = int32(binary.LittleEndian.Uint32(b[8:]))
	s.gs = int32(binary.LittleEndian.Uint32(b[12:]))
	s.nations = binary.LittleEndian.Uint64(b[16:])
	ne := ss.sp.nExact
	s.exact = append(s.exact[:0], b[combatKeyFixed:combatKeyFixed+ne]...)
	s.size = b[combatKeyFixed+ne]
	s.low = s.low[:0]
	for r := b[combatKeyFixed+ne+1:]; len(r) >= 4; r = r[4:] {
		s.low = append(s.low, int32(binary.LittleEndian.Uint32(r)))
	}
}

// combatKeyFixed is the length of an encoded state's fixed part.
const combatKeyFixed = 24

// combatKey is the part of an encoded state the compiled combat depends
// on (stateKey.appendCombat).
func (sp *stateSpace) combatKey(key string) string { return key[:combatKeyFixed+sp.nExact] }

// low reads the smallest factors of an encoded state, in factors.
func (sp *stateSpace) lowFactors(key string) []float64 {
	var out []float64
	for r := key[combatKeyFixed+sp.nExact+1:]; len(r) >= 4; r = r[4:] {
		out = append(out, float64(binary.LittleEndian.Uint32([]byte(r[:4])))/quarterScale)
	}
	return out
}
