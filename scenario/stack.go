package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wifodds/wifodds/internal/yamlx"
)

// Bounds on a stack line, checked before anything is built from it.
const (
	MaxStackText  = 2000 // characters
	MaxStackCount = 20   // units of one kind ("20x INF 4 GE")
	MaxStackUnits = 64   // units in all
)

// StackUnit is one unit of a stack a player wrote on one line: the keys a
// scenario file's unit has, in its order.
type StackUnit struct {
	Type     string  `json:"type"`
	Size     string  `json:"size"`
	Factors  float64 `json:"factors"`
	Nation   string  `json:"nation"`
	FaceDown bool    `json:"face_down,omitempty"`
	// Supply is false only for a unit written out of supply ("oos").
	Supply *bool `json:"supply,omitempty"`
}

// stackWords are the other words a stack line takes: sizes and flags.
var stackWords = map[string]string{
	"corps": "size=corps", "army": "size=army", "division": "size=division", "div": "size=division",
	"brigade": "size=brigade", "bde": "size=brigade",
	"fd": "face_down", "face-down": "face_down", "facedown": "face_down", "flipped": "face_down",
	"oos": "unsupplied", "unsupplied": "unsupplied", "out-of-supply": "unsupplied",
}

// typeWords are the names players write for unit types besides the codes.
var typeWords = map[string]UnitType{
	"infantry": INF, "inf": INF, "armour": ARM, "armor": ARM, "tank": ARM, "tanks": ARM, "panzer": ARM,
	"mech": MECH, "mechanised": MECH, "mechanized": MECH, "motorised": MECH, "motorized": MECH, "mot": MECH,
	"mountain": MTN, "marine": MAR, "marines": MAR, "para": PARA, "paratroops": PARA, "cavalry": CAV,
	"militia": MIL, "garrison": GARR, "territorial": TERR, "artillery": ART, "ski": SKI,
	"commando": CMDO, "partisan": PART, "partisans": PART,
}

// ParseStack reads the units a player writes on one line, as in
// "3x INF 4 GE, ARM 6 Germany": items separated by commas, semicolons or
// new lines; in each, an optional count ("3x", "3 x", "3×"), a unit type
// (a code or its name, any case), the factors, the nation (any spelling
// the scenario format takes, docs/scenario-format.md), and optionally a
// size (corps when not given, as in a scenario file), "fd" for face-down
// and "oos" for out of supply. An item that names no nation takes the
// nation of the item before it ("3x INF 4 GE, ARM 6" is German armour, as
// players say it); an item naming one switches to it. The first item must
// name one. A word it does not know is an error naming the item, with the
// nearest word it knows; nothing else is guessed.
func ParseStack(text string) ([]StackUnit, error) {
	if len(text) > MaxStackText {
		return nil, fmt.Errorf("the stack is %d characters long; at most %d", len(text), MaxStackText)
	}
	items := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ';' || r == '\n' || r == '\r' })
	var out []StackUnit
	n, nation := 0, ""
	for _, item := range items {
		if strings.TrimSpace(item) == "" {
			continue
		}
		n++
		count, u, err := parseStackItem(item, nation)
		if err != nil {
			return nil, fmt.Errorf("unit %d (%q): %v", n, strings.TrimSpace(item), err)
		}
		if len(out)+count > MaxStackUnits {
			return nil, fmt.Errorf("unit %d (%q): more than %d units in all", n, strings.TrimSpace(item), MaxStackUnits)
		}
		nation = u.Nation
		for range count {
			out = append(out, u)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no units: write them as in \"3x INF 4 GE, ARM 6 GE\"")
	}
	return out, nil
}

// parseStackItem reads one item: its count and its unit, whose nation is
// carried, the previous item's, when the item names none ("" for the
// first item: then a nation is needed).
func parseStackItem(item, carried string) (int, StackUnit, error) {
	toks := strings.Fields(item)
	u := StackUnit{Size: "corps"}
	count, haveCount, haveFactors := 0, false, false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		lower := strings.ToLower(t)
		// The count: "3x", "3×", "3*", or "3" followed by "x". A count
		// under one ("0x") is an error, not one unit and not a nation.
		if c, ok := countToken(lower); ok && !haveCount && u.Type == "" {
			if c < 1 {
				return 0, u, fmt.Errorf("count %q: a count must be at least 1", t)
			}
			count, haveCount = c, true
			continue
		}
		if i+1 < len(toks) && !haveCount && u.Type == "" && isCountMark(strings.ToLower(toks[i+1])) {
			c, err := strconv.Atoi(t)
			if err == nil {
				if c < 1 {
					return 0, u, fmt.Errorf("count %q: a count must be at least 1", t+" "+toks[i+1])
				}
				count, haveCount = c, true
				i++
				continue
			}
		}
		if f, ok := decimal(t); ok {
			if haveFactors {
				return 0, u, fmt.Errorf("two factor numbers, %v and %s: write one", u.Factors, t)
			}
			if f < 0 || f > 100 {
				return 0, u, fmt.Errorf("factors %s: want 0 to 100", t)
			}
			u.Factors, haveFactors = f, true
			continue
		}
		if ty, ok := unitTypeOf(t); ok {
			if u.Type != "" {
				return 0, u, fmt.Errorf("two unit types, %s and %s: write one unit kind per item, separated by commas", u.Type, ty)
			}
			u.Type = string(ty)
			continue
		}
		if w, ok := stackWords[lower]; ok {
			switch {
			case strings.HasPrefix(w, "size="):
				u.Size = strings.TrimPrefix(w, "size=")
			case w == "face_down":
				u.FaceDown = true
			default:
				no := false
				u.Supply = &no
			}
			continue
		}
		// A nation may take several words ("Soviet Union"): the longest
		// run of words that spells one.
		if code, used := nationAt(toks[i:]); used > 0 {
			if u.Nation != "" && u.Nation != code {
				return 0, u, fmt.Errorf("two nations, %s and %s", u.Nation, code)
			}
			u.Nation = code
			i += used - 1
			continue
		}
		return 0, u, unknownWord(t)
	}
	switch {
	case count == 0:
		count = 1
	case count > MaxStackCount:
		return 0, u, fmt.Errorf("%d units of one kind: at most %d", count, MaxStackCount)
	}
	if u.Type == "" {
		return 0, u, fmt.Errorf("no unit type: start with one of INF, ARM, MECH, MTN, MAR, PARA, CAV, MIL, … (docs/scenario-format.md)")
	}
	if !haveFactors {
		return 0, u, fmt.Errorf("no factors: add the unit's combat factors, e.g. %s 4", u.Type)
	}
	if u.Nation == "" {
		u.Nation = carried
	}
	if u.Nation == "" {
		return 0, u, fmt.Errorf("no nation: add one, e.g. GE or Germany")
	}
	return count, u, nil
}

// countToken reads "3x", "3×" or "3*".
func countToken(s string) (int, bool) {
	for _, mark := range []string{"x", "×", "*"} {
		if num, ok := strings.CutSuffix(s, mark); ok && num != "" {
			c, err := strconv.Atoi(num)
			return c, err == nil
		}
	}
	return 0, false
}

// decimal reads factors as players write them: digits with at most one
// point ("4", "2.5"), not what ParseFloat also takes ("inf", "1e3").
func decimal(s string) (float64, bool) {
	digits, point := 0, 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '.':
			point++
		default:
			return 0, false
		}
	}
	if digits == 0 || point > 1 || len(s) > 8 {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

func isCountMark(s string) bool { return s == "x" || s == "×" || s == "*" }

// unitTypeOf matches a unit type's code (any case) or a name for it.
func unitTypeOf(s string) (UnitType, bool) {
	for _, t := range sortedUnitTypes() {
		if strings.EqualFold(s, t) {
			return UnitType(t), true
		}
	}
	t, ok := typeWords[strings.ToLower(s)]
	return t, ok
}

// nationAt matches the longest run of words at the start of toks that
// spells a nation, up to three words.
func nationAt(toks []string) (code string, used int) {
	for n := min(3, len(toks)); n > 0; n-- {
		if c, ok := LookupNation(strings.Join(toks[:n], " ")); ok {
			return c, n
		}
	}
	return "", 0
}

// unknownWord is the error for a word that is no type, nation, size or
// flag, with the nearest one that is (within two edits); on a tie a unit
// type comes first, then a nation, then the other words.
func unknownWord(w string) error {
	types := append([]string(nil), sortedUnitTypes()...)
	var others []string
	for k := range typeWords {
		types = append(types, strings.ToUpper(k))
	}
	for k := range stackWords {
		others = append(others, strings.ToUpper(k))
	}
	slices.Sort(types)
	slices.Sort(others)
	best, bestD := "", 3
	up := strings.ToUpper(w)
	if len(up) > 24 {
		// Two edits from no known word: skip the distances, which cost
		// the word's length times each known word's.
		up = ""
	}
	for _, group := range [][]string{types, nationSpellings(), others} {
		for _, k := range group {
			if d := yamlx.Distance(up, k); up != "" && d < bestD {
				best, bestD = k, d
			}
		}
	}
	msg := fmt.Sprintf("unknown word %q: not a unit type, nation, size, fd or oos", w)
	if best != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", suggestion(best))
	}
	return fmt.Errorf("%s", msg)
}

// suggestion words a near match: a nation with its code and name.
func suggestion(c string) string {
	if code, ok := LookupNation(c); ok {
		return fmt.Sprintf("%s, %s", code, nationName(code))
	}
	if t, ok := unitTypeOf(c); ok {
		return string(t)
	}
	return strings.ToLower(c)
}
