package plan

import "slices"

// Searching the scan's combinations ahead of it (levelForces): a worker
// with no point's forces to find yet searches the next combination the
// scan has not reached, against the scan's least cost m at that moment,
// and the scan takes the result when it gets there. The scan's m only
// falls, so the worker searched against an m no lower than the scan's
// own: the branch and bound finds a combination's least cost whenever it
// is below the m it is given, so when the scan's m is above that least
// cost the worker found it; when the worker found none, or one no cheaper
// than the scan's m, neither would the scan. (Up to costTol: a search
// settles on a cost within costTol of the best it can improve on, so
// costs less than 2 costTol apart could be told apart by the scan and
// not by a search ahead; committed costs are sums of units' whole
// amounts, never that close.) The points, and what the scan counts
// (Solved, Skip), are the scan's own on any number of workers; only the
// nodes differ (AheadNodes).

// aheadResult is a combination searched ahead: whether the search ended
// (or was cancelled), and the least cost it found with its assignment.
type aheadResult struct {
	done, found, stopped bool
	cost                 float64
	x                    []uint8
	nodes                int64
}

// aheadWindow bounds how far ahead of the scan the workers search: the
// further ahead, the higher the m they search against and the more of
// their results the scan skips.
const aheadWindow = 64

// aheadState is the scan's progress as the workers see it: the
// combination it is at, its m, the next combination a worker may take,
// and the results by combination (nil: searching ahead is off).
type aheadState struct {
	at    int
	m     float64
	taken int
	ahead map[int]*aheadResult
	spare []uint8 // the scan's scratch assignment while it searches ahead
}

// claim tells fp's workers the scan (search ls) is at combination n with
// least cost ls.m, and returns the search of n a worker made, waiting for
// it to end (and meanwhile searching further ahead with ls), or nil when
// the scan must search n itself.
func claim(fp *forcePipe, ls *levelSearch, n int) *aheadResult {
	if !parallelBuild || fp == nil {
		return nil
	}
	m := ls.m
	fp.mu.Lock()
	defer fp.mu.Unlock()
	if fp.ahead == nil {
		return nil
	}
	fp.at, fp.m = n, m
	fp.cond.Broadcast() // the window moved
	a, ok := fp.ahead[n]
	if !ok {
		fp.taken = max(fp.taken, n+1)
		return nil
	}
	best := ls.best
	for !a.done {
		// Another combination ahead meanwhile, with scratch for its
		// assignment: the scan's own, and its m, are kept.
		ls.best = fp.spare
		helped := fp.help(ls)
		fp.spare, ls.best, ls.m = ls.best, best, m
		if !helped {
			fp.cond.Wait()
		}
	}
	delete(fp.ahead, n)
	return a
}

// help searches one combination ahead of the scan with ls (under fp.mu,
// released while searching), reporting whether there was one to search.
func (fp *forcePipe) help(ls *levelSearch) bool {
	if fp.ahead == nil || fp.at == 0 && fp.m == 0 {
		return false // searching ahead is off, or the scan has not begun
	}
	list := fp.r.list
	n := max(fp.taken, fp.at+1)
	for n < len(list) && n <= fp.at+aheadWindow && list[n].lb >= fp.m-costTol {
		n++ // skipped by the scan too: its m only falls
	}
	if n >= len(list) || n > fp.at+aheadWindow {
		return false
	}
	fp.taken = n + 1
	a := &aheadResult{}
	fp.ahead[n] = a
	m := fp.m
	fp.mu.Unlock()
	before := ls.nodes
	ok := ls.solve(list[n].code, fp.r.levels, m)
	fp.mu.Lock()
	a.done, a.found, a.stopped, a.cost, a.nodes = true, ok, ls.stopped, ls.m, ls.nodes-before
	ls.nodes = before // the scan's nodes, not the forces'
	if ok {
		a.x = slices.Clone(ls.best)
	}
	fp.cond.Broadcast()
	return true
}
