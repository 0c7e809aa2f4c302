package plan

// A priced bound (docs/planner.md, "Deciding hexes"): the plain bound
// lets each hex take every item still to come, so hexes that each reach
// their level with the same units pass it together, and the searches
// then spend most of their nodes proving that they cannot all be served
// (4x24: the 108 combinations worth more than the frontier's top point,
// and most nodes of that point's forces). What the hexes compete for is
// mostly one nationality's factors: a force of one nationality avoids
// the modifier for each nationality past the first (docs/rules.md §2.1),
// so every hex's cheapest forces draw on the same nationality, and four
// hexes together want more of its factors than there are.
//
// Price those factors at lambda each. Let g be the contested factors an
// item sends (0 for another nationality, and for support) and G(pos)
// those of every item of the classes from layer pos on. Any completion
// from layer pos costs C = sum over hexes of c_t, its hexes' items are
// disjoint, so the g they send, sum of g_t, is at most G(pos), and
//
//	C = sum (c_t + lambda g_t) - lambda sum g_t >= sum needP_t - lambda G(pos)
//
// where needP_t, hex t's priced need, is the least c + lambda g of a
// completion bringing hex t to its level: its staircases built with k
// items of class c costing add[c][k] plus lambda times their g. So the
// node's cost plus that is a lower bound on what any completion costs,
// for any lambda >= 0, and a node whose priced bound passes the cost to
// beat is dropped as one whose plain bound does. Neither bound implies
// the other: a node is dropped when either passes.
//
// The items of a class send the same factors of the same nationality
// (one class: one combatant); should one class hold items that differ,
// each is priced at the least of them, which keeps the argument.

// priceLambda is lambda: measured from 1 to 16 on 4x24, 8 and 16 search
// alike and fewest (0.78 s on two workers; 1.13 s at 2, 1.36 s at 1, 1.87 s
// unpriced; docs/performance.md); any value gives the same answers.
const priceLambda = 16

// priceFronts: fronts are priced where it tightens the bound (tests turn
// it off to compare).
var priceFronts = true

// priceProbe is how many of the combinations the scan would search first
// the priced bound must raise for the front to be priced.
const priceProbe = 256

// price gives ls the priced bound, when the front's units are of more
// than one nationality and the bound raises the root's bound of some of
// the first combinations the scan searches (list, by value); a front it
// does not tighten is left unpriced, so its searches do not read a
// second table for nothing. A front whose priced staircases, or the
// tables kept from them, would pass the bound's memory with the plain
// staircases is left unpriced too: the plain bound is as exact.
func (ls *levelSearch) price(fb *frontBound, levels [][]float64, list []levelCombo) error {
	p := ls.fs.p
	nation := contested(p)
	if nation == "" || !priceFronts {
		return nil
	}
	g := make([]float64, ls.nc)
	for c, cl := range p.classes {
		for k, i := range cl.items {
			it := p.items[i]
			f := 0.0
			if it.Unit != nil && it.Unit.Nation == nation {
				f = it.Factors
			}
			if k == 0 || f < g[c] {
				g[c] = f
			}
		}
	}
	rest := make([]float64, ls.nc+1)
	for pos := ls.nc - 1; pos >= 0; pos-- {
		c := ls.fs.order[pos]
		rest[pos] = rest[pos+1] + priceLambda*g[c]*float64(len(p.classes[c].items))
	}
	add := make([][]float64, ls.nc)
	for c := range add {
		add[c] = make([]float64, len(ls.add[c]))
		for k := range add[c] {
			add[c][k] = ls.add[c][k] + priceLambda*g[c]*float64(k)
		}
	}
	// The priced staircases are dropped once read; their tables are kept
	// and counted against the bound's memory with the plain staircases.
	priced := make([][]float64, ls.nt)
	base, kept := fb.bytes, 0
	defer func() { fb.bytes = base + kept }()
	for t, h := range ls.hexes {
		if err := ls.fs.ctx.Err(); err != nil {
			return err
		}
		fb.bytes = base + kept
		stairs, err := fb.staircases(h, add)
		if err == errBoundTooLarge {
			kept = 0
			return nil
		}
		if err != nil {
			kept = 0
			return err
		}
		priced[t] = ls.needTable(t, stairs, levels[t])
		if kept += 8 * len(priced[t]); base+kept > boundMemory {
			kept = 0
			return nil
		}
	}
	ls.priced, ls.pricedRest = priced, rest
	// Keep it only if it raises the root's bound somewhere the scan looks.
	top, n := ls.above(), 0
	for _, cb := range list {
		if cb.lb >= top {
			continue // skipped by the scan: above every unit sent
		}
		ls.setLevels(cb.code, levels)
		if ls.pricedBound(0, ls.root, 0) > cb.lb+costTol {
			return nil
		}
		if n++; n == priceProbe {
			break
		}
	}
	ls.priced, ls.pricedRest, kept = nil, nil, 0
	return nil
}

// pricedBound is the priced bound of the node at layer pos whose hexes'
// states are idx, costing cost so far.
func (ls *levelSearch) pricedBound(pos int, idx []int32, cost float64) float64 {
	b := cost - ls.pricedRest[pos]
	for t := range ls.nt {
		b += ls.priced[t][ls.slot(t, pos, idx[t])]
	}
	return b
}

// contested is the nationality whose units send the most factors among
// p's items (the first code of those tied), or "" when every unit is of
// one nationality: pricing it then tightens nothing.
func contested(p *pool) string {
	// A front has a few nationalities: a list, not a map.
	var nations []string
	var factors []float64
	for _, it := range p.items {
		if it.Unit == nil {
			continue
		}
		k := 0
		for k < len(nations) && nations[k] != it.Unit.Nation {
			k++
		}
		if k == len(nations) {
			nations, factors = append(nations, it.Unit.Nation), append(factors, 0)
		}
		factors[k] += it.Factors
	}
	if len(nations) < 2 {
		return ""
	}
	best := 0
	for k := range nations {
		if factors[k] > factors[best] || factors[k] == factors[best] && nations[k] < nations[best] {
			best = k
		}
	}
	return nations[best]
}
