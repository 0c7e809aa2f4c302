package scenario

import "strings"

// Unit types the loader accepts, with what each may carry.
var unitTypes = map[string]string{
	"INF":     "infantry",
	"ARM":     "armour",
	"MECH":    "mechanised",
	"MTN":     "mountain",
	"MAR":     "marine",
	"PARA":    "parachute",
	"CAV":     "cavalry",
	"MIL":     "militia",
	"GARR":    "garrison",
	"TERR":    "territorial",
	"HQ":      "headquarters",
	"HQ-I":    "infantry headquarters",
	"HQ-A":    "armour headquarters",
	"AT":      "anti-tank",
	"AA":      "anti-aircraft",
	"ART":     "field artillery",
	"SKI":     "ski",
	"REPL":    "replacement",
	"CMDO":    "commando",
	"CHINDIT": "Chindit",
	"PART":    "partisan",
}

// UnitTypes lists the accepted unit types.
func UnitTypes() []string {
	out := make([]string, 0, len(unitTypes))
	for t := range unitTypes {
		out = append(out, t)
	}
	return out
}

var sizes = []string{"corps", "army", "division", "brigade"}

// IsArtillery reports AT, AA and ART units (AsA 3.2).
func (u *Unit) IsArtillery() bool { return u.Type == "AT" || u.Type == "AA" || u.Type == "ART" }

// Japanese reports a Japanese unit (the jungle modifier, docs/rules.md §2.1).
func (u *Unit) Japanese() bool { return nationIn(u.Nation, "JA", "JP", "JAP", "JAPAN") }

// ColdWeather reports a unit that counts toward the winter "attack as mud"
// election: ski, Russian white-print, Finnish, Swedish or Norwegian.
func (u *Unit) ColdWeather() bool {
	return u.Ski || u.Type == "SKI" || u.WhitePrint ||
		nationIn(u.Nation, "FI", "FIN", "FINLAND", "SW", "SWE", "SE", "SWEDEN", "NO", "NOR", "NORWAY")
}

// IsTerritorial reports a territorial unit (AfA 3.2).
func (u *Unit) IsTerritorial() bool { return u.Territorial || u.Type == "TERR" }

func nationIn(n string, codes ...string) bool {
	for _, c := range codes {
		if strings.EqualFold(n, c) {
			return true
		}
	}
	return false
}
