package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wifodds/wifodds/internal/yamlx"
)

// Override applies a variant's overrides to a copy of s, for `wifodds
// compare`. The overrides are comma-separated: crt=NAME|FILE,
// table=auto|assault|blitz, modifier=N, options+=NAME, options-=NAME and
// options=NAME+NAME (replacing the list; options= empties it). A
// variant's cell= edits of its table are taken out before (analysis),
// so the key named when one is unknown lists cell too.
func Override(s *Scenario, overrides string) (*Scenario, error) {
	c := *s
	c.Options = map[string]bool{}
	for k, v := range s.Options {
		c.Options[k] = v
	}
	if strings.TrimSpace(overrides) == "" {
		return &c, nil
	}
	// A key given twice would silently take its last value; an option
	// added or removed twice, or options= beside options+ or options-,
	// would depend on the order. Each is refused.
	seen := map[string]string{}
	changed := "" // the first options+ or options-
	for _, part := range strings.Split(overrides, ",") {
		part = strings.TrimSpace(part)
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("override %q: want key=value, e.g. crt=2d6", part)
		}
		val = strings.TrimSpace(val)
		key = strings.TrimSpace(key)
		slot := key
		switch key {
		case "options+", "options-":
			slot = "option " + val
			if prev, ok := seen["options"]; ok {
				return nil, fmt.Errorf("override %q: %q already sets the whole list of options", part, prev)
			}
			if changed == "" {
				changed = part
			}
		case "options":
			if changed != "" {
				return nil, fmt.Errorf("override %q: options= sets the whole list; %q already changes it", part, changed)
			}
		}
		if prev, ok := seen[slot]; ok {
			return nil, fmt.Errorf("override %q: %q already sets it; give each key once", part, prev)
		}
		seen[slot] = part
		switch key {
		case "crt":
			if val == "" {
				return nil, fmt.Errorf("override %q: crt needs a table name or file", part)
			}
			c.CRT = val
		case "table":
			if val != "auto" && val != "assault" && val != "blitz" {
				return nil, fmt.Errorf("override %q: table is auto, assault or blitz", part)
			}
			c.Table = val
		case "modifier":
			n, err := strconv.Atoi(val)
			if err != nil || n < -30 || n > 30 {
				return nil, fmt.Errorf("override %q: modifier is a whole number from -30 to 30", part)
			}
			c.Modifier = n
		case "options+", "options-":
			if !knownOption(val) {
				return nil, fmt.Errorf("override %q: unknown option %q; options are %s", part, val, strings.Join(AllOptions, ", "))
			}
			c.Options[val] = key == "options+"
			if key == "options-" {
				delete(c.Options, val)
			}
		case "options":
			c.Options = map[string]bool{}
			if val == "" {
				break // options= empties the list
			}
			for _, o := range strings.Split(val, "+") {
				o = strings.TrimSpace(o)
				switch {
				case o == "":
					return nil, fmt.Errorf("override %q: an empty option name; join options with +, e.g. options=wild-results+fractional-odds", part)
				case !knownOption(o):
					return nil, fmt.Errorf("override %q: unknown option %q", part, o)
				case c.Options[o]:
					return nil, fmt.Errorf("override %q: option %s is named twice", part, o)
				}
				c.Options[o] = true
			}
		default:
			return nil, fmt.Errorf("override %q: unknown key %q; use crt, table, modifier, options, options+, options- or cell", part, key)
		}
	}
	if c.Options[FractionalOdds] && c.Options[FractionalOddsD10] {
		return nil, fmt.Errorf("overrides %q: choose one of fractional-odds and fractional-odds-d10", overrides)
	}
	if c.Options[WildResults] && c.Kind == Bombardment {
		return nil, fmt.Errorf("overrides %q: options do not apply to a bombardment", overrides)
	}
	return &c, nil
}

// OneLine is the error for a name, id or key given outside a file (a
// variant's name on the command line or in a query) that is not one line
// of plain text, or nil: printed in a report, a newline in it would forge
// a line. Names read from files are checked as the file is parsed.
func OneLine(text string) error { return yamlx.CheckOneLine(text) }

func knownOption(o string) bool {
	for _, k := range AllOptions {
		if k == o {
			return true
		}
	}
	return false
}
