package plan

import "sort"

// Tolerances for comparing figures that different forces reach by
// different sums: values closer than these are equal, so rounding never
// puts two forces that do the same on the frontier.
const (
	valueTol = 1e-12
	costTol  = 1e-9
)

// candidate is one force as the frontier sees it.
type candidate struct {
	cost  float64 // what it costs (down is better)
	value float64 // P(hex taken), or expected hexes taken on a front (up is better)
	tie   float64 // expected attacking factors lost: breaks ties (down is better)
	size  int     // items sent: breaks remaining ties (fewer is better)
	seq   int     // the order forces were weighed: the last tie-break, so the result is deterministic
	ref   int     // the caller's handle on the force
}

// better reports whether a is preferred to b at the same cost and value.
func (a *candidate) better(b *candidate) bool {
	if a.tie != b.tie && !near(a.tie, b.tie, costTol) {
		return a.tie < b.tie
	}
	if a.size != b.size {
		return a.size < b.size
	}
	return a.seq < b.seq
}

// dominates reports whether a is at least as good as b in cost and value
// and better in one of them or, equal in both, better by the tie-breaks.
func (a *candidate) dominates(b *candidate) bool {
	cheaper := a.cost < b.cost-costTol
	sameCost := near(a.cost, b.cost, costTol)
	higher := a.value > b.value+valueTol
	sameValue := near(a.value, b.value, valueTol)
	switch {
	case !(cheaper || sameCost) || !(higher || sameValue):
		return false
	case cheaper || higher:
		return true
	}
	return a.better(b)
}

func near(a, b, tol float64) bool { return a-b <= tol && b-a <= tol }

// frontier is the Pareto frontier of the candidates seen so far, cheapest
// first; along it the value rises strictly. Adding a candidate costs a
// binary search when it is dominated, which most are.
type frontier struct {
	points []candidate
}

// add offers a candidate to the frontier and reports whether it joined it.
func (f *frontier) add(c candidate) bool {
	// The first point costing more than c (beyond the tolerance).
	i := sort.Search(len(f.points), func(i int) bool { return f.points[i].cost > c.cost+costTol })
	// A point costing no more than c, which is the best such, dominates it
	// or nothing before i does.
	if i > 0 && f.points[i-1].dominates(&c) {
		return false
	}
	// Remove the points c dominates: they cost as much or more and are worth
	// no more, so they follow c's place.
	j := i - 1
	for j >= 0 && c.dominates(&f.points[j]) {
		j--
	}
	k := i
	for k < len(f.points) && c.dominates(&f.points[k]) {
		k++
	}
	// Points j+1..k-1 are dominated; c takes their place.
	f.points = append(f.points[:j+1], append([]candidate{c}, f.points[k:]...)...)
	return true
}
