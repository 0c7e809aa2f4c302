package scenario

import (
	"sort"
	"strings"
)

// Nation is a nationality a unit may have: its code, its name and the other
// spellings a player may write for it.
type Nation struct {
	Code    string
	Name    string
	Aliases []string
}

// Nations are the major powers and minor countries of World in Flames and
// its kits. A unit's nation is matched against every code, name and alias
// without regard to case, and stored as the code, so "GE", "GER" and
// "Germany" are one nationality everywhere nationality matters (the
// multinational modifier, jungle, LS, marines, the winter election).
// The Commonwealth's dominions and India are Commonwealth units.
var Nations = []Nation{
	{"GE", "Germany", []string{"GER", "DE", "DEU", "German"}},
	{"IT", "Italy", []string{"ITA", "Italian"}},
	{"JA", "Japan", []string{"JP", "JAP", "JPN", "Japanese"}},
	{"FR", "France", []string{"FRA", "French"}},
	{"CW", "Commonwealth", []string{"UK", "GB", "BR", "British", "Britain", "United Kingdom", "Australia", "Canada", "India", "South Africa", "New Zealand"}},
	{"US", "United States", []string{"USA", "America", "American"}},
	{"USSR", "Soviet Union", []string{"SU", "RU", "Russia", "Russian", "Soviet"}},
	{"CH", "Nationalist China", []string{"China", "Chinese", "NC"}},
	{"CC", "Communist China", []string{"Chinese Communists"}},
	{"FI", "Finland", []string{"FIN", "Finnish"}},
	{"SW", "Sweden", []string{"SWE", "SE", "Swedish"}},
	{"NO", "Norway", []string{"NOR", "Norwegian"}},
	{"RO", "Rumania", []string{"Romania", "RUM", "ROM", "ROU"}},
	{"HU", "Hungary", []string{"HUN", "Hungarian"}},
	{"BU", "Bulgaria", []string{"BG", "BUL", "Bulgarian"}},
	{"SP", "Spain", []string{"ES", "ESP", "Spanish"}},
	{"TU", "Turkey", []string{"TR", "TUR", "Turkish"}},
	{"VF", "Vichy France", []string{"Vichy"}},
	{"NL", "Netherlands", []string{"NED", "Dutch", "Holland"}},
	{"BE", "Belgium", []string{"BEL", "Belgian"}},
	{"PO", "Poland", []string{"PL", "POL", "Polish"}},
	{"YU", "Yugoslavia", []string{"YUG", "Yugoslav"}},
	{"GR", "Greece", []string{"GRE", "Greek"}},
	{"AL", "Albania", []string{"ALB"}},
	{"AUT", "Austria", []string{"Austrian"}},
	{"CZ", "Czechoslovakia", []string{"CZE"}},
	{"DK", "Denmark", []string{"DEN", "Danish"}},
	{"EI", "Ireland", []string{"IE", "Eire", "Irish"}},
	{"PT", "Portugal", []string{"POR", "Portuguese"}},
	{"SZ", "Switzerland", []string{"SUI", "Swiss"}},
	{"EE", "Estonia", []string{"EST"}},
	{"LV", "Latvia", []string{"LAT"}},
	{"LT", "Lithuania", []string{"LIT"}},
	{"PE", "Persia", []string{"Iran", "IR"}},
	{"IQ", "Iraq", []string{"IRQ"}},
	{"EG", "Egypt", []string{"EGY"}},
	{"SA", "Saudi Arabia", []string{"Saudi"}},
	{"TH", "Siam", []string{"Thailand", "SI", "Thai"}},
	{"MA", "Manchukuo", []string{"MAN"}},
	{"MO", "Mongolia", []string{"MGL", "Mongolian"}},
	{"AF", "Afghanistan", []string{"AFG"}},
	{"ET", "Ethiopia", []string{"Abyssinia", "ETH"}},
	{"LI", "Liberia", []string{"LBR"}},
	{"MX", "Mexico", []string{"MEX"}},
	{"BZ", "Brazil", []string{"BRA"}},
	{"AR", "Argentina", []string{"ARG"}},
}

// nationIndex maps every spelling, upper-cased, to its code.
var nationIndex = func() map[string]string {
	m := map[string]string{}
	for _, n := range Nations {
		for _, s := range append([]string{n.Code, n.Name}, n.Aliases...) {
			m[strings.ToUpper(s)] = n.Code
		}
	}
	return m
}()

// LookupNation returns the code of the nation a player wrote, matched
// without regard to case, and whether it is known.
func LookupNation(s string) (string, bool) {
	c, ok := nationIndex[strings.ToUpper(strings.TrimSpace(s))]
	return c, ok
}

// nationSpellings lists every spelling, upper-cased and sorted, for
// suggestions.
func nationSpellings() []string {
	out := make([]string, 0, len(nationIndex))
	for s := range nationIndex {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// nationName is the name of the nation with code.
func nationName(code string) string {
	for _, n := range Nations {
		if n.Code == code {
			return n.Name
		}
	}
	return code
}
