package scenario

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A stack line reads as the units a scenario file lists (issue 27: the
// page's quick-entry box, the server and the browser build share this).
func TestParseStack(t *testing.T) {
	no := false
	inf4 := StackUnit{Type: "INF", Size: "corps", Factors: 4, Nation: "GE"}
	arm6 := StackUnit{Type: "ARM", Size: "corps", Factors: 6, Nation: "GE"}
	for _, c := range []struct {
		in   string
		want []StackUnit
	}{
		{"3x INF 4 GE, ARM 6 GE", []StackUnit{inf4, inf4, inf4, arm6}},
		{"3 x inf 4 germany; arm 6 German", []StackUnit{inf4, inf4, inf4, arm6}},
		{"2× INF 4 GER\nARM 6 GE", []StackUnit{inf4, inf4, arm6}},
		{"GE 6 ARM", []StackUnit{arm6}},
		{"infantry 2 Soviet Union division fd oos", []StackUnit{{Type: "INF", Size: "division", Factors: 2, Nation: "USSR", FaceDown: true, Supply: &no}}},
		{"MECH 2.5 United States", []StackUnit{{Type: "MECH", Size: "corps", Factors: 2.5, Nation: "US"}}},
		{"HQ-A 3 GE army", []StackUnit{{Type: "HQ-A", Size: "army", Factors: 3, Nation: "GE"}}},
		// The nation carries forward to the items that name none, as
		// players say a stack (issue 27); an item naming one switches it.
		{"3x INF 4 GE, ARM 6, INF 3", []StackUnit{inf4, inf4, inf4, arm6, {Type: "INF", Size: "corps", Factors: 3, Nation: "GE"}}},
		{"ARM 6 Germany; 2x inf 4", []StackUnit{arm6, inf4, inf4}},
		{"INF 4 GE, 2x INF 2 France, ARM 3 fd", []StackUnit{inf4,
			{Type: "INF", Size: "corps", Factors: 2, Nation: "FR"}, {Type: "INF", Size: "corps", Factors: 2, Nation: "FR"},
			{Type: "ARM", Size: "corps", Factors: 3, Nation: "FR", FaceDown: true}}},
		{"INF 4 GE\nARM 6\nMIL 1 Soviet Union oos\nINF 2 division", []StackUnit{inf4, arm6,
			{Type: "MIL", Size: "corps", Factors: 1, Nation: "USSR", Supply: &no}, {Type: "INF", Size: "division", Factors: 2, Nation: "USSR"}}},
	} {
		got, err := ParseStack(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(c.want)
		if string(g) != string(w) {
			t.Errorf("%q:\n got %s\nwant %s", c.in, g, w)
		}
	}
}

// A word it does not know is an error naming the item and the nearest
// word it knows; nothing is left to a default.
func TestParseStackErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"3x INF 4 GERM", `unit 1 ("3x INF 4 GERM"): unknown word "GERM": not a unit type, nation, size, fd or oos (did you mean GE, Germany?)`},
		{"INF 4 GE, AMR 6 GE", `unit 2 ("AMR 6 GE"): unknown word "AMR"`},
		{"INF 4 GE, AMR 6 GE", `(did you mean ARM?)`},
		{"INF 4 GE, ARM 6 GE corpse", `(did you mean corps?)`},
		{"INF 4", `unit 1 ("INF 4"): no nation: add one, e.g. GE or Germany`},
		// A nation carries forward only: the first unit must name one,
		// with the same message, and a later error names its own item.
		{"INF 4, ARM 6 GE", `unit 1 ("INF 4"): no nation: add one, e.g. GE or Germany`},
		{" ; INF 4 ,ARM 6 GE", `unit 1 ("INF 4"): no nation: add one, e.g. GE or Germany`},
		{"INF 4 GE, ARM 6, INF", `unit 3 ("INF"): no factors: add the unit's combat factors, e.g. INF 4`},
		{"INF 4 GE, ARM 6, AMR 3", `unit 3 ("AMR 3"): unknown word "AMR": not a unit type, nation, size, fd or oos (did you mean ARM?)`},
		{"INF 4 GE, ARM 6 FR GE", `unit 2 ("ARM 6 FR GE"): two nations, FR and GE`},
		{"INF GE", `no factors`},
		{"4 GE", `no unit type`},
		{"INF 4 5 GE", `two factor numbers`},
		{"INF ARM 4 GE", `two unit types`},
		{"INF 4 GE FR", `two nations`},
		{"INF 400 GE", `want 0 to 100`},
		{"INF inf GE", `two unit types`},
		{"INF 1e2 GE", `unknown word "1e2"`},
		{"21x INF 4 GE", `at most 20`},
		// A count under one is named as a count, not taken for a nation
		// or for one unit (the page's walkthrough typed "0x INF 0 GE").
		{"0x INF 0 GE", `unit 1 ("0x INF 0 GE"): count "0x": a count must be at least 1`},
		{"0 x INF 4 GE", `count "0 x": a count must be at least 1`},
		{"-2x INF 4 GE", `count "-2x": a count must be at least 1`},
		{"20x INF 4 GE, 20x INF 4 GE, 20x INF 4 GE, 20x INF 4 GE", `more than 64 units`},
		{" , ;", `no units`},
		{strings.Repeat("INF 4 GE,", 300), `at most 2000`},
	} {
		_, err := ParseStack(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: %v, want %q", c.in, err, c.want)
		}
	}
}

// What ParseStack reads, written as a scenario's units, loads as the same
// units: the line and the file agree.
func TestParseStackLoads(t *testing.T) {
	units, err := ParseStack("2x INF 4 GE, ARM 6 Germany fd, MIL 1 Russia division oos")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("kind: land\nhex: {terrain: clear}\nattacker:\n  units:\n")
	for _, u := range units[:3] {
		j, _ := json.Marshal(u)
		fmt.Fprintf(&b, "    - %s\n", j)
	}
	j, _ := json.Marshal(units[3])
	fmt.Fprintf(&b, "defender:\n  units:\n    - %s\n", j)
	s, err := Parse("stack.yaml", []byte(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	got := append(append([]Unit(nil), s.Attacker.Units...), s.Defender.Units...)
	for i, u := range units {
		g := got[i]
		supply := u.Supply == nil || *u.Supply
		if string(g.Type) != u.Type || g.Size != u.Size || g.Factors != u.Factors || g.Nation != u.Nation || g.FaceDown != u.FaceDown || g.Supply != supply {
			t.Errorf("unit %d: loaded %+v from %+v", i, g, u)
		}
	}
}

func FuzzParseStack(f *testing.F) {
	for _, s := range []string{"3x INF 4 GE, ARM 6 GE", "2 x mech 2.5 Soviet Union fd oos", "INF 4 GERM", "", "20x INF 1 GE;", "3x INF 4 GE, ARM 6, INF 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		units, err := ParseStack(s)
		if err != nil {
			return
		}
		if len(units) == 0 || len(units) > MaxStackUnits {
			t.Fatalf("%q: %d units", s, len(units))
		}
		for _, u := range units {
			if _, ok := LookupNation(u.Nation); !ok || u.Type == "" || u.Factors < 0 || u.Factors > 100 {
				t.Fatalf("%q: %+v", s, u)
			}
		}
	})
}
