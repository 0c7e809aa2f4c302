package combat

import "github.com/wifodds/wifodds/sim"

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

// Trial runs one trial on the engine's stream (sim.Model).
func (c *Combat) Trial(d sim.Stream) int { return Resolve(c, d) }

// Flat is the combat's dice tree as a table, or nil (sim.Model).
func (c *Combat) Flat() *sim.Flat {
	if c.flat == nil {
		return nil
	}
	c.flat.once.Do(func() { c.flat.f = sim.BuildFlat(func(d sim.Dice) int { return Resolve(c, d) }) })
	return c.flat.f
}

// Tabulate gives the exact tally of a combat with no pre-combat steps
// without walking its dice tree (sim.Tabulator): each branch of the
// fractional-odds die and each CRT cell, weighted by how many indices of
// the flat table lead there, so the counts and size are the flat table's
// own and the weights are the same to the bit.
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
		weights, preSize, ok := preWeights(p)
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
	dice := 1 // CRT dice rolled by a branch that rolls: a side's one or two, twice under wild results
	if c.twoDice {
		dice = 2
	}
	if c.wild {
		dice *= 2
	}
	rolled := uint64(1) // indices a branch's CRT dice span
	for _, b := range branches {
		if b.v.auto < 0 && b.faces > 0 {
			for range dice {
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

// maxTabulated bounds a tabulated tree, so no count overflows: far past
// any budget exact enumeration may be given.
const maxTabulated = sim.MaxPathBudget

// preWeights runs the pre-combat steps on every sequence of their dice
// (which every path rolls in full) and counts the sequences reaching each
// state and odds level, indexed state*2 + branch; preSize is how many
// sequences there are. ok is false when they are too many to walk.
func preWeights(p *preCombat) (weights []uint64, preSize uint64, ok bool) {
	var sides []int
	if p.fracSides > 0 {
		sides = append(sides, p.fracSides)
	}
	for range len(p.strikes) + len(p.ships)*len(p.targets) + p.aaDice {
		sides = append(sides, 6)
	}
	preSize = 1
	for _, s := range sides {
		if preSize *= uint64(s); preSize > maxPreSequences {
			return nil, 0, false
		}
	}
	weights = make([]uint64, 2*len(p.states))
	seq := &sequence{rolls: make([]int, len(sides)), sides: sides}
	for i := range seq.rolls {
		seq.rolls[i] = 1
	}
	for {
		seq.next = 0
		st, b := preState(p, seq)
		if seq.bad || seq.next != len(sides) {
			return nil, 0, false
		}
		weights[2*st+b]++
		// The odometer: the last die turns fastest.
		k := len(seq.rolls) - 1
		for ; k >= 0 && seq.rolls[k] == sides[k]; k-- {
			seq.rolls[k] = 1
		}
		if k < 0 {
			return weights, preSize, true
		}
		seq.rolls[k]++
	}
}

// maxPreSequences bounds the pre-combat dice sequences Tabulate walks.
const maxPreSequences = 1 << 24

// sequence replays one sequence of pre-combat rolls; bad records a roll
// the sequence did not plan (a die of other sides, or one too many).
type sequence struct {
	rolls []int
	sides []int
	next  int
	bad   bool
}

func (s *sequence) Roll(sides int) int {
	if s.next >= len(s.rolls) || s.sides[s.next] != sides {
		s.bad = true
		return 1
	}
	v := s.rolls[s.next]
	s.next++
	return v
}

// PerTrial returns a copy of c that Monte Carlo samples by calling Resolve
// for every trial, even when a flat table exists: for benchmarks and for
// checking the two sampling paths against each other.
func PerTrial(c *Combat) *Combat {
	d := *c
	d.flat, d.factored = nil, nil
	return &d
}

// Factored lays out a combat whose dice tree is too large for one flat
// table in two levels (sim.FactoredModel): a table of its pre-combat dice
// whose outcomes are the state and odds level they leave (preState), and
// per state and level a table of its CRT roll (crtRoll): the states are
// weighted by counting every sequence of the pre-combat dice once
// (preWeights, as Tabulate does) and drawn from an exact alias table.
// Monte Carlo draws a state, then a result, instead of resolving every
// trial afresh. It is nil when the combat has no pre-combat steps, fits
// one flat table, or its pre-combat dice alone are too many.
func (c *Combat) Factored() *sim.Factored {
	if c.pre == nil || c.factored == nil || c.Flat() != nil {
		return nil
	}
	c.factored.once.Do(func() {
		p := c.pre
		weights, size, ok := preWeights(p)
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
