package analysis

import (
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// Replayed is a forced-dice resolution and where its outcome sits in the
// distribution: the luck audit.
type Replayed struct {
	Dice        []int  `json:"dice"`
	DiceUsed    int    `json:"dice_used"`
	RandomRolls int    `json:"random_rolls"` // rolls drawn after the listed ones ran out
	UnusedDice  int    `json:"unused_dice"`
	Result      string `json:"result"`
	// Words says the result in plain English as applied to the two
	// stacks (combat.Combat.Words): what the code means for each side.
	Words         string  `json:"words"`
	Table         string  `json:"table"`
	Odds          string  `json:"odds"`
	HexTaken      bool    `json:"hex_taken"`
	AttackerLost  int     `json:"attacker_units_lost"`
	DefenderLost  int     `json:"defender_units_lost"`
	AttackerUp    bool    `json:"attacker_face_up"`
	Probability   float64 `json:"probability"`      // of this outcome
	AtLeastAsGood float64 `json:"at_least_as_good"` // P(an outcome at least as good for the attacker)
	// CRTRoll is the CRT roll the table read, nil when none was (an
	// automatic result): what the modifier did to the dice.
	CRTRoll *CRTRoll `json:"crt_roll,omitempty"`
	Index   int      `json:"-"` // the outcome's index in the combat's Outcomes
}

// CRTRoll is combat.Roll as the answer gives it.
type CRTRoll struct {
	Dice     []int `json:"dice"`     // the dice totals: the attacker's then the defender's under wild results
	Modifier int   `json:"modifier"` // the net die-roll modifier on the table read
	ReadAs   []int `json:"read_as"`  // each total as the table reads it
}

// ReplayError is a listed roll that does not fit the die rolled there.
type ReplayError struct {
	Index int // position in the list
	Err   error
}

func (e *ReplayError) Error() string { return e.Err.Error() }

// Replay resolves c with the listed rolls, then rolls from then. A listed
// roll outside the die rolled there is a *ReplayError.
func Replay(c *combat.Combat, rolls []int, then sim.Dice) (*Replayed, error) {
	f := &sim.Forced{Rolls: rolls, Then: then}
	o, roll := combat.ResolveRoll(c, f)
	if f.Err != nil {
		return nil, &ReplayError{f.Bad, f.Err}
	}
	out := &c.Outcomes[o]
	r := &Replayed{
		Dice: rolls, DiceUsed: f.Used, RandomRolls: f.Drawn, UnusedDice: len(rolls) - f.Used,
		Result: out.Result.String(), Words: c.Words(out), Table: out.Table.String(), Odds: c.CRT.Levels[out.Level].String(),
		HexTaken: out.HexTaken, AttackerLost: int(out.AttackerLost), DefenderLost: int(out.DefenderLost),
		AttackerUp: out.AttackerFaceUp, Index: o,
	}
	if roll != nil {
		r.CRTRoll = &CRTRoll{Dice: roll.Dice, Modifier: roll.Modifier, ReadAs: roll.ReadAs}
	}
	return r, nil
}

// Audit fills in the replayed outcome's probability and the probability of
// an outcome at least as good for the attacker, from a tally of c.
func (r *Replayed) Audit(c *combat.Combat, t *stats.Tally) {
	me := &c.Outcomes[r.Index]
	r.Probability = t.Prob(r.Index)
	r.AtLeastAsGood = 0
	for i := range c.Outcomes {
		if c.Outcomes[i].CompareForAttacker(me) >= 0 {
			r.AtLeastAsGood += t.Prob(i)
		}
	}
}
