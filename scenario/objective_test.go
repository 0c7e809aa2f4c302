package scenario

import (
	"slices"
	"strings"
	"testing"
)

// pocketPlan is a valid front with a chance objective; the cases below
// break it.
const pocketPlan = `name: pocket
kind: land
crt: 2d6
targets:
  - {id: North, hex: {terrain: clear}, defender: {units: [{type: INF, factors: 3, nation: USSR}]}}
  - {id: South, hex: {terrain: forest}, defender: {units: [{type: INF, factors: 2, nation: USSR}]}}
attacker:
  available:
    - {id: a, type: ARM, factors: 6, nation: GE, can_attack: [North, South]}
    - {id: b, type: INF, factors: 4, nation: GE, can_attack: [North, South]}
plan: {objective: all, target: 0.5}
`

// plan.objective (docs/scenario-format.md, Plans; issue 28 item 2):
// expected (the default), all, at_least: K or set: [ids] on a front, with
// the target then a chance; every mistake is an error at its line and key,
// with a suggestion where one helps.
func TestPlanObjective(t *testing.T) {
	s, err := Parse("pocket.yaml", []byte(pocketPlan))
	if err != nil {
		t.Fatal(err)
	}
	if s.Plan.Objective != ObjectiveAll || !s.Plan.IsChance() || s.Plan.Target != 0.5 {
		t.Fatalf("parsed %+v", s.Plan)
	}
	for _, c := range []struct {
		objective string
		check     func(*Plan) bool
	}{
		{"expected", func(p *Plan) bool { return p.Objective == ObjectiveExpected && !p.IsChance() }},
		{"{at_least: 1}", func(p *Plan) bool { return p.Objective == ObjectiveAtLeast && p.AtLeast == 1 && p.IsChance() }},
		{"{set: [South, North]}", func(p *Plan) bool {
			return p.Objective == ObjectiveSet && slices.Equal(p.Set, []string{"South", "North"})
		}},
	} {
		s, err := Parse("pocket.yaml", []byte(strings.Replace(pocketPlan, "objective: all", "objective: "+c.objective, 1)))
		if err != nil || !c.check(s.Plan) {
			t.Errorf("objective %s: %v %+v", c.objective, err, s)
		}
	}
	if s, err := Parse("pocket.yaml", []byte(strings.Replace(pocketPlan, "objective: all, target: 0.5", "target: 1.5", 1))); err != nil || s.Plan.Objective != ObjectiveExpected {
		t.Errorf("no objective: %v", err)
	}
	cases := []struct{ name, old, new, want string }{
		{"unknown", "objective: all", "objective: al", `pocket.yaml:11:19: plan.objective: unknown objective "al" (did you mean "all"?)`},
		{"at_least without K", "objective: all", "objective: at_least", "plan.objective: at_least needs its K: write objective: {at_least: 2}"},
		{"set without ids", "objective: all", "objective: set", "plan.objective: set needs its targets"},
		{"K too large", "objective: all", "objective: {at_least: 3}", "plan.objective.at_least: 3 is outside 1..2 (the targets)"},
		{"K zero", "objective: all", "objective: {at_least: 0}", "plan.objective.at_least: 0 is outside 1..2 (the targets)"},
		{"K not a number", "objective: all", "objective: {at_least: two}", "plan.objective.at_least"},
		{"unknown id", "objective: all", "objective: {set: [North, Suoth]}", `pocket.yaml:11:33: plan.objective.set[1]: unknown target "Suoth" (did you mean "South"?)`},
		{"unknown id far", "objective: all", "objective: {set: [Kyiv]}", `plan.objective.set[0]: unknown target "Kyiv" (targets: North, South)`},
		{"set twice", "objective: all", "objective: {set: [North, North]}", `plan.objective.set[1]: "North" is listed twice`},
		{"long set", "objective: all", "objective: {set: [" + strings.Repeat("North, ", 9) + "South]}", "plan.objective.set: 10 targets: a front has at most 8"},
		{"empty set", "objective: all", "objective: {set: []}", "plan.objective.set: name at least one target"},
		{"both", "objective: all", "objective: {set: [North], at_least: 1}", "give either at_least or set, not both"},
		{"unknown key", "objective: all", "objective: {atleast: 1}", `did you mean "at_least"`},
		{"chance target", "target: 0.5", "target: 1.5", "plan.target: 1.5 is outside (0, 1]: with objective all the target is the chance to reach"},
		{"one hex", "targets:\n  - {id: North, hex: {terrain: clear}, defender: {units: [{type: INF, factors: 3, nation: USSR}]}}\n  - {id: South, hex: {terrain: forest}, defender: {units: [{type: INF, factors: 2, nation: USSR}]}}\n",
			"hex: {terrain: clear}\ndefender: {units: [{type: INF, factors: 3, nation: USSR}]}\n",
			"plan.objective: all is for a front of several targets; a plan for one hex already aims at P(hex taken)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(pocketPlan, c.old, c.new, 1)
			if c.name == "one hex" {
				text = strings.ReplaceAll(text, ", can_attack: [North, South]", "")
			}
			if text == pocketPlan {
				t.Fatal("the case changes nothing")
			}
			_, err := Parse("pocket.yaml", []byte(text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %q", err, c.want)
			}
		})
	}
}
