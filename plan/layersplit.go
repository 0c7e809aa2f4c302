package plan

import (
	"cmp"
	"sync"
)

// On two workers a large layer of the one-hex search is built in two
// halves: one goroutine grows the first half of the layer before into
// its own table, another the second half into another, and the two are
// merged into exactly the layer one goroutine builds (TestSplitLayerIsOne).
//
// Why the merge is exact. Unless cost counts build points no state is
// ever marked dead, and one goroutine keeps a state K, with the force of
// its first offer, if and only if no state offered before K's first offer
// beats K (fewerLost: a partial order, so a state beaten by one that was
// itself beaten is beaten by the state that beat that one, which was
// kept). So the first half's table is one goroutine's layer at the
// half-way point, in its order, and the second half's table holds each
// state first offered in the second half that no earlier state of that
// half beats, in first-offer order. Of those the layer keeps the ones
// neither in the first half's table nor beaten by a state in it (any
// state offered in the first half and beaten there is beaten by one
// kept), after the first half's, in the second half's order. Deciding
// that only reads the first half's table, so the two goroutines decide
// half of the second half's states each.
//
// When cost counts build points a preferred force can replace another,
// states die and come back, and build points compare within a tolerance
// (not a total order), so the order of the offers decides more than this
// merge can redo: those layers stay on one goroutine.

// splitLayerMin is the fewest states a layer must have to be split.
// Layers this large hold 87% of the states the 40- and 60-unit
// benchmarks' searches grow from (97% from 8,192 up), but splitting from
// 8,192 measured slower on plan-hex-40 with two cores free (0.22 s
// against 0.205 s, 13% more CPU): a small layer's tables sit in the
// caches, and two goroutines sharing them gain less than they cost.
// Tests lower it so that small plans take the split path.
var splitLayerMin = 32768

// splits reports whether the layer class c grows from a layer of n states
// is built in two halves. Each state sends at most as many items as the
// class has, so the two halves' tables hold at most n times that plus
// one states: kept within the limit, the two tables together hold no
// more than the one table the memory check counts, and neither half can
// outgrow the limit (nor can the merged layer, which one goroutine would
// then refuse: the layers of a limit reached are built on one).
func (ss *stateSearch) splits(n, c int) bool {
	return parallelBuild && ss.workers > 1 && !ss.byBP && n >= splitLayerMin && n*(1+len(ss.p.classes[c].items)) <= ss.maxStates
}

// advanceSplit replaces layer cur by the layer class c grows from it,
// built in two halves on two goroutines; room is the states expected.
func (ss *stateSearch) advanceSplit(cur *layer, c, room int) error {
	n := cur.len()
	h := n / 2
	if ss.other == nil {
		ss.other = ss.newGrowing()
	}
	a, b := ss.next, ss.other
	// Each half reaches about half the layer's states and some of the
	// other half's, at most its offers (splits); and more than half its
	// groups (on plan-hex-60 each half holds about 55% of them), which
	// fit in the room of the half's states.
	most := 1 + len(ss.p.classes[c].items)
	half := room/2 + room/16
	ra, rb := min(half, h*most), min(half, (n-h)*most)
	groups := ss.groups/2 + ss.groups/8 + 1
	a.reset(ra, min(groups, ra), false)
	b.reset(rb, min(groups, rb), false)
	var errB error
	var wg sync.WaitGroup
	wg.Go(func() { errB = ss.build(b, cur, c, h, n) })
	errA := ss.build(a, cur, c, 0, h)
	wg.Wait()
	if err := cmp.Or(errA, errB); err != nil {
		return err
	}
	// The second half's groups (its states where states keep no
	// smallest factors) are judged half by each goroutine, then each
	// copies a half's states into the layer.
	m := b.groups.len()
	if ss.l.low == nil {
		m = b.len()
	}
	var droppedB int
	wg.Go(func() { droppedB = ss.judge(a, b, m/2, m) })
	dropped := ss.judge(a, b, 0, m/2)
	wg.Wait()
	kept := b.len() - dropped - droppedB
	ss.groups = a.groups.len() + b.groups.len()
	ss.peak = max(ss.peak, a.len()+kept)
	keys, xs := layerRoom(cur, a.len()+kept)
	na := a.len()
	wg.Go(func() { copyKept(keys[na*cur.words:], xs[na*cur.fwords:], b) })
	copy(keys, a.states.keys)
	copy(xs, a.xs)
	wg.Wait()
	cur.keys, cur.xs = keys, xs
	ss.held = max(ss.held, cur.heldBytes()+a.heldBytes()+b.heldBytes())
	return nil
}

// judge marks dead the states of the second half's table b that the
// layer does not keep, those in the first half's table a or beaten by a
// state of it, in b's groups lo to hi (its states lo to hi when states
// keep no smallest factors: then a group is one state). It returns how
// many it marks. It writes only those states' flags and only reads a, so
// two goroutines judge at once.
func (ss *stateSearch) judge(a, b *growing, lo, hi int) int {
	l := ss.l
	dropped := 0
	if l.low == nil {
		for i := lo; i < hi; i++ {
			key := b.states.key(i)
			if j, _ := a.states.find(key, a.states.hash(key)); j >= 0 {
				b.dead[i] = true
				dropped++
			}
		}
		return dropped
	}
	for gi := lo; gi < hi; gi++ {
		gk := b.groups.key(gi)
		ag, _ := a.groups.find(gk, a.groups.hash(gk))
		if ag < 0 {
			continue // a has no state of the group: none to find or to beat it
		}
		head := int(a.newest[ag]) - 1
		for o := int(b.newest[gi]) - 1; o >= 0; o = int(b.older[o]) - 1 {
			// A state beats itself (fewerLost), so the walk finds the
			// states a holds as well as those it beats.
			if a.beaten(l, false, head, b.states.key(o), nil, 0, -1) {
				b.dead[o] = true
				dropped++
			}
		}
	}
	return dropped
}
