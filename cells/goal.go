package cells

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wifodds/wifodds/crt"
)

// Goal is a designer's target for one figure over some of a battery's
// scenarios, e.g. hex_taken@3:1,clear>=0.75: the mean of the figure over
// the scenarios selected must be at least (or at most) Target.
type Goal struct {
	Spec    string
	Figure  string // a metric's name, or LossesPerHex
	AtLeast bool
	Target  float64
	// Select are the selector's terms: odds levels of the table (a
	// scenario's base odds, before any fractional-odds roll), terrains
	// and weathers; a scenario is selected when it matches every one.
	Select []string
	in     []bool // by scenario: selected
	metric int    // the metric's index; -1 for LossesPerHex
}

// LossesPerHex is the figure E[attacking units lost] / P(hex taken) over
// the scenarios selected: the attacker's price of a hex.
const LossesPerHex = "att_losses_per_hex"

// MaxGoals bounds the goals of one search.
const MaxGoals = 32

// ParseGoal reads FIGURE[@SELECT,...](>=|<=)VALUE against the battery:
// FIGURE is a headline metric (Metrics) or att_losses_per_hex; each
// selector term an odds level of t, a terrain or a weather. A selector
// that selects no scenario is an error.
func ParseGoal(spec string, t *crt.Table, scs []*Scenario) (Goal, error) {
	g := Goal{Spec: spec}
	i := strings.Index(spec, ">=")
	if j := strings.Index(spec, "<="); i < 0 || j >= 0 && j < i {
		i = j
	}
	// "<=1:2" is an odds label: the operator is the last one.
	if k := max(strings.LastIndex(spec, ">="), strings.LastIndex(spec, "<=")); k > i {
		i = k
	}
	if i < 0 {
		return Goal{}, fmt.Errorf("goal %q: want FIGURE[@SELECT]>=VALUE or <=VALUE, e.g. hex_taken@3:1,clear>=0.75", spec)
	}
	g.AtLeast = spec[i] == '>'
	v, err := strconv.ParseFloat(strings.TrimSpace(spec[i+2:]), 64)
	if err != nil || v != v || v < -1e9 || v > 1e9 {
		return Goal{}, fmt.Errorf("goal %q: value %q: want a number", spec, strings.TrimSpace(spec[i+2:]))
	}
	g.Target = v
	fig, sel, _ := strings.Cut(spec[:i], "@")
	g.Figure = strings.TrimSpace(fig)
	var names []string
	g.metric = -2
	for m, met := range Metrics {
		names = append(names, met.Name)
		if met.Name == g.Figure {
			g.metric = m
		}
	}
	if g.Figure == LossesPerHex {
		g.metric = -1
	}
	if g.metric == -2 {
		return Goal{}, fmt.Errorf("goal %q: unknown figure %q; figures are %s, %s", spec, g.Figure, strings.Join(names, ", "), LossesPerHex)
	}
	type term struct {
		kind, val string
	}
	var terms []term
	for _, x := range strings.Split(sel, ",") {
		x = strings.TrimSpace(x)
		if x == "" {
			continue
		}
		g.Select = append(g.Select, x)
		switch {
		case slices.Contains(crt.Terrains, x):
			terms = append(terms, term{"terrain", x})
		case slices.Contains(crt.Weathers, x):
			terms = append(terms, term{"weather", x})
		default:
			lv := -1
			var levels []string
			for k, l := range t.Levels {
				levels = append(levels, l.String())
				if x == l.String() || !l.Below && x == l.Ratio.String() {
					lv = k
				}
			}
			if lv < 0 {
				return Goal{}, fmt.Errorf("goal %q: selector %q is no odds level of table %s (%s), terrain (%s) or weather (%s)",
					spec, x, t.Name, strings.Join(levels, ", "), strings.Join(crt.Terrains, ", "), strings.Join(crt.Weathers, ", "))
			}
			terms = append(terms, term{"odds", strconv.Itoa(lv)})
		}
	}
	n := 0
	for _, s := range scs {
		c := s.Combat
		ok := true
		for _, tm := range terms {
			switch tm.kind {
			case "terrain":
				ok = ok && c.Scenario.Hex.Terrain == tm.val
			case "weather":
				ok = ok && c.Scenario.Hex.Weather == tm.val
			default:
				ok = ok && !c.Automatic && strconv.Itoa(c.AtOdds[0].Level) == tm.val
			}
		}
		g.in = append(g.in, ok)
		if ok {
			n++
		}
	}
	if n == 0 {
		return Goal{}, fmt.Errorf("goal %q: no scenario of the battery is at %s", spec, strings.Join(g.Select, ", "))
	}
	return g, nil
}

// Value is the goal's figure from every scenario's figures (by scenario,
// by metric): the mean over the scenarios selected, or for LossesPerHex
// the ratio of the means (+Inf when the hex is never taken).
func (g *Goal) Value(figs [][]float64) float64 {
	var sum, att, hex float64
	n := 0
	for i, f := range figs {
		if !g.in[i] {
			continue
		}
		n++
		if g.metric >= 0 {
			sum += f[g.metric]
		} else {
			att += f[metricAttLost]
			hex += f[metricHex]
		}
	}
	if g.metric >= 0 {
		return sum / float64(n)
	}
	if hex == 0 {
		return inf
	}
	return att / hex
}

// Shortfall is how far value is from meeting the goal, 0 when it does.
func (g *Goal) Shortfall(value float64) float64 {
	if g.AtLeast {
		return max(0, g.Target-value)
	}
	return max(0, value-g.Target)
}

var (
	metricHex     = metricIndex("hex_taken")
	metricAttLost = metricIndex("attacker_units_lost")
	inf           = math.Inf(1)
)

func metricIndex(name string) int {
	for i, m := range Metrics {
		if m.Name == name {
			return i
		}
	}
	panic("cells: no metric " + name)
}
