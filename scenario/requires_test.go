package scenario

import (
	"slices"
	"strings"
	"testing"
)

// diamondPlan is a front whose targets wait on others (issue 28 item 4):
// a diamond, A before B and C, both before D, listed out of order.
const diamondPlan = `kind: land
crt: standard
targets:
  - {id: D, requires: [B, C], hex: {terrain: clear}, defender: {units: [{type: INF, factors: 1, nation: USSR}]}}
  - {id: B, requires: [A], hex: {terrain: clear}, defender: {units: [{type: INF, factors: 1, nation: USSR}]}}
  - {id: A, hex: {terrain: clear}, defender: {units: [{type: INF, factors: 1, nation: USSR}]}}
  - {id: C, requires: [A], hex: {terrain: clear}, defender: {units: [{type: INF, factors: 1, nation: USSR}]}}
attacker:
  available:
    - {id: a, type: INF, factors: 4, nation: GE}
sets:
  ring: [B, C]
plan: {objective: {set: [D]}, target: 0.2}
`

// A front's requires and sets (docs/scenario-format.md, Plans): read as an
// operation's (the same checks), with the order of attack every target
// after those it requires, otherwise in file order; each mistake an error
// naming the line and key, an unknown id with a suggestion, a circle named.
func TestFrontRequires(t *testing.T) {
	s, err := Parse("d.yaml", []byte(diamondPlan))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{1, 3}, {2}, nil, {2}}
	for i, ft := range s.Targets {
		if !slices.Equal(ft.Requires, want[i]) {
			t.Errorf("%s requires %v, want %v", ft.ID, ft.Requires, want[i])
		}
	}
	if !slices.Equal(s.Plan.Order, []int{2, 1, 3, 0}) {
		t.Errorf("order %v, want A, B, C, D (2, 1, 3, 0)", s.Plan.Order)
	}
	if len(s.Plan.Sets) != 1 || s.Plan.Sets[0].Name != "ring" || !slices.Equal(s.Plan.Sets[0].Targets, []int{1, 3}) {
		t.Errorf("sets %+v, want ring: [B, C] (1, 3)", s.Plan.Sets)
	}
	for _, c := range []struct{ name, from, to, want string }{
		{"unknown", "{id: B, requires: [A]", "{id: B, requires: [AA]", `d.yaml:5:24: targets[1].requires[0]: unknown target "AA" (did you mean "A"?)`},
		{"itself", "{id: A, hex", "{id: A, requires: [A], hex", `targets[2].requires[0]: a target cannot require itself`},
		{"twice", "requires: [B, C]", "requires: [B, B]", `targets[0].requires[1]: "B" is listed twice`},
		{"circle", "{id: A, hex", "{id: A, requires: [D], hex", `d.yaml:4:3: targets: requires go round in a circle ("D" requires "B" requires "A" requires "D")`},
		{"set unknown", "ring: [B, C]", "ring: [B, E]", `d.yaml:12:13: sets.ring[1]: unknown target "E"`},
		{"invasion under land", "{id: A, hex", "{id: A, kind: invasion, hex", `targets[2].kind: invasion under a file of kind land`},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(diamondPlan, c.from, c.to, 1)
			if text == diamondPlan {
				t.Fatalf("%q not in the plan", c.from)
			}
			_, err := Parse("d.yaml", []byte(text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
	// sets name a front's targets: a plan for one hex has none.
	one := `kind: land
hex: {terrain: clear}
defender: {units: [{type: INF, factors: 1, nation: USSR}]}
attacker: {available: [{type: INF, factors: 4, nation: GE}]}
sets: {x: [a]}
`
	if _, err := Parse("o.yaml", []byte(one)); err == nil || !strings.Contains(err.Error(), "sets: sets name targets") {
		t.Errorf("sets on one hex: %v", err)
	}
}

// A front may mix an invasion with attacks overland from its beachhead:
// the file's kind is the invasion, under which the units are read, and a
// target says kind: land.
func TestFrontTargetKind(t *testing.T) {
	text := `kind: invasion
crt: standard
targets:
  - {id: beach, hex: {terrain: clear}, defender: {units: [{type: INF, size: division, factors: 1, nation: CW}]}}
  - {id: inland, kind: land, requires: [beach], hex: {terrain: jungle}, defender: {units: [{type: INF, factors: 2, nation: CW}]}}
attacker:
  available:
    - {id: m, type: MAR, factors: 4, nation: JA, section: 1, can_attack: [beach]}
    - {id: i, type: INF, factors: 5, nation: JA, can_attack: [inland]}
plan: {objective: all, target: 0.3}
`
	s, err := Parse("b.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if s.Targets[0].Scenario.Kind != Invasion || s.Targets[1].Scenario.Kind != Land {
		t.Errorf("kinds %s, %s; want invasion, land", s.Targets[0].Scenario.Kind, s.Targets[1].Scenario.Kind)
	}
	if _, err := Parse("b.yaml", []byte(strings.Replace(text, "{id: inland, kind: land,", "{id: inland,", 1))); err != nil {
		t.Errorf("a target of the file's kind: %v", err)
	}
}

// A front target's id is checked as an operation target's
// (docs/scenario-format.md: at most 200 bytes, no control character, not
// used twice): it is printed in the report and named by can_attack.
func TestFrontTargetID(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{"{id: A,", "{id: \"A\\e[31m\",", `targets[2].id: "A\x1b[31m" holds a control character`},
		{"{id: A,", "{id: " + strings.Repeat("A", 201) + ",", "is over 200 bytes"},
		{"{id: A,", "{id: B,", `targets[2].id: "B" is used twice`},
		{"{id: A,", "{id: \" \",", "targets[2].id: missing: each target needs an id for can_attack to name"},
	} {
		_, err := Parse("d.yaml", []byte(strings.Replace(diamondPlan, c.from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.to, err, c.want)
		}
	}
}
