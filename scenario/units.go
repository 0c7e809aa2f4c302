package scenario

import (
	"sort"
	"sync"
)

// UnitType is a land unit's type.
type UnitType string

// The unit types the loader accepts.
const (
	INF     UnitType = "INF"     // infantry
	ARM     UnitType = "ARM"     // armour
	MECH    UnitType = "MECH"    // mechanised
	MTN     UnitType = "MTN"     // mountain
	MAR     UnitType = "MAR"     // marine
	PARA    UnitType = "PARA"    // parachute
	CAV     UnitType = "CAV"     // cavalry
	MIL     UnitType = "MIL"     // militia
	GARR    UnitType = "GARR"    // garrison
	TERR    UnitType = "TERR"    // territorial
	HQ      UnitType = "HQ"      // headquarters
	HQI     UnitType = "HQ-I"    // infantry headquarters
	HQA     UnitType = "HQ-A"    // armour headquarters
	AT      UnitType = "AT"      // anti-tank
	AA      UnitType = "AA"      // anti-aircraft
	ART     UnitType = "ART"     // field artillery
	SKI     UnitType = "SKI"     // ski
	REPL    UnitType = "REPL"    // replacement
	CMDO    UnitType = "CMDO"    // commando
	CHINDIT UnitType = "CHINDIT" // Chindit
	PART    UnitType = "PART"    // partisan
)

// unitTypes describes each unit type the loader accepts.
var unitTypes = map[UnitType]string{
	INF:     "infantry",
	ARM:     "armour",
	MECH:    "mechanised",
	MTN:     "mountain",
	MAR:     "marine",
	PARA:    "parachute",
	CAV:     "cavalry",
	MIL:     "militia",
	GARR:    "garrison",
	TERR:    "territorial",
	HQ:      "headquarters",
	HQI:     "infantry headquarters",
	HQA:     "armour headquarters",
	AT:      "anti-tank",
	AA:      "anti-aircraft",
	ART:     "field artillery",
	SKI:     "ski",
	REPL:    "replacement",
	CMDO:    "commando",
	CHINDIT: "Chindit",
	PART:    "partisan",
}

// UnitTypes lists the accepted unit types.
func UnitTypes() []string {
	out := make([]string, 0, len(unitTypes))
	for t := range unitTypes {
		out = append(out, string(t))
	}
	return out
}

var sizes = []string{"corps", "army", "division", "brigade"}

// Role is what an ART unit does under the artillery option (AsA 3.2.3).
type Role string

// The roles of an ART unit.
const (
	RoleCombat  Role = "combat"  // it joins the land combat
	RoleStrike  Role = "strike"  // it makes a ground strike first
	RoleSupport Role = "support" // it adds its factors as ground support
)

// IsArtillery reports AT, AA and ART units (AsA 3.2).
func (u *Unit) IsArtillery() bool { return u.Type == AT || u.Type == AA || u.Type == ART }

// Japanese reports a Japanese unit (the jungle modifier, docs/rules.md §2.1).
func (u *Unit) Japanese() bool { return u.Nation == "JA" }

// ColdWeather reports a unit that counts toward the winter "attack as mud"
// election: ski, Russian white-print, Finnish, Swedish or Norwegian.
func (u *Unit) ColdWeather() bool {
	return u.Ski || u.Type == SKI || u.WhitePrint ||
		u.Nation == "FI" || u.Nation == "SW" || u.Nation == "NO"
}

// IsTerritorial reports a territorial unit (AfA 3.2).
func (u *Unit) IsTerritorial() bool { return u.Territorial || u.Type == TERR }

// sortedUnitTypes lists the unit types in order, for messages and
// suggestions; it is shared, not to be changed.
var sortedUnitTypes = sync.OnceValue(func() []string {
	ts := UnitTypes()
	sort.Strings(ts)
	return ts
})

// Sizes lists the unit sizes.
func Sizes() []string { return append([]string(nil), sizes...) }
