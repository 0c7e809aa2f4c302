package scenario

import (
	"slices"
	"strings"
	"testing"
)

// op is a fixed operation of three targets; tests edit it.
const op = `kind: land
crt: standard
targets:
  - id: north
    attacker: {units: [{type: INF, factors: 6, nation: GE}]}
    defender: {units: [{type: INF, factors: 2, nation: USSR}]}
  - id: south
    requires: [north]
    attacker: {units: [{type: ARM, factors: 6, nation: GE}]}
    defender: {units: [{type: INF, factors: 3, nation: USSR}]}
  - id: bridge
    kind: paradrop
    attacker: {units: [{type: PARA, size: division, factors: 2, nation: GE}]}
    defender: {units: []}
sets:
  pocket: [north, south]
`

// An operation loads with its targets, requirements, sets and an order of
// attack (docs/scenario-format.md, Operations).
func TestOperationLoads(t *testing.T) {
	s, err := Parse("op.yaml", []byte(strings.Replace(op, "  - id: north\n", "  - id: north\n    requires: [bridge]\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if !s.IsOperation() || s.IsPlan() {
		t.Fatalf("not read as an operation")
	}
	o := s.Operation
	if len(o.Targets) != 3 || o.Targets[2].Scenario.Kind != Paradrop || o.Targets[0].Scenario.Kind != Land {
		t.Fatalf("targets %+v", o.Targets)
	}
	if !slices.Equal(o.Targets[1].Requires, []int{0}) || !slices.Equal(o.Targets[0].Requires, []int{2}) {
		t.Errorf("requires %v %v", o.Targets[0].Requires, o.Targets[1].Requires)
	}
	if want := []int{2, 0, 1}; !slices.Equal(o.Order, want) {
		t.Errorf("order %v, want %v (bridge, then north, then south)", o.Order, want)
	}
	if len(o.Sets) != 1 || o.Sets[0].Name != "pocket" || !slices.Equal(o.Sets[0].Targets, []int{0, 1}) {
		t.Errorf("sets %+v", o.Sets)
	}
}

// Bad operations are refused with the line, the key and a suggestion.
func TestOperationErrors(t *testing.T) {
	cases := []struct {
		name, from, to string
		want           []string
	}{
		{"unknown requirement", "requires: [north]", "requires: [nort]", []string{"op.yaml:8:", "targets[1].requires[0]: unknown target \"nort\" (did you mean \"north\"?)"}},
		{"cycle", "  - id: north\n", "  - id: north\n    requires: [south]\n", []string{"targets: requires go round in a circle (\"north\" requires \"south\" requires \"north\")"}},
		{"self", "requires: [north]", "requires: [south]", []string{"targets[1].requires[0]: a target cannot require itself"}},
		{"unknown in a set", "pocket: [north, south]", "pocket: [north, sout]", []string{"sets.pocket[1]: unknown target \"sout\" (did you mean \"south\"?)"}},
		{"empty set", "pocket: [north, south]", "pocket: []", []string{"sets.pocket: a set names at least one target"}},
		{"duplicate id", "id: bridge", "id: north", []string{"targets[2].id: \"north\" is used twice"}},
		{"available units", "attacker: {units: [{type: ARM", "attacker: {available: [{type: INF, factors: 3, nation: GE}], units: [{type: ARM", []string{"targets[1].attacker.available: an operation's forces are given", "wifodds plan"}},
		{"no attacking unit", "attacker: {units: [{type: INF, factors: 6, nation: GE}]}", "attacker: {ground_support: 2}", []string{"targets[0].attacker.units: a land combat needs at least one attacking unit"}},
		{"no attacker", "    attacker: {units: [{type: INF, factors: 6, nation: GE}]}\n", "", []string{"targets[0].attacker: missing: in an operation each target gives its attacking force"}},
		{"top-level hex", "crt: standard\n", "crt: standard\nhex: {terrain: forest}\n", []string{"hex: an operation (targets with their own attacker) takes no top-level hex"}},
		{"unknown key", "kind: paradrop", "kind: paradrop\n    requirs: [north]", []string{"targets[2].requirs: unknown key (did you mean \"requires\"?)"}},
		{"control character", "id: bridge", "id: \"br\\e[31mdge\"", []string{"targets[2].id: \"br\\x1b[31mdge\" holds a control character"}},
		{"set name", "pocket: [north, south]", "\"p\\tk\": [north, south]", []string{`op.yaml:16:3: "p\tk" holds the character U+0009`}},
		{"bombardment target", "kind: paradrop", "kind: bombardment", []string{"targets[2].kind: unknown kind \"bombardment\""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(op, c.from, c.to, 1)
			if text == op {
				t.Fatalf("the edit %q did not apply", c.from)
			}
			_, err := Parse("op.yaml", []byte(text))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// Operations and plans do not mix: a target of a plan's front gives no
// attacker of its own. (requires and sets are a front's too:
// TestFrontRequires.)
func TestOperationKeysInAPlan(t *testing.T) {
	plan := `kind: land
targets:
  - id: a
    requires: [b]
    defender: {units: [{type: INF, factors: 2, nation: USSR}]}
  - id: b
    attacker: {units: [{type: INF, factors: 2, nation: GE}]}
    defender: {units: [{type: INF, factors: 2, nation: USSR}]}
attacker:
  available: [{type: INF, factors: 3, nation: GE}]
sets: {x: [a]}
`
	_, err := Parse("p.yaml", []byte(plan))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, w := range []string{
		"targets[1].attacker: a target with its own attacker belongs to a fixed operation",
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}
