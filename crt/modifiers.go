package crt

import (
	"fmt"
	"strconv"
)

// Schedule is a table's die-roll modifiers other than the odds (docs/rules.md
// 2.1). Values are what the rule adds to the roll: negative ones hurt the
// attacker.
type Schedule struct {
	FaceDownDefender int            // per face-down defending land unit, HQs included
	HQSupport        int            // when the attacker's HQ support succeeds; the defender's is its negative
	ExtraNationality int            // per attacking nationality beyond the first
	Weather          map[string]int // by weather in the target hex
	AttackAsMud      int            // weather modifier when the attacker elects to attack in winter as if in mud
	Terrain          map[string]int // by terrain of the target hex
	JungleJapanese   int            // jungle when every attacker is Japanese
	Blitz            int            // optional blitz modifier (Blitz table, clear weather)
	Territorial      int            // optional territorial modifiers
	Source
}

// Situation is what the modifier schedule needs to know about a combat.
type Situation struct {
	Table              Kind
	FaceDownDefenders  int
	AttackerHQ         bool
	DefenderHQ         bool
	Nationalities      int // distinct attacking nationalities
	Weather            string
	AttackAsMud        bool
	Terrain            string
	AllJapanese        bool
	BlitzOption        bool
	AttackerArmour     int // ARM units: corps/army 2, division/brigade 1
	DefenderArmour     int
	AttackerAntiArmour int // ARM, AT and AA units, counted the same way
	DefenderAntiArmour int
	TerritorialOption  bool
	AllDefendersTerr   bool
	AnyDefenderTerr    bool
	AllAttackersTerr   bool
	AnyAttackerTerr    bool
	Extra              int    // the scenario's own extra modifier
	More               []Term // modifiers of other rule sets, listed as they are
}

// Term is one modifier that applies, with the rule it comes from.
type Term struct {
	Name  string
	Value int
	Rule  string
}

func (t Term) String() string { return fmt.Sprintf("%+d %s (%s)", t.Value, t.Name, t.Rule) }

// Terms lists every modifier that applies to the situation, in the order
// docs/rules.md §2.1 lists them. Zero-valued terms are left out.
func (s *Schedule) Terms(sit Situation) []Term {
	var ts []Term
	add := func(v int, name, rule string) {
		if v != 0 {
			ts = append(ts, Term{name, v, rule})
		}
	}
	// Names are built only for terms that apply: compiling a combat reads
	// the schedule for every state, and most terms are zero.
	if v := sit.FaceDownDefenders * s.FaceDownDefender; v != 0 {
		add(v, strconv.Itoa(sit.FaceDownDefenders)+" face-down defending unit(s)", "rules §2.1, AfA 3.11")
	}
	if sit.AttackerHQ {
		add(s.HQSupport, "attacker HQ support", "rules §2.1, AfA 3.11")
	}
	if sit.DefenderHQ {
		add(-s.HQSupport, "defender HQ support", "rules §2.1, AfA 3.11")
	}
	if sit.Nationalities > 1 {
		add((sit.Nationalities-1)*s.ExtraNationality, strconv.Itoa(sit.Nationalities)+" attacking nationalities", "rules §2.1, AfA 3.11")
	}
	if sit.AttackAsMud {
		add(s.AttackAsMud, sit.Weather+" attacked as if in mud (ski/white-print election)", "rules §2.1, AfA 3.11")
	} else if v := must(s.Weather, sit.Weather); v != 0 {
		add(v, "weather: "+sit.Weather, "rules §2.1, AfA 3.11")
	}
	if sit.Terrain == "jungle" && sit.AllJapanese {
		add(s.JungleJapanese, "jungle, all attackers Japanese", "rules §2.1, AfA 3.11")
	} else if v := must(s.Terrain, sit.Terrain); v != 0 {
		add(v, "terrain: "+sit.Terrain, "rules §2.1, AfA 3.11")
	}
	if sit.BlitzOption && sit.Table == Blitz && sit.Weather == "clear" {
		switch {
		case sit.AttackerArmour > 2*sit.DefenderAntiArmour:
			add(s.Blitz, fmt.Sprintf("blitz: attacking ARM %d > 2 x defending ARM/AT/AA %d", sit.AttackerArmour, sit.DefenderAntiArmour), "rules §2.1, AfA 3.11 optional")
		case sit.DefenderArmour > 2*sit.AttackerAntiArmour:
			add(-s.Blitz, fmt.Sprintf("blitz: defending ARM %d > 2 x attacking ARM/AT/AA %d", sit.DefenderArmour, sit.AttackerAntiArmour), "rules §2.1, AfA 3.11 optional")
		}
	}
	if sit.TerritorialOption {
		if sit.AllDefendersTerr && !sit.AnyAttackerTerr {
			add(s.Territorial, "non-territorials attacking territorials", "rules §2.1, AfA 3.11 optional")
		}
		if sit.AllAttackersTerr && !sit.AnyDefenderTerr {
			add(-s.Territorial, "territorials attacking non-territorials", "rules §2.1, AfA 3.11 optional")
		}
	}
	add(sit.Extra, "scenario modifier", "scenario")
	for _, t := range sit.More {
		add(t.Value, t.Name, t.Rule)
	}
	return ts
}

// Covers reports whether the schedule has a modifier for the weather and
// the terrain; a combat checks it when it is compiled, so Terms never
// looks up a name the schedule lacks.
func (s *Schedule) Covers(weather, terrain string) error {
	if _, ok := s.Weather[weather]; !ok {
		return fmt.Errorf("the table has no modifier for weather %q", weather)
	}
	if _, ok := s.Terrain[terrain]; !ok {
		return fmt.Errorf("the table has no modifier for terrain %q", terrain)
	}
	return nil
}

// must looks up a modifier Covers has checked; a miss is a bug in the
// caller, never bad input.
func must(m map[string]int, name string) int {
	v, ok := m[name]
	if !ok {
		panic(fmt.Sprintf("crt: no modifier for %q: Covers was not checked", name))
	}
	return v
}

// Sum adds up terms.
func Sum(ts []Term) int {
	n := 0
	for _, t := range ts {
		n += t.Value
	}
	return n
}
