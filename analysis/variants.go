package analysis

import (
	"fmt"
	"strings"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// VariantError is a variant spec that cannot be read: a caller's usage
// error rather than a scenario's.
type VariantError struct{ Err error }

func (e *VariantError) Error() string { return e.Err.Error() }
func (e *VariantError) Unwrap() error { return e.Err }

// CompileVariants applies each NAME=OVERRIDES spec to the scenario
// (scenario.Override) and compiles it, opening each variant's table with
// open; with a single spec the scenario as written comes first, as the
// baseline. A malformed spec is a *VariantError.
func CompileVariants(s *scenario.Scenario, specs []string, open func(ref string) (*crt.Table, error), air *crt.AirTables) ([]NamedCombat, error) {
	if len(specs) == 1 {
		specs = append([]string{"scenario="}, specs...)
	}
	var vs []NamedCombat
	seen := map[string]bool{}
	for _, spec := range specs {
		name, over, ok := strings.Cut(spec, "=")
		name = strings.TrimSpace(name)
		switch {
		case !ok || name == "":
			return nil, &VariantError{fmt.Errorf("variant %q: want NAME=OVERRIDES, e.g. alt=crt=2d6", spec)}
		case seen[name]:
			return nil, &VariantError{fmt.Errorf("variant %q: the name %s is used twice", spec, name)}
		}
		if err := scenario.OneLine(spec); err != nil {
			return nil, &VariantError{fmt.Errorf("variant: %w", err)}
		}
		seen[name] = true
		rest, cells := CellOverrides(over)
		v, err := scenario.Override(s, rest)
		if err != nil {
			return nil, &VariantError{fmt.Errorf("variant %s: %w", name, err)}
		}
		t, err := open(v.CRT)
		if err == nil && len(cells) > 0 {
			if t, err = t.EditCells(cells); err != nil {
				return nil, &VariantError{fmt.Errorf("variant %s: %w", name, err)}
			}
		}
		if err == nil {
			var cb *combat.Combat
			if cb, err = combat.CompileWith(v, t, air, combat.Options{}); err == nil {
				vs = append(vs, NamedCombat{Name: name, Overrides: strings.TrimSpace(over), Combat: cb})
			}
		}
		if err != nil {
			return nil, fmt.Errorf("variant %s: %w", name, err)
		}
	}
	return vs, nil
}

// CellOverrides takes a variant's cell=TABLE/ODDS/ROLL:RESULT overrides
// (docs/crtlab.md) out of the others: they edit the variant's table once
// it is opened, which the scenario's overrides know nothing of.
func CellOverrides(over string) (rest string, cells []string) {
	var keep []string
	for _, part := range strings.Split(over, ",") {
		if key, val, ok := strings.Cut(part, "="); ok && strings.TrimSpace(key) == "cell" {
			cells = append(cells, strings.TrimSpace(val))
		} else {
			keep = append(keep, part)
		}
	}
	return strings.Join(keep, ","), cells
}

// crtLabel names a variant's table as reports show it: the scenario's
// reference, marked when cell= overrides edited it.
func crtLabel(c *combat.Combat) string {
	if strings.HasPrefix(c.CRT.File, crt.EditedPrefix) {
		return c.Scenario.CRT + " (edited)"
	}
	return c.Scenario.CRT
}
