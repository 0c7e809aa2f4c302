package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// availablePlan is a one-hex plan of n available units and a plan block
// with extra keys.
func availablePlan(n int, plan string) string {
	b := &strings.Builder{}
	b.WriteString("kind: land\ncrt: 2d6\nhex: {terrain: clear}\ndefender: {units: [{type: INF, factors: 3, nation: USSR}]}\nattacker:\n  available:\n")
	for i := range n {
		fmt.Fprintf(b, "    - {id: u%02d, type: INF, factors: %d, nation: GE}\n", i, 1+i%7)
	}
	fmt.Fprintf(b, "plan: {target: 0.5%s}\n", plan)
	return b.String()
}

// A plan for one hex chooses from up to MaxAvailable (60) units and
// support, and plan.max_units goes up to it; a front and the defender's
// question keep their 40 (docs/scenario-format.md, Plans). Each refusal
// names the key.
func TestAvailableLimits(t *testing.T) {
	if MaxAvailable != 60 || MaxAvailableShared != 40 {
		t.Fatalf("limits %d and %d; the docs say 60 and 40", MaxAvailable, MaxAvailableShared)
	}
	s, err := Parse("plan.yaml", []byte(availablePlan(60, ", max_units: 60")))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Attacker.Available) != 60 || s.Plan.MaxUnits != 60 {
		t.Fatalf("parsed %d units, max_units %d", len(s.Attacker.Available), s.Plan.MaxUnits)
	}
	support := "  support_available: [{id: s, factors: 1}]\n"
	front := strings.Replace(availablePlan(41, ""), "hex: {terrain: clear}\ndefender: {units: [{type: INF, factors: 3, nation: USSR}]}\n",
		"targets:\n  - {id: T0, hex: {terrain: clear}, defender: {units: [{type: INF, factors: 3, nation: USSR}]}}\n", 1)
	defend := strings.Replace(availablePlan(41, ", side: defender"), "defender: {units: [{type: INF, factors: 3, nation: USSR}]}",
		"defender: {units: [{type: INF, factors: 3, nation: USSR}], available: [{id: r, type: INF, factors: 2, nation: USSR}]}", 1)
	for _, c := range []struct{ name, text, want string }{
		{"61 units", availablePlan(61, ""), "attacker.available: 61 units: at most 60 to choose from"},
		{"60 units and support", strings.Replace(availablePlan(60, ""), "plan:", support+"plan:", 1), "attacker.available: 61 units and support to choose from: at most 60"},
		{"max_units 61", availablePlan(3, ", max_units: 61"), "plan.max_units: 61 is outside 1..60"},
		{"a front of 41", front, "attacker.available: 41 units and support to choose from: at most 40 on a front (60 on one hex)"},
		{"the defender's question against 41", defend, "attacker.available: 41 units and support to choose from: at most 40 in the defender's question (60 in the attacker's)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("plan.yaml", []byte(c.text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
	for _, text := range []string{strings.Replace(front, "    - {id: u40, type: INF, factors: 6, nation: GE}\n", "", 1),
		strings.Replace(defend, "    - {id: u40, type: INF, factors: 6, nation: GE}\n", "", 1)} {
		if _, err := Parse("plan.yaml", []byte(text)); err != nil {
			t.Errorf("40 units refused: %v\n%s", err, text)
		}
	}
}
