package combat

import "github.com/wifodds/wifodds/crt"

// Reads is how a combat reads its CRT, for the cell lab (package cells):
// every branch the dice before the CRT roll can reach (a pre-combat state
// and fractional-odds branch), how many of their sequences reach it, and
// what it reads. The counts are Tabulate's, so a figure weighed from them
// is the exact answer's own numerator.
type Reads struct {
	Branches []Branch
	// Size is the number of equally likely dice sequences: the
	// pre-combat ones (Branch.Ways) times every CRT roll.
	Size    uint64
	Rolled  uint64 // the CRT roll's sequences: 6 or 36, squared under wild results
	TwoDice bool
	Wild    bool
}

// Branch is one final odds level of one pre-combat state.
type Branch struct {
	State int    // the pre-combat state (0 for a combat without pre-combat steps)
	Ways  uint64 // pre-combat dice sequences reaching it (x Rolled of Size)
	Level int    // CRT odds level read
	// Fixed is the outcome when no roll is read (an automatic result, an
	// airdrop the rules forbid), else -1.
	Fixed   int32
	Table   crt.Kind // the table used
	Chooser Chooser  // who chose it; ChooserScenario or ChooserTerrain when forced
	Read    [2]bool  // by crt.Kind: the tables read (both when the players choose)
	Mod     [2]int   // by crt.Kind: the roll's other modifiers on that table
	// Compare is, by crt.Kind, what each table read gives, as the
	// chooser weighed it.
	Compare [2]TableStats
}

// Reads lists the combat's branches; ok is false when the pre-combat
// dice are too many to count (Tabulate's limit).
func (c *Combat) Reads() (Reads, bool) {
	r := Reads{TwoDice: c.twoDice, Wild: c.wild, Rolled: 1}
	for range c.crtD6s() {
		r.Rolled *= 6
	}
	add := func(state int, ways uint64, v *AtOdds) {
		if ways == 0 {
			return
		}
		b := Branch{State: state, Ways: ways, Level: v.Level, Fixed: -1, Table: v.Table, Chooser: v.Chooser, Mod: [2]int{int(v.mods[0]), int(v.mods[1])}, Compare: v.Compare}
		if v.auto >= 0 {
			b.Fixed = v.auto
		}
		b.Read[v.Table] = true
		if v.Chooser == ChooserAttacker || v.Chooser == ChooserDefender {
			b.Read = [2]bool{true, true}
		}
		r.Branches = append(r.Branches, b)
	}
	pre := uint64(1)
	switch {
	case c.pre != nil:
		weights, preSize, ok := c.preWeighed()
		if !ok || preSize > maxTabulated/r.Rolled {
			return Reads{}, false
		}
		for k, n := range weights {
			if n > 0 {
				add(k/2, n, &c.pre.states[k/2].AtOdds[k%2])
			}
		}
		pre = preSize
	case c.Fraction.Chance > 0:
		f := c.Fraction
		add(0, uint64(f.Chance), &c.AtOdds[1])
		add(0, uint64(f.Sides-f.Chance), &c.AtOdds[0])
		pre = uint64(f.Sides)
	default:
		add(0, 1, &c.AtOdds[0])
	}
	r.Size = pre * r.Rolled
	return r, true
}

// Settle is the outcome a result read at an odds level on table k
// settles to in this combat, as a roll reading it would (the pre-combat
// record fields are the base state's). The combat is not changed.
func (c *Combat) Settle(level int, k crt.Kind, r crt.Result) Outcome {
	cc := *c
	cc.pre, cc.intern, cc.Outcomes = nil, nil, make([]Outcome, 0, 1)
	cc.settle(level, k, r, false, false)
	return cc.Outcomes[0]
}

// Composite is the result of a wild-results roll (docs/rules.md §2.4):
// the attacker's roll picks row ra, whose defender part applies; the
// defender's roll picks row rd, whose attacker part applies; a "*" in
// either keeps the attackers face-up if they lost nothing.
func Composite(ra, rd crt.Result) crt.Result {
	return crt.Result{AttackerLoss: rd.AttackerLoss, FaceUp: ra.FaceUp || rd.FaceUp, DefenderLoss: ra.DefenderLoss, Effect: ra.Effect}
}

// PickTable is the table a chooser picks from what each gives
// (docs/rules.md §2.3): the attacker the higher P(hex taken), then fewer
// expected attacking losses, then the higher P(breakthrough); the
// defender the reverse. A full tie goes to Assault.
func PickTable(chooser Chooser, a, b TableStats) crt.Kind {
	sign := 1.0
	if chooser == ChooserDefender {
		sign = -1
	}
	switch {
	case a.HexTaken != b.HexTaken:
		if sign*(b.HexTaken-a.HexTaken) > 0 {
			return crt.Blitz
		}
	case a.AttackerLost != b.AttackerLost:
		if sign*(a.AttackerLost-b.AttackerLost) > 0 {
			return crt.Blitz
		}
	case a.Breakthrough != b.Breakthrough:
		if sign*(b.Breakthrough-a.Breakthrough) > 0 {
			return crt.Blitz
		}
	}
	return crt.Assault
}

// TotalProb is the probability of one side's dice total on the combat's
// dice, as the table choice weighs it.
func (r *Reads) TotalProb(d int) float64 {
	if r.TwoDice {
		return float64(6-abs(d-7)) / 36
	}
	return 1.0 / 6
}

// Ways is how many sequences of one side's CRT dice give total d.
func (r *Reads) Ways(d int) uint64 {
	if r.TwoDice {
		return uint64(6 - abs(d-7))
	}
	return 1
}

// DiceRange is the range of one side's dice total.
func (r *Reads) DiceRange() (lo, hi int) {
	if r.TwoDice {
		return 2, 12
	}
	return 1, 6
}
