package scenario

import (
	"strings"
	"testing"
)

// defenderPlan is a valid defender's plan; the cases below break it.
const defenderPlan = `name: hold
kind: land
crt: 2d6
hex: {terrain: forest}
attacker:
  available:
    - {id: a, type: ARM, factors: 6, nation: GE}
    - {id: b, type: INF, factors: 4, nation: GE}
defender:
  units:
    - {type: INF, factors: 3, nation: USSR}
  available:
    - {id: 16th, type: INF, factors: 4, nation: USSR}
    - {type: INF, factors: 4, nation: USSR, cost: 2}
plan: {side: defender, target: 0.6}
`

// A defender's plan (docs/scenario-format.md, Plans): side: defender with
// reserves under defender.available; every mistake is an error at its line
// and key, with a suggestion where one helps.
func TestDefenderPlan(t *testing.T) {
	s, err := Parse("hold.yaml", []byte(defenderPlan))
	if err != nil {
		t.Fatal(err)
	}
	if !s.IsPlan() || s.Plan.Side != DefenderSide || len(s.Defender.Available) != 2 || s.Plan.Target != 0.6 {
		t.Fatalf("parsed %+v", s.Plan)
	}
	// An id is given to each reserve that has none; a cost defaults to the factors.
	if r := s.Defender.Available; r[0].ID != "16th" || r[1].ID == "" || r[1].ID == "16th" || r[0].Cost != 4 || r[1].Cost != 2 {
		t.Errorf("reserves %+v", r)
	}
	fixed := strings.Replace(defenderPlan, "  available:\n    - {id: a, type: ARM, factors: 6, nation: GE}\n    - {id: b, type: INF, factors: 4, nation: GE}\n",
		"  units:\n    - {type: ARM, factors: 6, nation: GE}\n", 1)
	if s, err := Parse("hold.yaml", []byte(fixed)); err != nil || len(s.Attacker.Units) != 1 || len(s.Attacker.Available) != 0 {
		t.Errorf("a fixed attacker: %v", err)
	}
	cases := []struct{ name, old, new, want string }{
		{"no reserves", "  available:\n    - {id: 16th, type: INF, factors: 4, nation: USSR}\n    - {type: INF, factors: 4, nation: USSR, cost: 2}\n", "",
			"hold.yaml:12:7: defender.available: the defender's question needs reserves to choose from"},
		{"unknown side", "side: defender", "side: defnder", `hold.yaml:15:14: plan.side: unknown side "defnder"`},
		{"unknown side suggested", "side: defender", "side: defnder", `did you mean "defender"`},
		{"reserves without the side", "side: defender, ", "", "hold.yaml:13:5: defender.available: reserves belong to the defender's question: add side: defender"},
		{"expected losses", "target: 0.6", "target: 0.6, cost: expected_units_lost", "plan.cost: expected_units_lost is not a cost of reserves"},
		{"can_attack", "{id: 16th,", "{id: 16th, can_attack: [x],", "defender.available[0].can_attack: a reserve defends the hex"},
		{"target", "target: 0.6", "target: 1.5", "plan.target: 1.5 is outside (0, 1]"},
		{"twice", "{type: INF, factors: 4, nation: USSR, cost: 2}", "{id: 16th, type: INF, factors: 4, nation: USSR}", `defender.available[1].id: "16th" is used twice`},
		{"no attacker", "attacker:\n  available:\n    - {id: a, type: ARM, factors: 6, nation: GE}\n    - {id: b, type: INF, factors: 4, nation: GE}\n", "attacker: {}\n",
			"attacker: the defender's question needs the attacker"},
		{"too many", "    - {id: 16th, type: INF, factors: 4, nation: USSR}\n", strings.Repeat("    - {type: INF, factors: 1, nation: USSR}\n", 16),
			"defender.available: 17 reserves: at most 16"},
		{"nested reserves", "defender:\n  units:", "targets: [{id: t, hex: {terrain: clear}, defender: {units: [{type: INF, factors: 1, nation: USSR}], available: [{type: INF, factors: 1, nation: USSR}]}}]\ndefender:\n  units:",
			"targets[0].defender.available: only the attacker chooses units to send"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(defenderPlan, c.old, c.new, 1)
			if text == defenderPlan {
				t.Fatal("the case changes nothing")
			}
			_, err := Parse("hold.yaml", []byte(text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %q", err, c.want)
			}
		})
	}
}
