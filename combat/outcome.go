package combat

import "github.com/wifodds/wifodds/crt"

// Outcome is one settled result of a combat: the CRT result as applied,
// with losses allocated and the hex's fate decided. Outcomes are interned
// per Combat, so a trial only records an outcome's index.
type Outcome struct {
	Level     int8 // CRT odds level read (after any fractional-odds roll)
	Table     crt.Kind
	Result    crt.Result // as applied; under wild results the composite A/D
	Automatic bool       // a zero defence: no roll was made

	AttackerLost        int8    // attacking units destroyed
	DefenderLost        int8    // defending units destroyed
	AttackerReduced     int8    // attacking corps lost but replaced by a division (Kampfgruppe)
	DefenderReduced     int8    // defending corps replaced by a division that retreated (Kampfgruppe)
	AttackerFactorsLost float64 // printed factors of those units
	DefenderFactorsLost float64
	DefenderRetreated   int8 // defending units that retreated (R)
	DefenderShattered   int8 // defending units sent to the production spiral (S, B)

	HexTaken       bool // every defender destroyed, retreated or shattered
	Breakthrough   bool // a B result took the hex
	AttackerFaceUp bool // the surviving attackers stay face-up
	Reconstructed  bool // the result was read from a reconstructed table value
	NotAllowed     bool // an airdrop below 1:1 that may not be made (AWAW 10.55C)

	// Pre-combat random steps (docs/rules.md §3).
	Struck     int8    // defending units ground strikes turned face-down
	Support    float64 // tactical factors of the ground-support aircraft that pressed the attack
	AirHit     int8    // ground-support aircraft destroyed by AA fire
	AirAborted int8    // ground-support aircraft aborted by AA fire
}

// CompareForAttacker reports whether o is better for the attacker than p, comparing in
// order: hex taken, breakthrough, defending units removed (destroyed, then
// all), attacking units lost (fewer is better), attackers face-up. It
// orders outcomes for the luck audit.
func (o *Outcome) CompareForAttacker(p *Outcome) int {
	cmpBool := func(a, b bool) int {
		switch {
		case a && !b:
			return 1
		case b && !a:
			return -1
		}
		return 0
	}
	cmpInt := func(a, b int8) int {
		switch {
		case a > b:
			return 1
		case a < b:
			return -1
		}
		return 0
	}
	if c := cmpBool(o.HexTaken, p.HexTaken); c != 0 {
		return c
	}
	if c := cmpBool(o.Breakthrough, p.Breakthrough); c != 0 {
		return c
	}
	if c := cmpInt(o.DefenderLost, p.DefenderLost); c != 0 {
		return c
	}
	if c := cmpInt(o.DefenderLost+o.DefenderRetreated+o.DefenderShattered, p.DefenderLost+p.DefenderRetreated+p.DefenderShattered); c != 0 {
		return c
	}
	if c := cmpInt(p.AttackerLost, o.AttackerLost); c != 0 {
		return c
	}
	return cmpBool(o.AttackerFaceUp, p.AttackerFaceUp)
}
