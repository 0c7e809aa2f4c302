package analysis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// MaxSweepTotal is the largest total a sweep sets: past any real stack
// (ground support is at most 500), and where every step is still distinct.
const MaxSweepTotal = 1000

// MaxSweepSteps is the most totals one sweep computes.
const MaxSweepSteps = 501

// Axis is the total a sweep varies.
type Axis string

// The totals a sweep may vary.
const (
	Attack  Axis = "attack"
	Defence Axis = "defence"
)

// Range is a whole-number range lo..hi.
type Range struct{ Lo, Hi int }

// ParseRange reads LO..HI: whole numbers, LO at most HI. The error says
// what is wanted; the caller names the flag or parameter.
func ParseRange(s string) (Range, error) {
	a, b, ok := strings.Cut(s, "..")
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || hi < lo {
		return Range{}, errors.New("want LO..HI with whole numbers, e.g. 2..40")
	}
	return Range{Lo: lo, Hi: hi}, nil
}

// Sweep varies a scenario's attack (or defence) total, and optionally its
// die-roll modifier, under one or more CRTs, and computes each step
// exactly.
type Sweep struct {
	Scenario  string   `json:"scenario"`
	Axis      Axis     `json:"axis"`
	Method    string   `json:"method"`
	CRTs      []string `json:"crts"`
	Modifiers []int    `json:"modifiers"`
	// BaseModifier is the scenario's own die-roll modifier.
	BaseModifier int         `json:"base_modifier"`
	Steps        []SweepStep `json:"steps"`
	Notes        []string    `json:"notes"`
	// Reached answers a target P(hex taken), when one was asked for.
	Reached []Reached `json:"target,omitempty"`
}

// Reached is the smallest total of a sweep (largest for a defence sweep)
// at which P(hex taken) reaches a target, under one CRT and modifier.
type Reached struct {
	CRT      string  `json:"crt"`
	Modifier int     `json:"modifier"`
	Target   float64 `json:"target"`
	Found    bool    `json:"found"`
	Total    float64 `json:"total,omitempty"` // the attack (defence) total
	Odds     string  `json:"odds,omitempty"`
	HexTaken float64 `json:"hex_taken,omitempty"`
}

// Reach finds, under each CRT and modifier, the first step whose P(hex
// taken) is at least target: the smallest attack total that reaches it,
// or for a defence sweep the smallest defence that still lets it.
func (sw *Sweep) Reach(target float64) []Reached {
	var out []Reached
	idx := map[string]int{}
	for _, st := range sw.Steps {
		key := fmt.Sprintf("%s\x00%d", st.CRT, st.Modifier)
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			out = append(out, Reached{CRT: st.CRT, Modifier: st.Modifier, Target: target})
		}
		r := &out[i]
		total := st.Attack
		if sw.Axis == Defence {
			total = st.Defence
		}
		// Attack: the first step that reaches it. Defence: the last step
		// (the strongest defence) that still lets it.
		if st.HexTaken >= target && (!r.Found || sw.Axis == Defence) {
			r.Found, r.Total, r.Odds, r.HexTaken = true, total, st.Odds, st.HexTaken
		}
	}
	return out
}

// SweepStep is one point of a sweep.
type SweepStep struct {
	CRT          string         `json:"crt"`
	Modifier     int            `json:"modifier"`
	Attack       float64        `json:"attack"`
	Defence      float64        `json:"defence"`
	Odds         string         `json:"odds"`         // the odds level read (before any fractional-odds roll)
	OddsChanged  bool           `json:"odds_changed"` // a different level from the previous step
	HexTaken     float64        `json:"hex_taken"`
	Breakthrough float64        `json:"breakthrough"`
	AttackerLost float64        `json:"attacker_units_lost"`
	DefenderLost float64        `json:"defender_units_lost"`
	Results      Keyed[float64] `json:"results"`
}

// RunSweep sweeps s: for every CRT in tables, every modifier in mods (the
// scenario's own when empty) and every total in axis, the attacking (or
// defending) side's ground support is set so that its total before
// rounding is that value, and the combat is computed exactly. Totals below
// what the side's units already bring are skipped with a note.
//
// It stops with an error wrapping ctx.Err() when ctx is cancelled, and calls
// progress, when set, after each step with the steps done and planned.
func RunSweep(ctx context.Context, s *scenario.Scenario, tables []*crt.Table, air *crt.AirTables, axis Axis, r Range, mods []int, budget int, progress func(done, planned uint64)) (*Sweep, error) {
	if axis != Attack && axis != Defence {
		return nil, fmt.Errorf("analysis: sweep axis %q: want attack or defence", axis)
	}
	if r.Lo < 0 || r.Hi < r.Lo || r.Hi > MaxSweepTotal || r.Hi-r.Lo >= MaxSweepSteps {
		return nil, fmt.Errorf("analysis: sweep range %d..%d: want totals from 0 to %d, at most %d steps", r.Lo, r.Hi, MaxSweepTotal, MaxSweepSteps)
	}
	if len(mods) == 0 {
		mods = []int{s.Modifier}
	}
	// A table swept twice would print each of its rows twice.
	seen := map[string]bool{}
	for _, t := range tables {
		if seen[t.Name] {
			return nil, fmt.Errorf("analysis: sweep CRT %s is given twice", t.Name)
		}
		seen[t.Name] = true
	}
	sw := &Sweep{Scenario: s.Name, Axis: axis, Method: sim.MethodExact, Modifiers: mods, BaseModifier: s.Modifier, Notes: []string{}}
	var notes noteSet
	done, planned := uint64(0), uint64(len(tables)*len(mods)*(r.Hi-r.Lo+1))
	for _, t := range tables {
		sw.CRTs = append(sw.CRTs, t.Name)
		for _, mod := range mods {
			base := *s
			base.Modifier = mod
			base.Attacker.GroundSupport, base.Defender.GroundSupport = 0, 0
			c0, err := combat.CompileWith(&base, t, air, combat.Options{})
			if err != nil {
				return nil, err
			}
			from := c0.RawAttack
			if axis == Defence {
				from = c0.RawDefence
			}
			prev := ""
			skipped := 0
			for x := r.Lo; x <= r.Hi; x++ {
				// A step answered from its flat table never looks at ctx
				// inside sim.Exact, so the sweep looks between steps.
				if err := ctx.Err(); err != nil {
					return nil, fmt.Errorf("sweep stopped after %d of %d steps: %w", done, planned, err)
				}
				extra := float64(x) - from
				if extra < 0 {
					skipped++
					done++
					continue
				}
				v := base
				if axis == Attack {
					v.Attacker.GroundSupport = extra
				} else {
					v.Defender.GroundSupport = extra
				}
				c, err := combat.CompileWith(&v, t, air, combat.Options{})
				if err != nil {
					return nil, err
				}
				tally, run, err := sim.Exact(ctx, c, budget, nil)
				if err != nil {
					return nil, fmt.Errorf("sweep step %s %d: %w", axis, x, err)
				}
				done++
				if progress != nil {
					progress(done, planned)
				}
				sum := Summarize(c, tally, run)
				st := SweepStep{CRT: t.Name, Modifier: mod, Attack: c.Attack, Defence: c.Defence, Odds: c.AtOdds[0].Odds,
					HexTaken: sum.Probabilities.HexTaken.P, Breakthrough: sum.Probabilities.Breakthrough.P,
					AttackerLost: sum.Means.AttackerUnitsLost.Mean, DefenderLost: sum.Means.DefenderUnitsLost.Mean, Results: sum.Results}
				st.OddsChanged = prev != "" && st.Odds != prev
				prev = st.Odds
				sw.Steps = append(sw.Steps, st)
			}
			if skipped > 0 {
				notes.add(fmt.Sprintf("%s: %d step(s) below the %s the units already bring (%s) skipped", t.Name, skipped, axis, num(from)))
			}
		}
	}
	sw.Notes = append(sw.Notes, notes.list("modifier")...)
	return sw, nil
}

func num(x float64) string { return fmt.Sprintf("%g", x) }

// noteSet collects notes, counting repeats, so a note that holds for every
// modifier is said once.
type noteSet struct {
	order []string
	count map[string]int
}

func (n *noteSet) add(s string) {
	if n.count == nil {
		n.count = map[string]int{}
	}
	if n.count[s] == 0 {
		n.order = append(n.order, s)
	}
	n.count[s]++
}

// list is the notes in order, each repeated one with how often it held.
func (n *noteSet) list(what string) []string {
	out := []string{}
	for _, s := range n.order {
		if k := n.count[s]; k > 1 {
			s += fmt.Sprintf(" (the same for each of %d %ss)", k, what)
		}
		out = append(out, s)
	}
	return out
}

// CurveModifier is the modifier a single curve of the sweep shows: the
// scenario's own when the sweep covers it, else the middle one swept.
func (sw *Sweep) CurveModifier() int {
	for _, m := range sw.Modifiers {
		if m == sw.BaseModifier {
			return m
		}
	}
	return sw.Modifiers[len(sw.Modifiers)/2]
}
