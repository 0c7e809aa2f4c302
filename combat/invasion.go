package combat

import (
	"fmt"

	"github.com/wifodds/wifodds/scenario"
)

// invadingFactors totals an invasion's attack (docs/rules.md §4, AsA 3.11): each
// MAR unit's factors are not modified, the sum of the others is halved.
func (c *Combat) invadingFactors(att []float64) float64 {
	us := c.Scenario.Attacker.Units
	var mar, other float64
	for i := range us {
		if us[i].Type == scenario.MAR {
			mar += att[i]
		} else {
			other += att[i]
		}
	}
	total := mar + other/2
	if c.working() {
		c.stepf("rules §4, AsA 3.11", "invading: MAR %s unmodified + other units %s halved to %s = %s", num(mar), num(other), num(other/2), num(total))
	}
	return total
}

// notional builds the notional defending unit of an invasion or paradrop
// (docs/rules.md §4, AsA 3.11): 1 factor, -1 if surprised, -1 if out of supply,
// +1 in an unconquered home-nation hex, +1 in a city, +1 when no real land
// unit defends and a friendly non-territorial corps or army is adjacent, and
// for an invasion +1 per section below the 3-section for each invading land
// unit; never below 0.
func (c *Combat) notional() {
	s := c.Scenario
	h := &s.Hex
	n := 1.0
	c.step("notional defending unit: 1", "rules §4, AsA 3.11")
	adj := func(v float64, why string) {
		n += v
		if c.working() {
			c.stepf("rules §4, AsA 3.11", "  %+g %s = %s", v, why, num(n))
		}
	}
	if h.Surprise {
		adj(-1, "surprise impulse")
	}
	if !h.Supply {
		adj(-1, "out of supply")
	}
	if h.HomeNation {
		adj(1, "unconquered home-nation hex")
	}
	if h.City {
		adj(1, "city")
	}
	if h.AdjacentFriendlyCorps {
		// A defending ART supporting from an adjacent hex is no land
		// unit in this one.
		if len(c.DefOrder) == 0 {
			adj(1, "no real land unit here and a friendly non-territorial corps or army adjacent")
		} else {
			c.step("  the adjacent friendly corps does not count: real land units defend here", "rules §4, AsA 3.11")
		}
	}
	if s.Kind == scenario.Invasion {
		for i := range s.Attacker.Units {
			u := &s.Attacker.Units[i]
			if !inCombat(u) {
				continue // an ART bombarding from an adjacent hex does not invade
			}
			if below := 3 - u.Section; below > 0 {
				adj(float64(below), fmt.Sprintf("%s invading from the %d-section", u.Label(), u.Section))
			}
		}
	}
	if n < 0 {
		n = 0
		c.step("  never below 0: 0", "rules §4, AsA 3.11")
	}
	c.Notional = n
}
