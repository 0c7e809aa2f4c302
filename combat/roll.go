package combat

import (
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/sim"
)

// Roll is the CRT roll one resolution read: what a player checks against
// the table after rolling (docs/rules.md §2.2, §2.4 under wild results).
type Roll struct {
	// Dice are the dice totals: one, or the attacker's then the
	// defender's under wild results.
	Dice []int
	// Modifier is the net die-roll modifier on the table read: the
	// scenario's, the options' and the situation's, and the odds' own on
	// a table read by modifier.
	Modifier int
	// ReadAs is each total as the table reads it: plus Modifier, within
	// the table's rows.
	ReadAs []int
}

// ResolveRoll is Resolve, also giving the CRT roll it read; the roll is
// nil when no CRT roll was read (an automatic result, or an airdrop the
// rules forbid). It rolls the same dice in the same order as Resolve, so
// it returns the same outcome on the same dice (a test checks it on every
// example). It is for a replay, not the hot path: Resolve stays as it is.
func ResolveRoll(c *Combat, d sim.Dice) (int, *Roll) {
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
	if v.auto >= 0 {
		return int(v.auto), nil
	}
	rec := &recorded{d: d}
	o := crtRoll(c, v, rec)
	per := 1
	if c.twoDice {
		per = 2
	}
	mod := v.Modifier
	if c.CRT.Method == crt.ByModifier {
		mod += c.CRT.Levels[v.Level].Modifier
	}
	r := &Roll{Modifier: mod}
	for i := 0; i < len(rec.rolls); i += per {
		total := 0
		for _, x := range rec.rolls[i : i+per] {
			total += x
		}
		r.Dice = append(r.Dice, total)
		r.ReadAs = append(r.ReadAs, min(max(total+mod, c.CRT.MinRow), c.CRT.MaxRow))
	}
	return o, r
}

// recorded passes rolls through from d and keeps them.
type recorded struct {
	d     sim.Dice
	rolls []int
}

func (r *recorded) Roll(sides int) int {
	x := r.d.Roll(sides)
	r.rolls = append(r.rolls, x)
	return x
}
