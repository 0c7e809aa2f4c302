package combat

import (
	"math"

	"github.com/wifodds/wifodds/sim"
)

// Resolve is the resolution routine: it rolls the dice a combat consumes, in
// the order docs/scenario-format.md fixes (the fractional-odds die, then ground strikes,
// then AA fire at the ground support, then the CRT roll, the attacker's
// before the defender's under wild results), and returns the index of the
// outcome in c.Outcomes.
//
// It is generic so the Monte Carlo engine's Stream is called directly, with
// no interface dispatch on the hot path; replay and exact enumeration use
// the same code with other Dice.
func Resolve[D sim.Dice](c *Combat, d D) int {
	var v *AtOdds
	if p := c.pre; p != nil {
		st, branch := preState(p, d)
		v = &p.states[st].AtOdds[branch]
	} else {
		v = &c.AtOdds[0]
		if f := c.Fraction; f.Chance > 0 && d.Roll(f.Sides) <= f.Chance {
			v = &c.AtOdds[1]
		}
	}
	return crtRoll(c, v, d)
}

// preState runs the pre-combat random steps on d: the index of the state
// they leave (in p.states) and which of its odds levels applies (1 after a
// successful fractional-odds roll).
func preState[D sim.Dice](p *preCombat, d D) (state, branch int) {
	fd := 0
	if p.fracSides > 0 {
		fd = d.Roll(p.fracSides)
	}
	mask := 0
	for _, f := range p.strikes {
		if 2*float64(d.Roll(6)) <= f {
			for _, k := range p.strikeOrder {
				if mask&(1<<k) == 0 {
					mask |= 1 << k
					break
				}
			}
		}
	}
	for _, f := range p.ships {
		for k := range p.targets {
			if 2*float64(d.Roll(6)) <= f {
				mask |= 1 << k
			}
		}
	}
	air := 0
	if p.aaDice > 0 {
		code, place := 0, 1
		for range p.aaDice {
			code += (d.Roll(6) - 1) * place
			place *= 6
		}
		air = int(p.airOf[code])
	}
	state = mask*len(p.airs) + air
	if f := p.states[state].Fraction; f.Chance > 0 && fd <= f.Chance {
		return state, 1
	}
	return state, 0
}

// crtRoll rolls the CRT dice at odds level v and returns the outcome.
func crtRoll[D sim.Dice](c *Combat, v *AtOdds, d D) int {
	if v.auto >= 0 {
		return int(v.auto)
	}
	// A side's roll is one or two d6; under wild results the attacker's
	// comes first and picks the row of a stride-wide cell table.
	dice, sides := 1, 1
	if c.twoDice {
		dice = 2
	}
	if c.wild {
		sides = 2
	}
	at := 0
	for range sides {
		roll := 0
		for range dice {
			roll += d.Roll(6)
		}
		at = at*stride + roll
	}
	return int(v.cells[at])
}

// resolveStream is Resolve for a combat with no pre-combat steps on the
// engine's Stream, spelled out without type parameters: generic code calls
// a type argument's methods through a dictionary, an indirect call per
// roll, where here each Roll is a direct call the compiler inlines. It
// rolls the same dice in the same order as Resolve, so it returns the same
// outcome on the same stream (a test checks it on every example).
func resolveStream(c *Combat, d sim.Stream) int {
	v := &c.AtOdds[0]
	if c.Fraction.Chance > 0 && d.Roll(c.Fraction.Sides) <= c.Fraction.Chance {
		v = &c.AtOdds[1]
	}
	if v.auto >= 0 {
		return int(v.auto)
	}
	// crtRoll's dice, spelled out: straight-line code is a third faster
	// than its loops here.
	a := d.Roll(6)
	if c.twoDice {
		a += d.Roll(6)
	}
	if !c.wild {
		return int(v.cells[a])
	}
	b := d.Roll(6)
	if c.twoDice {
		b += d.Roll(6)
	}
	return int(v.cells[a*stride+b])
}

// NumOutcomes is the number of distinct outcomes (sim.Model).
func (c *Combat) NumOutcomes() int { return len(c.Outcomes) }

// Resolve runs one trial on d (sim.Model): Resolve(c, d).
func (c *Combat) Resolve(d sim.Dice) int { return Resolve(c, d) }

// Trial runs one trial on the engine's stream (sim.Model): what
// Resolve(c, d) returns, by resolveStream when the combat has no
// pre-combat steps.
func (c *Combat) Trial(d sim.Stream) int {
	if c.pre == nil {
		return resolveStream(c, d)
	}
	return Resolve(c, d)
}

// Trials runs len(out) trials on d (sim.Batcher), as Trial would.
func (c *Combat) Trials(d sim.Stream, out []int32) {
	if c.pre == nil {
		for i := range out {
			out[i] = int32(resolveStream(c, d))
		}
		return
	}
	for i := range out {
		out[i] = int32(Resolve(c, d))
	}
}

// Flat is the combat's dice tree as a table, or nil (sim.Model).
func (c *Combat) Flat() *sim.Flat {
	if c.flat == nil || c.prePaths() > maxFlatPre && c.Factored() != nil {
		return nil
	}
	c.flat.once.Do(func() { c.flat.f = sim.BuildFlat(func(d sim.Dice) int { return Resolve(c, d) }) })
	return c.flat.f
}

// crtD6s is how many d6 the CRT roll takes: one or two a side, both
// sides under wild results.
func (c *Combat) crtD6s() int {
	dice := 1
	if c.twoDice {
		dice = 2
	}
	if c.wild {
		dice *= 2
	}
	return dice
}

// maxFlatPre is the largest tree with pre-combat steps laid out as one
// flat table. Past a megabyte of table a trial's read misses the
// second-level cache, while the two-level layout (Factored) stays in it:
// two ground strikes with a naval strike and AA fire (1.7M paths) sample
// about twice as fast factored.
const maxFlatPre = 1 << 20

// prePaths is how many paths the combat's dice tree has when it has
// pre-combat steps (every path rolls all their dice, then the CRT's), 0
// when it has none; it saturates rather than overflow.
func (c *Combat) prePaths() uint64 {
	p := c.pre
	if p == nil {
		return 0
	}
	n := uint64(max(p.fracSides, 1))
	for range p.d6s() + c.crtD6s() {
		if n > math.MaxUint64/6 {
			return math.MaxUint64
		}
		n *= 6
	}
	return n
}

// Tabulate gives the exact tally of a combat without walking its dice
// tree (sim.Tabulator): each branch of the fractional-odds die, or each
// pre-combat state and odds level (preWeights), and each CRT cell,
// weighted by how many indices of the flat table lead there, so the counts
// and size are the flat table's own and the weights are the same to the
// bit. Given the branch, the CRT rolls are independent of the dice before
// them, and under wild results of each other, so a branch's weight
// multiplies the ways of rolling each side's total. ok is false only past
// maxPreSequences pre-combat sequences.
func (c *Combat) Tabulate() (counts []uint64, size uint64, ok bool) {
	// Each (odds level, count of flat-table indices through the dice
	// before the CRT roll) the combat can reach.
	type branch struct {
		faces uint64
		v     *AtOdds
	}
	var branches []branch
	size = 1
	if p := c.pre; p != nil {
		weights, preSize, ok := c.preWeighed()
		if !ok {
			return nil, 0, false
		}
		for k, n := range weights {
			if n > 0 {
				branches = append(branches, branch{n, &p.states[k/2].AtOdds[k%2]})
			}
		}
		size = preSize
	} else if f := c.Fraction; f.Chance > 0 {
		branches = []branch{{uint64(f.Chance), &c.AtOdds[1]}, {uint64(f.Sides - f.Chance), &c.AtOdds[0]}}
		size = uint64(f.Sides)
	} else {
		branches = []branch{{1, &c.AtOdds[0]}}
	}
	rolled := uint64(1) // indices a branch's CRT dice span
	for _, b := range branches {
		if b.v.auto < 0 && b.faces > 0 {
			for range c.crtD6s() {
				rolled *= 6
			}
			break
		}
	}
	if size > maxTabulated/rolled {
		return nil, 0, false
	}
	size *= rolled
	counts = make([]uint64, len(c.Outcomes))
	lo, hi := c.diceRange()
	ways := func(a int) uint64 {
		if c.twoDice {
			return uint64(6 - abs(a-7))
		}
		return 1
	}
	for _, b := range branches {
		switch {
		case b.faces == 0:
		case b.v.auto >= 0:
			counts[b.v.auto] += b.faces * rolled
		case !c.wild:
			for a := lo; a <= hi; a++ {
				counts[b.v.cells[a]] += b.faces * ways(a)
			}
		default:
			for a := lo; a <= hi; a++ {
				for d := lo; d <= hi; d++ {
					counts[b.v.cells[a*stride+d]] += b.faces * ways(a) * ways(d)
				}
			}
		}
	}
	return counts, size, true
}

// preWeighed is preWeights(c.pre), worked out once per combat; the
// weights are shared and only read.
func (c *Combat) preWeighed() (weights []uint64, preSize uint64, ok bool) {
	w := c.weighed
	w.once.Do(func() { w.weights, w.size, w.ok = preWeights(c.pre) })
	return w.weights, w.size, w.ok
}

// maxTabulated bounds a tabulated tree: every combat whose pre-combat dice
// have at most maxPreSequences sequences, times the most indices a CRT
// roll spans (four d6: two a side under wild results on the 2D6 table).
// Below 2^51, so no count overflows and each is exact in a float64.
const maxTabulated = maxPreSequences * 6 * 6 * 6 * 6

// preWeights counts, for every state and odds level (indexed state*2 +
// branch), the sequences of the pre-combat dice that reach it, and how
// many sequences there are: what running preState on every sequence
// gives (walkPreWeights, which a test compares), worked out step by step
// instead. The steps are independent but for the ground strikes, which
// turn the targets in a fixed order: the strikes and naval strikes are a
// distribution over masks of targets turned, built one die at a time; AA
// fire is its table of outcomes counted once; the fractional-odds die is
// counted last, per state. ok is false past maxPreSequences.
func preWeights(p *preCombat) (weights []uint64, preSize uint64, ok bool) {
	fracWays := 1
	if p.fracSides > 0 {
		fracWays = p.fracSides
	}
	preSize = uint64(fracWays)
	for range p.d6s() {
		if preSize > maxPreSequences/6 {
			return nil, 0, false
		}
		preSize *= 6
	}
	// hits is how many faces of a d6 succeed against factors f: a roll r
	// succeeds when 2r <= f.
	hits := func(f float64) uint64 {
		n := uint64(0)
		for r := 1; r <= 6; r++ {
			if 2*float64(r) <= f {
				n++
			}
		}
		return n
	}
	masks := make([]uint64, 1<<len(p.targets))
	masks[0] = 1
	next := make([]uint64, len(masks))
	step := func(succeed uint64, turn func(mask int) int) {
		clear(next)
		for m, c := range masks {
			if c > 0 {
				next[m] += c * (6 - succeed)
				next[turn(m)] += c * succeed
			}
		}
		masks, next = next, masks
	}
	for _, f := range p.strikes {
		step(hits(f), func(mask int) int {
			for _, k := range p.strikeOrder {
				if mask&(1<<k) == 0 {
					return mask | 1<<k
				}
			}
			return mask
		})
	}
	for _, f := range p.ships {
		for k := range p.targets {
			step(hits(f), func(mask int) int { return mask | 1<<k })
		}
	}
	airs := make([]uint64, len(p.airs))
	if p.aaDice > 0 {
		for _, a := range p.airOf {
			airs[a]++
		}
	} else {
		airs[0] = 1
	}
	weights = make([]uint64, 2*len(p.states))
	for m, cm := range masks {
		if cm == 0 {
			continue
		}
		for a, ca := range airs {
			if ca == 0 {
				continue
			}
			st := m*len(p.airs) + a
			// The fractional-odds die (0 when not rolled) succeeds on
			// faces up to the state's chance.
			up := 0
			if f := p.states[st].Fraction; f.Chance > 0 {
				up = min(f.Chance, fracWays)
				if p.fracSides == 0 {
					up = 1 // fd is 0, below any chance
				}
			}
			weights[2*st+1] += cm * ca * uint64(up)
			weights[2*st] += cm * ca * uint64(fracWays-up)
		}
	}
	return weights, preSize, true
}

// maxPreSequences bounds the pre-combat dice sequences preWeights counts,
// so no count overflows once multiplied by the CRT dice: well past any
// budget exact enumeration may be given.
const maxPreSequences = 1 << 40

// PerTrial returns a copy of c that Monte Carlo samples by calling Resolve
// for every trial, even when a flat table exists: for benchmarks and for
// checking the two sampling paths against each other.
func PerTrial(c *Combat) *Combat {
	d := *c
	d.flat, d.factored = nil, nil
	return &d
}

// Factored lays out a combat with pre-combat steps whose dice tree is too
// large for one flat table in the cache (maxFlatPre) in two levels
// (sim.FactoredModel): the states and odds levels its pre-combat dice
// leave, weighted by how many sequences of them lead there (preWeights,
// as Tabulate does), and per state and level a table of its CRT roll
// (crtRoll). Monte Carlo draws a state, then a result, instead of
// resolving every trial afresh. It is nil when the combat has no
// pre-combat steps, fits one flat table that size, or its pre-combat dice
// alone are too many.
func (c *Combat) Factored() *sim.Factored {
	if c.pre == nil || c.factored == nil || c.prePaths() <= maxFlatPre && c.Flat() != nil {
		return nil
	}
	c.factored.once.Do(func() {
		p := c.pre
		weights, size, ok := c.preWeighed()
		if !ok {
			return
		}
		post := make([]*sim.Flat, len(weights))
		for k, n := range weights {
			if n > 0 {
				v := &p.states[k/2].AtOdds[k%2]
				post[k] = sim.BuildFlat(func(d sim.Dice) int { return crtRoll(c, v, d) })
			}
		}
		c.factored.f = sim.NewFactored(weights, size, post)
	})
	return c.factored.f
}

// HasPreCombat reports whether the combat has pre-combat random steps
// (ground strikes, naval strikes, AA fire at the ground support).
func (c *Combat) HasPreCombat() bool { return c.pre != nil }
