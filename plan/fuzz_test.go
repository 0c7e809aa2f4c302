package plan

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// FuzzPlan reads plan files and plans them with small limits: whatever
// the file, the planner answers or refuses with an error, never panics,
// and every frontier point and recommendation is a force the plan allows
// (issue 23: a plan file is user input).
func FuzzPlan(f *testing.F) {
	for _, name := range []string{"plan-one-hex.yaml", "plan-front.yaml", "beachhead-plan.yaml", "coastal-front.yaml"} {
		b, err := os.ReadFile("../examples/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("kind: land\ncrt: standard\nhex: {terrain: clear}\ndefender: {units: [{type: INF, factors: 2, nation: USSR}]}\n" +
		"attacker:\n  units: [{type: ARM, factors: 3, nation: GE}]\n  available:\n    - {id: a, type: INF, factors: 2.5, nation: IT}\n    - {id: b, type: TERR, size: division, factors: 1, nation: JA}\n" +
		"  support_available: [{id: s, a2a: 2, tactical: 3}]\noptions: [blitz-modifier]\nplan: {cost: expected_factors_lost, target: 0.5, max_units: 2}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16<<10 {
			return
		}
		s, err := scenario.Parse("fuzz.yaml", data)
		if err != nil || !s.IsPlan() {
			return
		}
		name := s.CRT
		if len(s.Plan.CRTs) > 0 {
			name = s.Plan.CRTs[0]
		}
		tb, err := crt.Builtin(name)
		if err != nil {
			return // a table file: the fuzzer reads none
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res, err := Plan(ctx, s, Config{Tables: []Table{{Name: name, Table: tb}}, MaxForces: 3000, Budget: 20000,
			Sample: sim.Config{Trials: 2000, Seed: 1, Workers: 1}, Workers: 2})
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("a plan within 3000 states ran past 10 s")
			}
			return
		}
		limit := s.Plan.MaxUnits
		if limit == 0 {
			limit = len(s.Attacker.Available) + len(s.Attacker.SupportAvailable)
		}
		hq := map[string]bool{}
		for _, sp := range s.Attacker.SupportAvailable {
			hq[sp.ID] = sp.HQ
		}
		for _, fo := range append(res.Frontier, res.Recommended) {
			if fo != nil && len(fo.Units) > limit {
				t.Errorf("a force of %d units passes max_units %d", len(fo.Units), limit)
			}
			for _, h := range fo.hexes() {
				n := 0
				for _, id := range h {
					if hq[id] {
						n++
					}
				}
				if n > 1 {
					t.Errorf("%d HQs support one hex: %v", n, h)
				}
			}
		}
	})
}

// hexes are the units and support a force sends to each hex: a front's
// hexes, or its one hex; none for no force.
func (f *Force) hexes() [][]string {
	if f == nil {
		return nil
	}
	if len(f.Hexes) == 0 {
		return [][]string{f.Units}
	}
	var out [][]string
	for _, h := range f.Hexes {
		out = append(out, h.Units)
	}
	return out
}
