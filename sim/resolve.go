package sim

// Resolve is the resolution routine: it rolls the dice a combat consumes, in
// the order SCENARIO.md fixes (the fractional-odds die, then the CRT roll,
// the attacker's before the defender's under wild results), and returns the
// index of the outcome in c.Outcomes.
//
// It is generic so the Monte Carlo engine's Stream is called directly, with
// no interface dispatch on the hot path; replay and exact enumeration use
// the same code with other Dice.
func Resolve[D Dice](c *Combat, d D) int {
	v := &c.Variants[0]
	if f := c.Fraction; f.Chance > 0 && d.Roll(f.Sides) <= f.Chance {
		v = &c.Variants[1]
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
