package combat

import (
	"fmt"
	"strconv"

	"github.com/wifodds/wifodds/scenario"
)

// Step is one line of the working --explain shows: what was done and the
// rule it follows.
type Step struct {
	Text string
	Rule string
}

func (s Step) String() string {
	if s.Rule == "" {
		return s.Text
	}
	return s.Text + "  [" + s.Rule + "]"
}

// Lines is the working as text lines, as summaries carry it.
func Lines(steps []Step) []string {
	out := make([]string, len(steps))
	for i, st := range steps {
		out[i] = st.String()
	}
	return out
}

// armoured reports units AT and AA double against (AsA 3.2.1): ARM, ARM
// divisions, and MECH.
// Armour whose mechanized component is negated acts as infantry (AWAW 10.32).
func armoured(u *scenario.Unit) bool {
	return (u.Type == scenario.ARM || u.Type == scenario.MECH) && !u.MechNegated
}

func anyArmoured(us []scenario.Unit) bool {
	for i := range us {
		if armoured(&us[i]) {
			return true
		}
	}
	return false
}

// towedOnly reports a stack of towed AT, towed ART and AA units only (AA
// units are all towed, AsA 3.2).
func towedOnly(us []scenario.Unit) bool {
	if len(us) == 0 {
		return false
	}
	for i := range us {
		u := &us[i]
		if !(u.Type == scenario.AA || (u.Type == scenario.AT || u.Type == scenario.ART) && u.Towed && !u.Katyusha) {
			return false
		}
	}
	return true
}

// unitFactors applies docs/rules.md §3's per-unit factor rules to one side and
// returns each unit's factor before side-wide multipliers in out (one per
// unit), with the working. faceDown, when given, overrides the units'
// face_down flags (ground strikes turn defenders face-down).
func unitFactors(out []float64, side, enemy []scenario.Unit, defending bool, who string, faceDown []bool, awaw, explain bool) ([]float64, []Step) {
	var steps []Step
	towed := defending && towedOnly(side)
	enemyArm := anyArmoured(enemy)
	for i := range side {
		u := &side[i]
		f := u.Factors
		down := u.FaceDown
		if faceDown != nil {
			down = faceDown[i]
		}
		var why []string
		var rules []string
		note := func(text, rule string) {
			why = append(why, text)
			rules = append(rules, rule)
		}
		switch {
		case defending && u.Type == scenario.REPL && awaw:
			f = 1
			note("replacement defending: 1", "rules §6, AWAW 10.23")
		case towed && u.IsArtillery() && !u.Katyusha:
			f = 1
			note("towed artillery alone in its stack: 1", "rules §3, AsA 3.2")
		case u.IsArtillery() && down && !u.Supply:
			f = 1
			note("face-down and out of supply: 1", "rules §3, AsA 3.2")
		case defending && !u.IsCorps() && down && !u.Supply:
			f = 1
			note("division attacked face-down and out of supply: 1", "rules §3, AsA 3.2")
		}
		if u.RedCircle == "dark" && enemyArm || u.RedCircle == "light" && defending && enemyArm {
			f *= 2
			note(u.RedCircle+" red circle against enemy ARM: doubled", "rules §3, AsA 3.2.1")
		}
		out[i] = f
		if !explain {
			continue
		}
		text := fmt.Sprintf("%s %s: %s", who, u.Label(), num(u.Factors))
		for j := range why {
			text += "; " + why[j]
		}
		if len(why) > 0 {
			text += " -> " + num(f)
		}
		rule := ""
		if len(rules) > 0 {
			rule = rules[0]
		}
		steps = append(steps, Step{text, rule})
	}
	return out, steps
}

// num formats a factor total without trailing zeros.
// (fmt's %g, which the planner paid for on every combat's table choice.)
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
