package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/scenario"
)

// planJSON is the part of `plan --format json` these tests read.
type planJSON struct {
	Recommended *forceJSON  `json:"recommended"`
	Frontier    []forceJSON `json:"frontier"`
	Subsets     float64     `json:"evaluated_subsets"`
	Distinct    int         `json:"distinct_combats"`
}

type forceJSON struct {
	Units    []string `json:"units"`
	Cost     float64  `json:"cost"`
	HexTaken struct {
		P float64 `json:"p"`
	} `json:"hex_taken"`
	Breakthrough   float64 `json:"breakthrough"`
	AttackerFaceUp float64 `json:"attacker_face_up"`
	Odds           string  `json:"odds"`
	Table          string  `json:"table"`
	AttUnits       float64 `json:"expected_attacker_units_lost"`
	AttFactors     float64 `json:"expected_attacker_factors_lost"`
	DefUnits       float64 `json:"expected_defender_units_lost"`
	DefFactors     float64 `json:"expected_defender_factors_lost"`
}

// forceScenario writes the force a plan sends as a plain scenario: the
// plan file with the chosen units in attacker.units and the chosen
// support as the scenario format gives it: ground_support, aircraft,
// shore_bombardment and hq_support.
func forceScenario(t *testing.T, s *scenario.Scenario, ids []string) string {
	t.Helper()
	b := &strings.Builder{}
	fmt.Fprintf(b, "kind: %s\ncrt: %s\nhex: {terrain: %s, weather: %s, coastal: %v}\ndefender:\n  units:\n", s.Kind, s.CRT, s.Hex.Terrain, s.Hex.Weather, s.Hex.Coastal)
	unit := func(u *scenario.Unit) string {
		return fmt.Sprintf("{type: %s, size: %s, factors: %v, nation: %s}", u.Type, u.Size, u.Factors, u.Nation)
	}
	for i := range s.Defender.Units {
		fmt.Fprintf(b, "    - %s\n", unit(&s.Defender.Units[i]))
	}
	b.WriteString("attacker:\n")
	support, shore := 0.0, 0.0
	var aircraft []string
	for _, sp := range s.Attacker.SupportAvailable {
		switch {
		case !slices.Contains(ids, sp.ID):
		case sp.Aircraft:
			aircraft = append(aircraft, fmt.Sprintf("{name: %q, a2a: %d, tactical: %v}", sp.ID, sp.A2A, sp.Tactical))
		case sp.IsShip():
			shore += sp.ShoreBombardment
		case sp.HQ:
			b.WriteString("  hq_support: true\n")
		default:
			support += sp.Factors
		}
	}
	if support > 0 {
		fmt.Fprintf(b, "  ground_support: %v\n", support)
	}
	if shore > 0 {
		fmt.Fprintf(b, "  shore_bombardment: %v\n", shore)
	}
	if len(aircraft) > 0 {
		fmt.Fprintf(b, "  aircraft: [%s]\n", strings.Join(aircraft, ", "))
	}
	b.WriteString("  units:\n")
	for i := range s.Attacker.Units {
		fmt.Fprintf(b, "    - %s\n", unit(&s.Attacker.Units[i]))
	}
	for i := range s.Attacker.Available {
		if u := &s.Attacker.Available[i]; slices.Contains(ids, u.ID) {
			fmt.Fprintf(b, "    - %s\n", unit(u))
		}
	}
	return b.String()
}

// Every frontier point of the one-hex example equals `wifodds run --exact`
// of the same force written as a scenario, and the recommendation is the
// one the example's header states.
func TestPlanPointsAreRunExact(t *testing.T) {
	p := pointsAreRunExact(t, "../../examples/plan-one-hex.yaml")
	// The example's header: the cheapest force reaching 75% on the 2D6 table.
	rec := p.Recommended
	if rec == nil {
		t.Fatal("no recommendation")
	}
	wantUnits := []string{"4. Panzer", "1st INF", "2nd INF", "3rd INF", "10. Mot", "Stuka"}
	if !slices.Equal(rec.Units, wantUnits) || rec.Cost != 28 || rec.Odds != "4:1" || rec.Table != "blitz" || fmt.Sprintf("%.4f", rec.HexTaken.P) != "0.8333" {
		t.Errorf("recommended %+v; the header says %v, 28 factors, 4:1 on the Blitz table, P 0.8333", rec, wantUnits)
	}
	if p.Subsets != 128 || p.Distinct != 44 {
		t.Errorf("%v subsets, %d distinct combats; the header says 128 and 44", p.Subsets, p.Distinct)
	}
}

// A one-hex plan with a shared pool (issue 28 item 3): a cruiser, an HQ
// and a bomber facing the hex's AA, on a coastal hex. Every frontier
// point equals `wifodds run --exact` of the force written out.
func TestPlanPoolPointsAreRunExact(t *testing.T) {
	file := filepath.Join(t.TempDir(), "coast.yaml")
	text := `kind: land
crt: 2d6
hex: {terrain: forest, coastal: true}
defender:
  units:
    - {type: INF, size: corps, factors: 4, nation: USSR}
    - {type: AA, size: division, factors: 1, nation: USSR}
attacker:
  available:
    - {id: 3. Panzer, type: ARM, factors: 6, nation: GE}
    - {id: 1st INF, type: INF, factors: 4, nation: GE}
    - {id: 2nd INF, type: INF, factors: 3, nation: GE}
  support_available:
    - {id: Ju-88, a2a: 2, tactical: 4}
    - {id: Admiral Hipper, shore_bombardment: 8}
    - {id: Prinz Eugen, shore_bombardment: 2.5}
    - {id: 4th Army HQ, hq_support: true}
plan: {target: 0.9}
`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p := pointsAreRunExact(t, file)
	sent := map[string]bool{}
	for _, f := range p.Frontier {
		for _, u := range f.Units {
			sent[u] = true
		}
	}
	for _, id := range []string{"Ju-88", "Admiral Hipper", "Prinz Eugen", "4th Army HQ"} {
		if !sent[id] {
			t.Errorf("no frontier point sends %s: the test does not weigh it", id)
		}
	}
}

// pointsAreRunExact checks every frontier point of a one-hex plan file
// against `wifodds run --exact` of its force written out, and returns the
// plan.
func pointsAreRunExact(t *testing.T, file string) planJSON {
	t.Helper()
	out, errs, code := wifodds(t, "plan", "-q", "-f", "json", file)
	if code != 0 {
		t.Fatal(errs)
	}
	var p planJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Frontier) < 3 {
		t.Fatalf("%d frontier points", len(p.Frontier))
	}
	dir := t.TempDir()
	for i, f := range p.Frontier {
		path := filepath.Join(dir, fmt.Sprintf("force%d.yaml", i))
		if err := os.WriteFile(path, []byte(forceScenario(t, s, f.Units)), 0o644); err != nil {
			t.Fatal(err)
		}
		rout, rerr, code := wifodds(t, "run", "--exact", "-f", "json", path)
		if code != 0 {
			t.Fatal(rerr)
		}
		var r struct {
			Odds struct{ Attack, Defence float64 } `json:"odds"`
			P    struct {
				HexTaken     struct{ P float64 } `json:"hex_taken"`
				Breakthrough struct{ P float64 } `json:"breakthrough"`
				FaceUp       struct{ P float64 } `json:"attacker_face_up"`
			} `json:"probabilities"`
			Means struct {
				AU struct{ Mean float64 } `json:"attacker_units_lost"`
				AF struct{ Mean float64 } `json:"attacker_factors_lost"`
				DU struct{ Mean float64 } `json:"defender_units_lost"`
				DF struct{ Mean float64 } `json:"defender_factors_lost"`
			} `json:"means"`
		}
		if err := json.Unmarshal([]byte(rout), &r); err != nil {
			t.Fatal(err)
		}
		got := []float64{f.HexTaken.P, f.Breakthrough, f.AttackerFaceUp, f.AttUnits, f.AttFactors, f.DefUnits, f.DefFactors}
		want := []float64{r.P.HexTaken.P, r.P.Breakthrough.P, r.P.FaceUp.P, r.Means.AU.Mean, r.Means.AF.Mean, r.Means.DU.Mean, r.Means.DF.Mean}
		if !slices.Equal(got, want) {
			t.Errorf("frontier point %d (%v): plan %v, run --exact %v", i, f.Units, got, want)
		}
	}
	return p
}

// A front's target over what any assignment reaches is answered with the
// most any reaches, not a panic (issue 23, item 1): front points carry no
// single-hex P(hex taken).
func TestPlanFrontUnreached(t *testing.T) {
	out, errs, code := wifodds(t, "plan", "-q", "--target", "3", "-f", "json", "../../examples/plan-front.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var p struct {
		Recommended *json.RawMessage `json:"recommended"`
		Unreached   string           `json:"unreached"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if p.Recommended != nil || !strings.Contains(p.Unreached, "no force reaches expected hexes taken >= 3") || !strings.Contains(p.Unreached, "the most any force reaches is") {
		t.Errorf("recommended %s, unreached %q", out, p.Unreached)
	}
}

// Issue 28 item 6: the text answer to every plan example leads with the
// recommendation (the units the JSON recommends, on the line after the
// header) in at most 25 lines, and --all adds the whole frontier (and, for
// the attacker, what one more unit buys).
func TestPlanTextIsShort(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, file := range files {
		s, err := scenario.Load(file)
		if err != nil || !s.IsPlan() {
			continue
		}
		n++
		t.Run(filepath.Base(file), func(t *testing.T) {
			short, _, code := wifodds(t, "plan", "-q", file)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, short)
			}
			lines := strings.Split(strings.TrimRight(short, "\n"), "\n")
			if len(lines) > 25 {
				t.Errorf("%d lines, want <= 25:\n%s", len(lines), short)
			}
			if strings.Contains(short, "Frontier (cheapest first") && s.Plan.Side != scenario.DefenderSide {
				t.Errorf("the short answer holds the frontier:\n%s", short)
			}
			js, _, _ := wifodds(t, "plan", "-q", "-f", "json", file)
			var rec struct {
				Recommended *struct {
					Units []string `json:"units"`
				} `json:"recommended"`
			}
			if err := json.Unmarshal([]byte(js), &rec); err != nil || rec.Recommended == nil {
				t.Fatalf("JSON recommendation: %v\n%s", err, js)
			}
			// The recommendation opens the answer: the first line after
			// the header (and, for the defender, its two lines of what
			// was weighed).
			lead, want := lines[2], "Send"
			if s.Plan.Side == scenario.DefenderSide {
				lead, want = lines[4], "Recommended reserves: "+strings.Join(rec.Recommended.Units, ", ")
			} else if len(s.Targets) == 0 {
				want += ": " + strings.Join(rec.Recommended.Units, ", ")
			}
			if lead != want && !(len(s.Targets) > 0 && strings.HasPrefix(lead, want+" (cost ")) {
				t.Errorf("the answer opens with %q, want %q", lead, want)
			}
			for _, u := range rec.Recommended.Units {
				if !strings.Contains(short, u) {
					t.Errorf("recommended unit %q missing from the short answer:\n%s", u, short)
				}
			}
			all, _, code := wifodds(t, "plan", "-q", "--all", file)
			if code != 0 || !strings.Contains(all, "Frontier (cheapest first") || !strings.HasPrefix(all, lines[0]+"\n") {
				t.Errorf("--all: exit %d, no frontier:\n%s", code, all)
			}
			if s.Plan.Side != scenario.DefenderSide && len(s.Targets) == 0 && !strings.Contains(all, "What one more unit buys") {
				t.Errorf("--all: no marginal table:\n%s", all)
			}
		})
	}
	if n < 4 {
		t.Errorf("found %d plan examples, want at least 4", n)
	}
}
