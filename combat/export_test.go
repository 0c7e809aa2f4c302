package combat

import "github.com/wifodds/wifodds/crt"

// Test hooks: the rules tests live in package combat_test so they can use
// package analysis (which imports combat) for summaries; these give them
// read-only views of the compiled pre-combat steps.

// PreAA is the AA fire at the ground support a combat compiled: the
// tables, the AA factors, dice and table, and the aircraft in the order
// the fire takes them.
type PreAA struct {
	Air                  *crt.AirTables
	Factors, Dice, Table int
	Planes               []crt.Plane
}

// PreAAOf returns the combat's AA fire at ground support, or nil.
func PreAAOf(c *Combat) *PreAA {
	p := c.pre
	if p == nil || p.aaDice == 0 {
		return nil
	}
	return &PreAA{p.air, p.aaFactors, p.aaDice, p.aaTable, p.planes}
}

// PreTargets lists the defending units pre-combat strikes may turn
// face-down (NotionalTarget for the notional unit), and the order in which
// ground strikes take them (positions in the list).
func PreTargets(c *Combat) (targets, order []int) {
	if c.pre == nil {
		return nil, nil
	}
	return c.pre.targets, c.pre.strikeOrder
}

// PreState is the compiled state for targets mask turned face-down and AA
// outcome air.
func PreState(c *Combat, mask, air int) *State { return &c.pre.states[mask*len(c.pre.airs)+air] }

// NotionalTarget stands for the notional unit among PreTargets.
const NotionalTarget = notionalTarget

// AWAWDM converts an A World at War DM to a die-roll modifier.
func AWAWDM(d int) int { return awawDM(d) }
