package scenario

import (
	"slices"
	"strings"
	"testing"
)

// coastPlan is a valid front with a shared pool: a unit, an aircraft, two
// ships and an HQ; the cases below break it.
const coastPlan = `name: coast
kind: land
crt: 2d6
targets:
  - {id: Port, hex: {terrain: clear, coastal: true}, defender: {units: [{type: INF, factors: 3, nation: USSR}]}}
  - {id: Inland, hex: {terrain: forest}, defender: {units: [{type: INF, factors: 2, nation: USSR}]}}
  - {id: Cape, hex: {terrain: clear, coastal: true}, defender: {units: [{type: INF, factors: 2, nation: USSR}]}}
attacker:
  available:
    - {id: a, type: ARM, factors: 6, nation: GE}
  support_available:
    - {id: Stuka, a2a: 1, tactical: 3, can_support: [Port, Inland]}
    - {id: Cruiser, shore_bombardment: 4}
    - {id: Destroyer, shore_bombardment: 1.5, cost: 3, can_support: [Cape]}
    - {id: HQ, hq_support: true, can_support: [Inland]}
plan: {target: 1}
`

// Shared pools (docs/scenario-format.md, Plans; issue 28 item 3): each
// kind of support parses with its committed factors' default cost, a
// ship's default reach is the coastal targets, and every mistake is an
// error at its line and key, with a suggestion where one helps.
func TestSupportPool(t *testing.T) {
	s, err := Parse("coast.yaml", []byte(coastPlan))
	if err != nil {
		t.Fatal(err)
	}
	sup := s.Attacker.SupportAvailable
	if !sup[0].Aircraft || sup[0].Cost != 3 || !slices.Equal(sup[0].CanSupport, []string{"Port", "Inland"}) {
		t.Errorf("aircraft %+v", sup[0])
	}
	if !sup[1].IsShip() || sup[1].ShoreBombardment != 4 || sup[1].Cost != 4 || !slices.Equal(sup[1].CanSupport, []string{"Port", "Cape"}) {
		t.Errorf("a ship with no can_support reaches the coastal targets: %+v", sup[1])
	}
	if sup[2].Cost != 3 || !slices.Equal(sup[2].CanSupport, []string{"Cape"}) {
		t.Errorf("destroyer %+v", sup[2])
	}
	if !sup[3].HQ || sup[3].IsShip() || sup[3].Cost != 1 {
		t.Errorf("an HQ costs 1 by default: %+v", sup[3])
	}
	if !s.Targets[0].Scenario.Hex.Coastal || s.Targets[1].Scenario.Coastal() {
		t.Errorf("coastal: %v %v", s.Targets[0].Scenario.Hex, s.Targets[1].Scenario.Hex)
	}
	cases := []struct{ name, old, new, want string }{
		{"can_attack on support", "Stuka, a2a: 1, tactical: 3, can_support", "Stuka, a2a: 1, tactical: 3, can_attack",
			"coast.yaml:12:52: attacker.support_available[0].can_attack: support reaches its targets with can_support: write can_support: [ids]"},
		{"unknown target", "can_support: [Cape]", "can_support: [Cap]", `coast.yaml:14:69: attacker.support_available[2].can_support: unknown target "Cap" (did you mean "Cape"?)`},
		{"ship inland", "can_support: [Cape]", "can_support: [Cape, Inland]",
			`coast.yaml:14:69: attacker.support_available[2].can_support: target "Inland" is not coastal and ships bombard coastal hexes only (AsA 3.13): mark its hex coastal: true, or leave it out (coastal targets: Port, Cape)`},
		{"no coast", "coastal: true}", "coastal: false}", ""},
		{"ship factors", "shore_bombardment: 4}", "shore_bombardment: 51}", "coast.yaml:13:40: attacker.support_available[1].shore_bombardment: 51 is outside (0, 50]"},
		{"ship zero", "shore_bombardment: 4}", "shore_bombardment: 0}", "attacker.support_available[1].shore_bombardment: 0 is outside (0, 50]"},
		{"two kinds", "shore_bombardment: 4}", "shore_bombardment: 4, factors: 2}", "coast.yaml:13:7: attacker.support_available[1]: give one of factors (plain ground support), a2a and tactical (an aircraft facing AA), shore_bombardment (a ship) or hq_support: true (an HQ)"},
		{"no kind", "{id: Cruiser, shore_bombardment: 4}", "{id: Cruiser}", "attacker.support_available[1]: give one of factors"},
		{"half an aircraft", "a2a: 1, tactical: 3,", "a2a: 1,", "attacker.support_available[0]: an aircraft needs both a2a and tactical"},
		{"HQ false", "hq_support: true,", "hq_support: false,", "coast.yaml:15:28: attacker.support_available[3].hq_support: an HQ in support_available is hq_support: true"},
		{"HQ twice", "attacker:\n", "attacker:\n  hq_support: true\n", "attacker.support_available[3].hq_support: attacker.hq_support is already true at every target, so this HQ would add nothing"},
		{"unknown key", "hq_support: true,", "hq_suport: true,", `did you mean "hq_support"?`},
		{"one hex inland", "targets:\n  - {id: Port, hex: {terrain: clear, coastal: true}, defender: {units: [{type: INF, factors: 3, nation: USSR}]}}\n  - {id: Inland, hex: {terrain: forest}, defender: {units: [{type: INF, factors: 2, nation: USSR}]}}\n  - {id: Cape, hex: {terrain: clear, coastal: true}, defender: {units: [{type: INF, factors: 2, nation: USSR}]}}\n",
			"hex: {terrain: forest}\ndefender: {units: [{type: INF, factors: 2, nation: USSR}]}\n",
			"coast.yaml:11:12: attacker.support_available[1].shore_bombardment: ships bombard coastal hexes only (AsA 3.13): mark the hex coastal: true, or drop the ship"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(coastPlan, c.old, c.new, 1)
			switch c.name {
			case "no coast":
				text = strings.ReplaceAll(text, "coastal: true}", "coastal: false}")
				text = strings.Replace(text, ", can_support: [Cape]", "", 1)
				c.want = "coast.yaml:13:12: attacker.support_available[1].shore_bombardment: no target is coastal and ships bombard coastal hexes only (AsA 3.13)"
			case "one hex inland":
				for _, r := range []string{", can_support: [Port, Inland]", ", can_support: [Cape]", ", can_support: [Inland]"} {
					text = strings.Replace(text, r, "", 1)
				}
			}
			if text == coastPlan {
				t.Fatal("the case changes nothing")
			}
			_, err := Parse("coast.yaml", []byte(text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %q", err, c.want)
			}
		})
	}
	const invasion = "kind: invasion\ncrt: 2d6\nhex: {coastal: false}\ndefender: {units: [{type: INF, factors: 1, nation: USSR}]}\nattacker: {units: [{type: MAR, factors: 3, nation: US}]}\n"
	if _, err := Parse("inv.yaml", []byte(invasion)); err == nil || !strings.Contains(err.Error(), "inv.yaml:3:16: hex.coastal: an invaded hex is coastal: drop coastal: false") {
		t.Errorf("invasion with coastal: false: %v", err)
	}
	// One hex takes ships at a coastal hex or an invasion.
	for _, hex := range []string{"kind: land\nhex: {coastal: true}", "kind: invasion\nhex: {terrain: clear}"} {
		text := strings.Replace(coastPlan, "kind: land", hex, 1)
		text = text[:strings.Index(text, "targets:")] + "defender: {units: [{type: INF, factors: 3, nation: USSR}]}\n" + text[strings.Index(text, "attacker:"):]
		for _, r := range []string{", can_support: [Port, Inland]", ", can_support: [Cape]", ", can_support: [Inland]"} {
			text = strings.Replace(text, r, "", 1)
		}
		text = strings.Replace(text, "target: 1}", "target: 0.5}", 1)
		if s, err := Parse("coast.yaml", []byte(text)); err != nil || !s.Coastal() {
			t.Errorf("%s: %v\n%s", hex, err, text)
		}
	}
}
