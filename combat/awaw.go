package combat

import (
	"fmt"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// A World at War's DMs favour the defender when positive; on our tables a
// DM of d is a die-roll modifier of -d (docs/rules.md §6).
func awawDM(d int) int { return -d }

func (c *Combat) awaw() bool { return c.Scenario.Has(scenario.AWAWUnitEffects) }

// AirdropLimited reports an airdrop on enemy units under the A World at
// War rules, which may only be made at 1:1 or better (AWAW 10.55C): units
// in the hex, not an ART supporting it from next door.
func (c *Combat) AirdropLimited() bool {
	return c.awaw() && c.Scenario.Kind == scenario.Paradrop && len(c.DefOrder) > 0
}

// awawTerms are the die-roll modifiers of the A World at War unit effects
// (docs/rules.md §6).
func (c *Combat) awawTerms() []crt.Term {
	if !c.awaw() {
		return nil
	}
	ts := c.awawKindTerms()
	// Negated armour with a CTL of 0 or less: -1 DM "when attacked", with
	// no exception for invasion or airdrop combat (10.32; contrast 10.64A,
	// which names one), except in those places or its home country.
	s := c.Scenario
	if s.Defender.CTL <= 0 && !s.Hex.Protected && !s.Hex.HomeNation {
		for _, i := range c.DefOrder {
			if s.Defender.Units[i].MechNegated {
				ts = append(ts, crt.Term{Name: "negated armour with CTL 0 or less: DM -1", Value: awawDM(-1), Rule: "rules §6, AWAW 10.32"})
				break
			}
		}
	}
	return ts
}

// awawKindTerms are the A World at War DMs of the combat's kind
// (docs/rules.md §6).
func (c *Combat) awawKindTerms() []crt.Term {
	s := c.Scenario
	switch s.Kind {
	case scenario.Invasion:
		// The defender's +1 DM against invasion (AWAW 15.32B) is cancelled
		// when American marines or Japanese SNLF are at least half the
		// invading ground factors; commandos do not cancel it (10.71, 10.84).
		// Only units engaged in the invasion combat count (10.71): not an
		// ART bombarding from an adjacent hex.
		var marines, all float64
		for i := range s.Attacker.Units {
			u := &s.Attacker.Units[i]
			if !inCombat(u) {
				continue
			}
			all += u.Factors
			if u.Type == scenario.MAR && (u.Nation == "US" || u.Japanese()) {
				marines += u.Factors
			}
		}
		if 2*marines >= all {
			return []crt.Term{{Name: "defender's invasion DM cancelled: marines are at least half the invading factors", Value: 0, Rule: "rules §6, AWAW 10.71"}}
		}
		return []crt.Term{{Name: "defender's +1 DM against invasion", Value: awawDM(1), Rule: "rules §6, AWAW 15.32B, 10.71, 10.84"}}
	case scenario.Paradrop:
		// Units defending only against an airdrop: infantry, replacements
		// and partisans DM +1, armour and specialized units +2 (10.55D).
		dm := 0
		for i := range s.Defender.Units {
			switch s.Defender.Units[i].Type {
			case "INF", "MTN", "MIL", "GARR", "TERR", "SKI", "REPL", "PART":
				dm = max(dm, 1)
			case "ARM", "MECH", "PARA", "MAR", "CMDO", "CHINDIT":
				dm = max(dm, 2)
			}
		}
		return []crt.Term{{Name: fmt.Sprintf("units defending only against an airdrop: DM +%d", dm), Value: awawDM(dm), Rule: "rules §6, AWAW 10.55D"}}
	case scenario.Land:
		return c.awawLandTerms()
	}
	return nil
}

// awawLandTerms are A World at War's land-combat DMs (docs/rules.md §6).
func (c *Combat) awawLandTerms() []crt.Term {
	s := c.Scenario
	var ts []crt.Term
	// Infantry and replacements attacked by exploiting armour, and armour
	// whose mechanized component is negated, incur a -1 DM outside a
	// capital, objective hex, IC, bridgehead or railhead; specialized units
	// are exempt (10.13, 10.24, 10.32, 10.41F). The DM applies when every
	// defending unit in the combat incurs it.
	if s.Attacker.Exploiting && !s.Hex.Protected && len(c.DefOrder) > 0 {
		all := true
		for _, i := range c.DefOrder {
			all = all && exploitable(&s.Defender.Units[i])
		}
		if all {
			ts = append(ts, crt.Term{Name: "attacked by exploiting armour: DM -1", Value: awawDM(-1), Rule: "rules §6, AWAW 10.13, 10.24, 10.32"})
		}
	}
	// An isolated Chindit attacking: -1 DM (10.64A).
	for _, i := range c.AttOrder {
		if u := &s.Attacker.Units[i]; u.Type == scenario.CHINDIT && u.Isolated {
			ts = append(ts, crt.Term{Name: "attacked by an isolated Chindit: DM -1", Value: awawDM(-1), Rule: "rules §6, AWAW 10.64A"})
			break
		}
	}
	return ts
}

// exploitable reports units that incur the exploiting-armour DM: infantry,
// replacements and negated armour, not specialized units (AWAW 10.41F).
func exploitable(u *scenario.Unit) bool {
	switch u.Type {
	case "INF", "MTN", "MIL", "GARR", "TERR", "SKI", "REPL", "PART":
		return true
	case "ARM", "MECH":
		return u.MechNegated
	}
	return false
}
