package combat

import (
	"context"
	"errors"
	"fmt"

	"github.com/wifodds/wifodds/sim"
)

// CampaignExact is the exact distribution of a campaign's packed totals,
// worked out over the Markov chain by dynamic programming: after each raid,
// the probability of every (state, totals so far). It reports the table
// paths it weighed (each pair's state's paths, each raid), and stops with
// an error wrapping sim.ErrBudget past budget of them, or wrapping ctx's
// error when ctx is cancelled.
//
// A state's table is weighed by its distinct moves (next state and totals
// added, with how many paths make each) rather than path by path, and the
// pairs are kept in an open-addressing table of packed keys in the order
// they first arise, so the sums are made in the same order every run.
func (r *Raid) CampaignExact(ctx context.Context, raids, budget int) (map[uint64]float64, int, error) {
	w, err := r.walkChain(ctx, raids, budget)
	if err != nil {
		return nil, 0, err
	}
	cur, err := w.pairs(raids, true)
	if err != nil {
		return nil, w.weighed, err
	}
	out := make(map[uint64]float64, len(cur.pairs))
	for _, q := range cur.pairs {
		out[q.key] = q.p
	}
	return out, w.weighed, nil
}

// CampaignMarginals are the exact distributions of a campaign's totals,
// metric by metric (RaidMetrics' order): [k][v] is P(metric k totals v),
// for v up to a bound on the most it can total.
type CampaignMarginals [len(RaidMetrics)][]float64

// CampaignMarginals is each metric's exact distribution over the campaign:
// what a summary reports (a campaign's summary reads no figure that joins
// two metrics). It weighs the same paths as CampaignExact, under the same
// budget and ctx, and is its distribution's marginals; but the last raid
// adds each metric to the pairs before it on its own, so it never forms
// the last raid's joint totals, which outnumber the pairs before them
// several times (2,435 against 618 for three night raids;
// docs/performance.md).
func (r *Raid) CampaignMarginals(ctx context.Context, raids, budget int) (CampaignMarginals, int, error) {
	var out CampaignMarginals
	if raids < 1 {
		return out, 0, fmt.Errorf("a campaign of %d raids: want at least 1", raids)
	}
	w, err := r.walkChain(ctx, raids, budget)
	if err != nil {
		return out, 0, err
	}
	cur, err := w.pairs(raids-1, false)
	if err != nil {
		return out, w.weighed, err
	}
	// Each array runs to the most a pair's total plus one raid from its
	// state can reach.
	var top [len(RaidMetrics)]int
	for _, q := range cur.pairs {
		adds := w.metricMoves(q.s)
		for k := range top {
			top[k] = max(top[k], campaignField(q.key, k)+adds[k][len(adds[k])-1].add)
		}
	}
	for k := range out {
		out[k] = make([]float64, top[k]+1)
	}
	for _, q := range cur.pairs {
		if _, err := w.weigh(q.s); err != nil {
			return out, w.weighed, err
		}
		adds := w.metricMoves(q.s)
		for k := range out {
			dist, base := out[k], campaignField(q.key, k)
			for _, m := range adds[k] {
				dist[base+m.add] += q.p * m.p
			}
		}
	}
	return out, w.weighed, nil
}

// chainWalk is the dynamic programme's walk over a campaign's chain: each
// state's distinct moves, worked out when first needed, and the dice
// paths weighed so far against the budget.
type chainWalk struct {
	ctx      context.Context
	ch       []ChainState
	moves    [][]chainMove
	byMetric [][len(RaidMetrics)][]metricMove
	budget   int
	weighed  int
}

func (r *Raid) walkChain(ctx context.Context, raids, budget int) (*chainWalk, error) {
	ch := r.Chain(raids)
	if ch == nil {
		return nil, errors.New("a raid of this campaign is too large to tabulate; sample it")
	}
	return &chainWalk{ctx: ctx, ch: ch, moves: make([][]chainMove, len(ch)),
		byMetric: make([][len(RaidMetrics)][]metricMove, len(ch)), budget: budget}, nil
}

// weigh charges the budget for one raid from state s: its table's paths.
// It reports whether a raid is flown from s at all (none is once the
// bombers are gone or the campaign's raids are flown).
func (w *chainWalk) weigh(s int32) (bool, error) {
	cs := &w.ch[s]
	if cs.Flat == nil {
		return false, nil
	}
	n := cs.Flat.Paths()
	if w.weighed/sim.CheckEvery != (w.weighed+n)/sim.CheckEvery {
		if err := w.ctx.Err(); err != nil {
			return true, fmt.Errorf("the exact campaign stopped after %d paths: %w", w.weighed, err)
		}
	}
	w.weighed += n
	if w.weighed > w.budget {
		return true, fmt.Errorf("%w: the campaign weighs more than %d dice paths", sim.ErrBudget, w.budget)
	}
	return true, nil
}

// pairs is the distribution of (state, totals) after raids raids. With
// merge, the last raid puts every pair in state 0, so pairs with the same
// totals merge at once: for a caller that needs only the totals.
func (w *chainWalk) pairs(raids int, merge bool) (*chainDist, error) {
	cur, next := &chainDist{}, &chainDist{}
	cur.add(0, 0, 1)
	for raid := range raids {
		next.reset()
		last := int32(1)
		if merge && raid == raids-1 {
			last = 0
		}
		for _, q := range cur.pairs {
			flown, err := w.weigh(q.s)
			if err != nil {
				return nil, err
			}
			if !flown {
				next.add(q.s*last, q.key, q.p)
				continue
			}
			if w.moves[q.s] == nil {
				w.moves[q.s] = w.ch[q.s].moves()
			}
			for _, m := range w.moves[q.s] {
				next.add(m.next*last, q.key+m.add, q.p*m.p)
			}
		}
		cur, next = next, cur
	}
	return cur, nil
}

// chainMove is one distinct move from a chain state: the next state, the
// packed totals one raid adds, and the share of the table's paths that
// make it.
type chainMove struct {
	next int32
	add  uint64
	p    float64
}

// moves collapses the state's table to its distinct moves, in the order
// the table first gives them: outcomes counted by paths, then outcomes
// with the same next state and totals merged.
func (cs *ChainState) moves() []chainMove {
	counts := cs.pathCounts()
	var ms []chainMove
	var paths []int
	for o, c := range counts {
		if c == 0 {
			continue
		}
		k := 0
		for k < len(ms) && (ms[k].next != cs.Next[o] || ms[k].add != cs.Add[o]) {
			k++
		}
		if k == len(ms) {
			ms = append(ms, chainMove{next: cs.Next[o], add: cs.Add[o]})
			paths = append(paths, 0)
		}
		paths[k] += c
	}
	n := float64(cs.Flat.Paths())
	for k := range ms {
		ms[k].p = float64(paths[k]) / n
	}
	return ms
}

// pathCounts is how many of the state's table paths give each outcome.
func (cs *ChainState) pathCounts() []int {
	counts := make([]int, len(cs.Next))
	for i := range cs.Flat.Paths() {
		counts[cs.Flat.Outcome(i)]++
	}
	return counts
}

// metricMove is what one raid adds to one metric's total and the share of
// the table's paths that add it.
type metricMove struct {
	add int
	p   float64
}

// metricMoves is, metric by metric, what one raid from state s adds and
// with what probability, ascending, whatever state it leads to: the last
// raid's moves when only each metric's total matters. From a state no
// raid is flown from, each metric adds 0 for sure.
func (w *chainWalk) metricMoves(s int32) *[len(RaidMetrics)][]metricMove {
	out := &w.byMetric[s]
	cs := &w.ch[s]
	if out[0] != nil {
		return out
	}
	if cs.Flat == nil {
		for k := range out {
			out[k] = []metricMove{{0, 1}}
		}
		return out
	}
	counts := cs.pathCounts()
	n := float64(cs.Flat.Paths())
	for k := range out {
		var paths []int // by value added
		for o, c := range counts {
			if c == 0 {
				continue
			}
			v := campaignField(cs.Add[o], k)
			for len(paths) <= v {
				paths = append(paths, 0)
			}
			paths[v] += c
		}
		for v, c := range paths {
			if c > 0 {
				out[k] = append(out[k], metricMove{v, float64(c) / n})
			}
		}
	}
	return out
}

// chainDist is a distribution over (chain state, packed totals) pairs: the
// pairs in the order they were first added, and an open-addressing table
// of their positions (position+1; 0 marks an empty slot), so a lookup
// hashes two words rather than a struct through a Go map.
type chainDist struct {
	pairs []chainPair
	slots []int32
}

// chainPair is a (state, totals) pair and its probability.
type chainPair struct {
	key uint64
	s   int32
	p   float64
}

// reset empties d, keeping its room.
func (d *chainDist) reset() {
	d.pairs = d.pairs[:0]
	clear(d.slots)
}

func slot(s int32, key uint64, mask uint64) uint64 {
	return (key ^ uint64(s)*0xff51afd7ed558ccd) * 0x9e3779b97f4a7c15 >> 32 & mask
}

// add adds p to the pair (s, key).
func (d *chainDist) add(s int32, key uint64, p float64) {
	if 2*(len(d.pairs)+1) > len(d.slots) {
		d.grow()
	}
	mask := uint64(len(d.slots) - 1)
	for i := slot(s, key, mask); ; i = (i + 1) & mask {
		e := d.slots[i] - 1
		if e < 0 {
			d.slots[i] = int32(len(d.pairs) + 1)
			d.pairs = append(d.pairs, chainPair{key, s, p})
			return
		}
		if q := &d.pairs[e]; q.key == key && q.s == s {
			q.p += p
			return
		}
	}
}

// grow doubles the table and places every pair again.
func (d *chainDist) grow() {
	size := max(1024, 2*len(d.slots))
	d.slots = make([]int32, size)
	mask := uint64(size - 1)
	for e, q := range d.pairs {
		i := slot(q.s, q.key, mask)
		for d.slots[i] != 0 {
			i = (i + 1) & mask
		}
		d.slots[i] = int32(e + 1)
	}
}
