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
		st := p.state(mask, air)
		v = &st.AtOdds[0]
		if st.Fraction.Chance > 0 && fd <= st.Fraction.Chance {
			v = &st.AtOdds[1]
		}
	} else {
		v = &c.AtOdds[0]
		if f := c.Fraction; f.Chance > 0 && d.Roll(f.Sides) <= f.Chance {
			v = &c.AtOdds[1]
		}
	}
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
	if c.pre != nil {
		return nil, 0, false
	}
	type branch struct {
		faces uint64
		v     *AtOdds
	}
	branches := []branch{{1, &c.AtOdds[0]}}
	size = 1
	if f := c.Fraction; f.Chance > 0 {
		branches = []branch{{uint64(f.Chance), &c.AtOdds[1]}, {uint64(f.Sides - f.Chance), &c.AtOdds[0]}}
		size = uint64(f.Sides)
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

// PerTrial returns a copy of c that Monte Carlo samples by calling Resolve
// for every trial, even when a flat table exists: for benchmarks and for
// checking the two sampling paths against each other.
func PerTrial(c *Combat) *Combat {
	d := *c
	d.flat = nil
	return &d
}

// HasPreCombat reports whether the combat has pre-combat random steps
// (ground strikes, naval strikes, AA fire at the ground support).
func (c *Combat) HasPreCombat() bool { return c.pre != nil }
