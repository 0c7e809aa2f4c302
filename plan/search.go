package plan

import (
	"context"
	"encoding/binary"
	"errors"
	"slices"
)

// stateBytes is the most one state costs a front's search: its key, force
// and build points in two layers at once, each array at most twice as
// long as it is full, and its share of the two tables; the 5 bytes a
// state for the group link and flag the layers no longer keep are left
// in, so the limits a front is held to stay as they were.
func (l *layout) stateBytes(classes int) float64 {
	return float64(4*(8*l.words+classes+8+5) + 64)
}

// maxSearchMemory bounds the memory a limit on states may ask for.
const maxSearchMemory = 2 << 30

// states is one layer of a front's search (and of the front bound's
// per-hex searches): the states reached by the classes so far, each with
// the force the frontier prefers among those reaching it (the cheapest in build points when cost is counted in them, then the
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
}

func newStates(l *layout, nc, room int) *states {
	st := &states{l: l, nc: nc}
	st.reset(room)
	return st
}

// reset empties the layer for about room states, keeping its arrays.
func (st *states) reset(room int) {
	st.table = emptied(st.table, tableSize(2*room))
	// Room for half the states expected (a layer of distinct units grows
	// by less than twice), so a layer seldom copies its arrays and does
	// not hold twice the memory it needs.
	half := room / 2
	st.keys = slices.Grow(st.keys[:0], half*st.l.words)
	st.xs = slices.Grow(st.xs[:0], half*st.nc)
	st.bps = slices.Grow(st.bps[:0], half)
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

// insert adds a state at the empty slot find gave, growing the table.
func (st *states) insert(slot int, key []uint64, x []uint8, bp float64) int {
	i := st.len()
	st.keys = append(st.keys, key...)
	st.xs = append(st.xs, x...)
	st.bps = append(st.bps, bp)
	st.table[slot] = int32(i + 1)
	if 2*st.len() > len(st.table) {
		st.table = make([]int32, 2*len(st.table))
		for k := range st.len() {
			_, j := st.find(st.key(k))
			st.table[j] = int32(k + 1)
		}
	}
	return i
}

// layer is a finished layer of the one-hex search, its dead states
// dropped, in the order they were inserted: packed keys and forces and,
// when cost counts them, build points.
type layer struct {
	words, fwords int
	keys, xs      []uint64
	bps           []float64
}

func (ly *layer) len() int             { return len(ly.xs) / ly.fwords }
func (ly *layer) key(i int) []uint64   { return ly.keys[i*ly.words : (i+1)*ly.words] }
func (ly *layer) force(i int) []uint64 { return ly.xs[i*ly.fwords : (i+1)*ly.fwords] }

func (ly *layer) heldBytes() int { return 8 * (cap(ly.keys) + cap(ly.xs) + cap(ly.bps)) }

// growing is the layer being built, with the search's scratch.
type growing struct {
	states keyTable
	xs     []uint64  // packed forces
	bps    []float64 // build points, when cost counts them
	dead   []bool    // beaten by another state of its group whatever the combat (dominates)
	older  []int32   // the previous state of its group + 1
	// A group's states differ only in their smallest factors (the key's
	// first l.groupBits); groups finds a group, and newest its newest
	// state + 1. Unused when states keep no smallest factors.
	groups keyTable
	newest []int32
	// The key of the state being grown, its group key and force.
	buf, gk []uint64
	gmask   []uint64 // by word of gk: the group's bits
	x       []uint64
}

// reset empties the layer for about room states in about groups groups
// (with build points when byBP), keeping its arrays.
func (g *growing) reset(room, groups int, byBP bool) {
	g.states.reset(room)
	g.groups.reset(groups)
	// Room for the states expected, so the arrays seldom grow (and
	// leave their old copies to the collector) while the layer is built.
	g.states.keys = slices.Grow(g.states.keys, room*g.states.words)
	g.xs = slices.Grow(g.xs[:0], room*len(g.x))
	if byBP {
		g.bps = slices.Grow(g.bps[:0], room)
	}
	g.dead = slices.Grow(g.dead[:0], room)
	g.older, g.newest = g.older[:0], g.newest[:0]
}

func (g *growing) len() int { return len(g.dead) }

func (g *growing) force(i int) []uint64 {
	n := len(g.x)
	return g.xs[i*n : (i+1)*n]
}

func (g *growing) heldBytes() int {
	return g.states.heldBytes() + g.groups.heldBytes() + 8*(cap(g.xs)+cap(g.bps)) + cap(g.dead) + 4*(cap(g.older)+cap(g.newest))
}

// group finds the group of the key in g.buf: its newest state (-1 when
// the group is new or states keep no smallest factors), and where a new
// group goes.
func (g *growing) group(l *layout) (head, gi, gslot int) {
	if l.low == nil {
		return -1, -1, -1
	}
	for w, m := range g.gmask {
		g.gk[w] = g.buf[w] & m
	}
	gi, gslot = g.groups.find(g.gk, g.groups.hash(g.gk))
	if gi < 0 {
		return -1, -1, gslot
	}
	return int(g.newest[gi]) - 1, gi, gslot
}

// insert adds the state in g.buf with force g.x at the empty slot find
// gave, newest in its group.
func (g *growing) insert(l *layout, slot int, bp float64, byBP bool, gi, gslot int) int {
	i := g.states.add(slot, g.buf)
	appendAll(&g.xs, g.x)
	if byBP {
		appendOne(&g.bps, bp)
	}
	appendOne(&g.dead, false)
	if l.low != nil {
		if gi < 0 {
			gi = g.groups.add(gslot, g.gk)
			appendOne(&g.newest, 0)
		}
		appendOne(&g.older, g.newest[gi])
		g.newest[gi] = int32(i + 1)
	}
	return i
}

// bp is state i's build points (0 unless cost counts them).
func (g *growing) bp(i int) float64 {
	if len(g.bps) == 0 {
		return 0
	}
	return g.bps[i]
}

// dominates reports whether force a (build points abp, packed state ak)
// beats force b of the same group whatever the combat: it costs no more,
// is first in enumeration order, and each sum of its j smallest factors is
// at most b's, so its expected factors lost are at most b's for any
// chances of losing j units (which fall as j grows). The frontier would
// list a before b, so b is never needed. Unless cost is counted in build
// points, a is known to come first (stateSearch.run) and the order is
// not compared.
func (l *layout) dominates(byBP bool, abp float64, ax, ak []uint64, bbp float64, bx, bk []uint64) bool {
	if byBP && abp > bbp {
		return false
	}
	return l.fewerLost(ak, bk) && (!byBP || slices.Compare(ax, bx) < 0)
}

// fewerLost reports whether each sum of packed state ak's j smallest
// factors is at most bk's, for states of the same group.
func (l *layout) fewerLost(ak, bk []uint64) bool {
	var sa, sb uint64
	for _, f := range l.low {
		m := uint64(1)<<f.width - 1 // a low field is never empty
		qa, qb := ak[f.w]>>f.at&m, bk[f.w]>>f.at&m
		if qa == l.lowPad || qb == l.lowPad {
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

// beaten reports whether a live state of the group whose newest state is
// head, other than skip, dominates the force x costing bp of state key.
func (g *growing) beaten(l *layout, byBP bool, head int, key, x []uint64, bp float64, skip int) bool {
	if l.low == nil {
		return false // a group is one state
	}
	for o := head; o >= 0; o = int(g.older[o]) - 1 {
		if o == skip || g.dead[o] {
			continue
		}
		// Unless cost counts build points, dominates is fewerLost.
		if !byBP && l.fewerLost(g.states.key(o), key) || byBP && l.dominates(byBP, g.bp(o), g.force(o), g.states.key(o), bp, x, key) {
			return true
		}
	}
	return false
}

// prune marks dead the states of state i's group (whose newest state is
// head) that i dominates.
func (g *growing) prune(l *layout, byBP bool, head, i int) {
	if l.low == nil {
		return
	}
	for o := head; o >= 0; o = int(g.older[o]) - 1 {
		if o != i && !g.dead[o] && l.dominates(byBP, g.bp(i), g.force(i), g.states.key(i), g.bp(o), g.force(o), g.states.key(o)) {
			g.dead[o] = true
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
	fl        *forceLayout
	steps     []packedStep // by class
	next      *growing
	// workers is how many goroutines may build a layer (two at most are
	// used: layersplit.go); other is the second half's layer when one
	// is split.
	workers int
	other   *growing
	// The states of the layer before last and the groups expected in the
	// next layer, for the next layer's room.
	prev, groups int
	// held is the most the search's arrays held at the end of a layer
	// (heldBytes), and peak the most states a layer held, for
	// TestSearchMemoryBound.
	held, peak int
}

var errTooManyStates = errors.New("too many states")

// searchBytes is the most one state of the limit costs a one-hex search,
// and what the search holds whatever the limit: a finished layer (packed
// key, force and build points, each array at most twice as long as it is
// full) and the layer being built (the same, the dead flag and group
// link, at most twice as long), its state slots (at most four a state
// while the slots double, keyTable), and the groups (a key and the newest
// state, twice as long, and as many slots). A layer built in two halves
// holds two such tables, together no more states than the limit
// (stateSearch.splits).
func (ss *stateSearch) searchBytes() (perState, fixed float64) {
	w, fw := ss.l.words, ss.fl.words
	gw := (ss.l.groupBits + 63) / 64
	perState = float64(2*(8*w+8*fw+8) + 2*(8*w+8*fw+8+1+4) + 4*slotBytes + 2*(8*gw+4) + 4*slotBytes)
	// The slots start at 64 a table, whatever the states; a layer split
	// in two has two tables of each (layersplit.go).
	tables := 2
	if ss.workers > 1 {
		tables = 4
	}
	return perState, float64(tables * 64 * slotBytes)
}

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
// (TestStateSearchIsReference). On two workers a large layer is built in
// two halves and merged into the same layer (layersplit.go).
func (ss *stateSearch) run() (*layer, error) {
	cur := ss.start()
	for c := range ss.p.classes {
		if err := ss.ctx.Err(); err != nil {
			return nil, err
		}
		if err := ss.advance(cur, c); err != nil {
			return nil, err
		}
	}
	// What the frontier needs is the last layer: the tables are as large,
	// and would live as long as the search.
	ss.next, ss.other = nil, nil
	return cur, nil
}

// start readies the search and returns its first layer, the base state
// alone.
func (ss *stateSearch) start() *layer {
	l, fl := ss.l, ss.fl
	cur := &layer{words: l.words, fwords: fl.words}
	base := ss.sp.base
	cur.keys = make([]uint64, l.words)
	l.encode(cur.keys, &base)
	cur.xs = make([]uint64, fl.words)
	if ss.byBP {
		cur.bps = []float64{0}
	}
	ss.steps = newSteps(ss.sp, l)
	ss.next = ss.newGrowing()
	ss.groups, ss.prev = 1, 0
	return cur
}

// newGrowing is an empty layer to build, with its scratch.
func (ss *stateSearch) newGrowing() *growing {
	l := ss.l
	gw := (l.groupBits + 63) / 64
	ones := make([]uint64, gw)
	for w := range ones {
		ones[w] = ^uint64(0)
	}
	return &growing{states: newKeyTable(l.words, 64*l.words), groups: newKeyTable(gw, l.groupBits),
		buf: make([]uint64, l.words), gk: make([]uint64, gw), gmask: masked(nil, ones, l.groupBits), x: make([]uint64, ss.fl.words)}
}

// advance replaces layer cur by the layer class c grows from it.
func (ss *stateSearch) advance(cur *layer, c int) error {
	// A layer grows about as the one before did, and by at most twice
	// when the classes are single units; a table that fills up doubles.
	n := cur.len()
	room := n + n/8
	if ss.prev > 0 {
		room = max(room, n*n/ss.prev+n/16)
	}
	room = max(1, min(room, 2*n, ss.maxStates))
	ss.groups = min(ss.groups*room/n+1, room)
	ss.prev = n
	if ss.splits(n, c) {
		return ss.advanceSplit(cur, c, room)
	}
	// A second half's arrays are not held past the layers that need them.
	ss.other = nil
	ss.next.reset(room, ss.groups, ss.byBP)
	if err := ss.build(ss.next, cur, c, 0, n); err != nil {
		return err
	}
	ss.groups = ss.next.groups.len()
	ss.peak = max(ss.peak, ss.next.len())
	// The layer being built holds all the layer before led to: the new
	// layer takes its arrays.
	ss.merge(cur)
	ss.held = max(ss.held, cur.heldBytes()+ss.next.heldBytes())
	return nil
}

// build grows layer g from states lo to hi of layer cur by class c.
func (ss *stateSearch) build(g *growing, cur *layer, c, lo, hi int) error {
	l := ss.l
	cl := &ss.p.classes[c]
	f := ss.fl.fields[c]
	step := &ss.steps[c]
	for i := lo; i < hi; i++ {
		copyWords(g.buf, cur.key(i))
		copyWords(g.x, cur.force(i))
		var ebp float64
		if ss.byBP {
			ebp = cur.bps[i]
		}
		// At most one HQ a target (sp.room: a second adds nothing).
		top := min(len(cl.items), ss.limit-l.sizeOf(g.buf), l.room(g.buf, step))
		for k := 0; k <= top; k++ {
			if k > 0 {
				// The layer before sends none of this class.
				l.step(g.buf, step)
				f.set(g.x, uint64(k))
			}
			if err := ss.offer(g, ebp+cl.prefix[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// offer records the force g.x (costing bp) reaching the state in g.buf,
// keeping the preferred force of the state, or fails when the states
// outgrow the limit.
func (ss *stateSearch) offer(g *growing, bp float64) error {
	l := ss.l
	j, slot := g.states.find(g.buf, g.states.hash(g.buf))
	if j >= 0 {
		// Unless cost counts build points, the first force reaching a
		// state is the one preferred (see run).
		if ss.byBP && ss.prefer(bp, g.x, g.bps[j], g.force(j)) {
			g.bps[j] = bp
			copy(g.force(j), g.x)
			head, _, _ := g.group(l)
			// A better force may bring a beaten state back.
			if g.dead[j] && !g.beaten(l, ss.byBP, head, g.buf, g.x, bp, j) {
				g.dead[j] = false
			}
			if !g.dead[j] {
				g.prune(l, ss.byBP, head, j)
			}
		}
		return nil
	}
	head, gi, gslot := g.group(l)
	if g.beaten(l, ss.byBP, head, g.buf, g.x, bp, -1) {
		return nil
	}
	if g.len() >= ss.maxStates {
		return errTooManyStates
	}
	i := g.insert(l, slot, bp, ss.byBP, gi, gslot)
	if ss.byBP {
		g.prune(l, ss.byBP, i, i)
	}
	return nil
}

// merge writes the live states of the layer built into dst, in order.
func (ss *stateSearch) merge(dst *layer) {
	g := ss.next
	kept := 0
	for _, dead := range g.dead {
		if !dead {
			kept++
		}
	}
	// Filled in place and stored once: storing a slice into the heap on
	// every append pays the collector's write barrier while it marks.
	keys, xs := layerRoom(dst, kept)
	copyKept(keys, xs, g)
	dst.keys, dst.xs = keys, xs
	if ss.byBP {
		bps := slices.Grow(dst.bps[:0], kept)
		for i, dead := range g.dead {
			if !dead {
				bps = append(bps, g.bps[i])
			}
		}
		dst.bps = bps
	}
}

// layerRoom is dst's arrays, reused when they can hold n states, as long
// as n states.
func layerRoom(dst *layer, n int) (keys, xs []uint64) {
	keys = slices.Grow(dst.keys[:0], n*dst.words)[:n*dst.words]
	xs = slices.Grow(dst.xs[:0], n*dst.fwords)[:n*dst.fwords]
	return keys, xs
}

// copyKept copies the states of b not dead into keys and xs, in order.
func copyKept(keys, xs []uint64, b *growing) {
	w, fw := b.states.words, len(b.x)
	k := 0
	for i, dead := range b.dead {
		if !dead {
			copyWords(keys[k*w:(k+1)*w], b.states.key(i))
			copyWords(xs[k*fw:(k+1)*fw], b.force(i))
			k++
		}
	}
}

// prefer reports whether the force x, costing bp, is preferred to force y
// costing ybp: both reach the same state and send none of the classes
// still to come, so only build points and the order remain.
func (ss *stateSearch) prefer(bp float64, x []uint64, ybp float64, y []uint64) bool {
	if ss.byBP && !near(bp, ybp, costTol) {
		return bp < ybp
	}
	return slices.Compare(x, y) < 0
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
