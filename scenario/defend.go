package scenario

import (
	"github.com/wifodds/wifodds/internal/yamlx"
	"go.yaml.in/yaml/v3"
)

// PlanSide is whose question a plan file asks (docs/scenario-format.md,
// Plans): the attacker's "which units should I send?" or the defender's
// "which reserves must I add to hold the hex?".
type PlanSide string

// Plan sides.
const (
	AttackerSide PlanSide = "attacker"
	DefenderSide PlanSide = "defender"
)

// PlanSides lists every plan side.
var PlanSides = []string{string(AttackerSide), string(DefenderSide)}

// MaxReserves bounds defender.available: the defender's plan weighs every
// subset of the reserves (2^16 at most) against the attacker's best
// response to each.
const MaxReserves = 16

// StackWithinLimit reports whether a defending stack keeps the AsA 3.4
// stacking limit: any three land units, at most two of them corps or
// armies.
func StackWithinLimit(units []Unit) bool {
	corps := 0
	for i := range units {
		if units[i].IsCorps() {
			corps++
		}
	}
	return len(units) <= 3 && corps <= 2
}

// checkSide checks what the plan's side needs: a defender's plan lists
// reserves (defender.available) and either the attacker's possible force
// (attacker.available) or a fixed one (attacker.units), on one hex, costed
// by what the reserves commit; an attacker's plan lists no reserves.
func checkSide(d *yamlx.Decoder, m *yamlx.Map, pm *yamlx.Map, root *yaml.Node, s *Scenario) {
	p := s.Plan
	at := pm.Node()
	if at == nil {
		at = root
	}
	def := d.Map(m.Get("defender"), "defender")
	switch p.Side {
	case "":
		return
	case AttackerSide:
		if len(s.Defender.Available) > 0 {
			d.Errorf(def.Get("available"), "defender.available", "reserves belong to the defender's question: add side: defender to the plan block, or list the defender's units under defender.units")
		}
		return
	}
	switch {
	case len(s.Defender.Available) == 0:
		d.Errorf(at, "defender.available", "the defender's question needs reserves to choose from: list the units the defender may add under defender.available")
	case len(s.Defender.Available) > MaxReserves:
		d.Errorf(def.Get("available"), "defender.available", "%d reserves: at most %d (every subset is weighed against the attacker's best response)", len(s.Defender.Available), MaxReserves)
	}
	if len(s.Targets) > 0 {
		d.Errorf(m.Get("targets"), "targets", "the defender's question is asked of one hex: give hex and defender at the top, not targets")
	}
	if len(s.Attacker.Units) == 0 && len(s.Attacker.Available) == 0 && len(s.Attacker.SupportAvailable) == 0 {
		d.Errorf(m.Get("attacker"), "attacker", "the defender's question needs the attacker: its possible force under attacker.available (it sends the subset most likely to take the hex), or a fixed force under attacker.units")
	}
	switch p.Cost {
	case ExpectedFactorsLost, ExpectedUnitsLost:
		d.Errorf(pm.Get("cost"), "plan.cost", "%s is not a cost of reserves: the defender's plan costs them by committed_factors, committed_units or committed_build_points", p.Cost)
	}
	for i := range s.Defender.Available {
		u := &s.Defender.Available[i]
		if len(u.CanAttack) > 0 {
			d.Errorf(u.canPos.node(u.Line), yamlx.Index("defender.available", i)+".can_attack", "a reserve defends the hex: it attacks nothing")
		}
	}
}
