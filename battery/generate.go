package battery

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// MaxGenerated bounds a generated battery.
const MaxGenerated = 100_000

// Axis is one dimension of a generated battery: a scenario key and the
// values it takes.
type Axis struct {
	Key    string
	Values []string
}

// AxisKeys are the keys an axis may vary.
var AxisKeys = []string{"attack", "defence", "modifier", "terrain", "weather"}

// ParseAxis reads KEY=VALUES: a range LO..HI of whole numbers (attack,
// defence, modifier) or a comma-separated list.
func ParseAxis(spec string) (Axis, error) {
	key, vals, ok := strings.Cut(spec, "=")
	key = strings.TrimSpace(key)
	if key == "defense" {
		key = "defence"
	}
	if !ok || !slices.Contains(AxisKeys, key) {
		return Axis{}, fmt.Errorf("axis %q: want KEY=VALUES with KEY one of %s", spec, strings.Join(AxisKeys, ", "))
	}
	a := Axis{Key: key}
	if strings.Contains(vals, "..") {
		r, err := analysis.ParseRange(vals)
		if err != nil || r.Hi-r.Lo >= 1000 {
			return Axis{}, fmt.Errorf("axis %q: want LO..HI with whole numbers, at most 1000 values", spec)
		}
		for v := r.Lo; v <= r.Hi; v++ {
			a.Values = append(a.Values, strconv.Itoa(v))
		}
	} else {
		if strings.TrimSpace(vals) == "" {
			return Axis{}, fmt.Errorf("axis %q: no values", spec)
		}
		for _, v := range strings.Split(vals, ",") {
			if v = strings.TrimSpace(v); v == "" {
				return Axis{}, fmt.Errorf("axis %q: an empty value (a stray comma?)", spec)
			}
			a.Values = append(a.Values, v)
		}
	}
	// A value twice would make the same scenario twice, two rows of one
	// name; 13 and 013 are the same number.
	seen := map[string]bool{}
	for _, v := range a.Values {
		if err := checkValue(a.Key, v); err != nil {
			return Axis{}, fmt.Errorf("axis %q: %w", spec, err)
		}
		same := v
		if n, err := strconv.Atoi(v); err == nil {
			same = strconv.Itoa(n)
		}
		if seen[same] {
			return Axis{}, fmt.Errorf("axis %q: %s is named twice", spec, v)
		}
		seen[same] = true
	}
	return a, nil
}

func checkValue(key, v string) error {
	switch key {
	case "terrain":
		if !slices.Contains(crt.Terrains, v) {
			return fmt.Errorf("unknown terrain %q (terrains: %s)", v, strings.Join(crt.Terrains, ", "))
		}
	case "weather":
		if !slices.Contains(scenario.Weathers, v) {
			return fmt.Errorf("unknown weather %q (weathers: %s)", v, strings.Join(scenario.Weathers, ", "))
		}
	case "modifier":
		n, err := strconv.Atoi(v)
		if err != nil || n < -crt.MaxModifier || n > crt.MaxModifier {
			return fmt.Errorf("modifier %q: a whole number from -%d to %d", v, crt.MaxModifier, crt.MaxModifier)
		}
	default:
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1000 {
			return fmt.Errorf("%s %q: a whole number from 0 to 1000", key, v)
		}
	}
	return nil
}

// Generate makes the battery of every combination of the axes' values
// applied to the template, the first axis varying slowest. An attack
// (defence) total is reached by setting the side's ground support, as a
// sweep does; a total below what the side's units already bring is
// skipped, and each skip is noted. open and air give the template's
// tables, to work out the units' totals.
func Generate(t *scenario.Scenario, axes []Axis, open func(ref string) (*crt.Table, error), air *crt.AirTables) ([]Item, []string, error) {
	if t.Kind == scenario.Bombardment || t.IsPlan() {
		return nil, nil, fmt.Errorf("%s: a battery template is a land combat, invasion or paradrop", t.File)
	}
	total := 1
	for i, a := range axes {
		// A second axis of the same key would overwrite the first in
		// every scenario while both label it.
		for _, b := range axes[:i] {
			if b.Key == a.Key {
				return nil, nil, fmt.Errorf("axis %s is given twice; give each key once", a.Key)
			}
		}
		total *= len(a.Values)
		if total > MaxGenerated {
			return nil, nil, fmt.Errorf("the axes make more than %d scenarios", MaxGenerated)
		}
	}
	table, err := open(t.CRT)
	if err != nil {
		return nil, nil, err
	}
	var items []Item
	skipped := 0
	idx := make([]int, len(axes))
	for n := 0; n < total; n++ {
		rem := n
		for i := len(axes) - 1; i >= 0; i-- {
			idx[i] = rem % len(axes[i].Values)
			rem /= len(axes[i].Values)
		}
		s := *t
		var label []string
		var attack, defence = -1, -1
		for i, a := range axes {
			v := a.Values[idx[i]]
			label = append(label, a.Key+"="+v)
			switch a.Key {
			case "terrain":
				s.Hex.Terrain = v
			case "weather":
				s.Hex.Weather = v
			case "modifier":
				s.Modifier, _ = strconv.Atoi(v)
			case "attack":
				attack, _ = strconv.Atoi(v)
			case "defence":
				defence, _ = strconv.Atoi(v)
			}
		}
		if attack >= 0 || defence >= 0 {
			base := s
			base.Attacker.GroundSupport, base.Defender.GroundSupport = 0, 0
			c, err := combat.CompileWith(&base, table, air, combat.Options{})
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", strings.Join(label, " "), err)
			}
			if attack >= 0 {
				if s.Attacker.GroundSupport = float64(attack) - c.RawAttack; s.Attacker.GroundSupport < 0 {
					skipped++
					continue
				}
			}
			if defence >= 0 {
				if s.Defender.GroundSupport = float64(defence) - c.RawDefence; s.Defender.GroundSupport < 0 {
					skipped++
					continue
				}
			}
		}
		name := strings.TrimSpace(t.Name + " " + strings.Join(label, " "))
		s.Name = name
		src := append(append([]byte{}, t.Source...), []byte("\n# generated: "+strings.Join(label, " "))...)
		items = append(items, Item{Name: name, Scenario: &s, Source: src})
	}
	var notes []string
	if skipped > 0 {
		notes = append(notes, fmt.Sprintf("%d combination(s) skipped: a total below what the units already bring", skipped))
	}
	if len(items) == 0 {
		return nil, notes, fmt.Errorf("the axes leave no scenario: every total is below what the units already bring")
	}
	return items, notes, nil
}
