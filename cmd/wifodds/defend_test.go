package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const holdSmolensk = "../../examples/hold-smolensk.yaml"

// The defender's question: the example's answer in every format, and its
// mistakes.
func TestDefendGolden(t *testing.T) {
	checkGoldens(t, []goldenCase{
		{"hold-smolensk.txt", []string{"plan", "-q", holdSmolensk}, 0},
		{"hold-smolensk.json", []string{"plan", "-q", "-f", "json", holdSmolensk}, 0},
		{"hold-smolensk.csv", []string{"plan", "-q", "-f", "csv", holdSmolensk}, 0},
		{"hold-smolensk.md", []string{"plan", "-q", "-f", "markdown", holdSmolensk, "--target", "0.7"}, 0},
		{"err-defend-chart.txt", []string{"plan", "-q", "--chart", "x.png", holdSmolensk}, 2},
		{"err-defend-target.txt", []string{"plan", "-q", "--target", "2", holdSmolensk}, 2},
		{"err-defend-too-large.txt", []string{"plan", "-q", "--max-forces", "100", holdSmolensk}, 1},
	})
}

// The example's header is its answer: the recommendation, the response it
// meets, the cheaper point that falls short, and the sets weighed; the
// text report leads with it in at most 25 lines.
func TestHoldSmolenskHeader(t *testing.T) {
	out, errs, code := wifodds(t, "plan", "-q", "-f", "json", holdSmolensk)
	if code != 0 {
		t.Fatal(errs)
	}
	type response struct {
		Units    []string            `json:"units"`
		Odds     string              `json:"odds"`
		Table    string              `json:"table"`
		HexTaken struct{ P float64 } `json:"hex_taken"`
	}
	type reserve struct {
		Units    []string  `json:"units"`
		Cost     float64   `json:"cost"`
		HexHeld  float64   `json:"hex_held"`
		Short    *float64  `json:"shortfall"`
		Response *response `json:"response"`
	}
	var d struct {
		Side        string    `json:"side"`
		Attacker    string    `json:"attacker"`
		Recommended *reserve  `json:"recommended"`
		Frontier    []reserve `json:"frontier"`
		Sets        int       `json:"reserve_sets"`
		Distinct    int       `json:"distinct_defences"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	r := d.Recommended
	if d.Side != "defender" || d.Attacker != "best-response" || r == nil {
		t.Fatalf("%s", out)
	}
	if !slices.Equal(r.Units, []string{"16th Army", "19th Army", "7th Mech"}) || r.Cost != 13 || fmt.Sprintf("%.4f", r.HexHeld) != "0.5833" ||
		r.Response == nil || r.Response.Odds != "3:2" || r.Response.Table != "blitz" {
		t.Errorf("recommended %+v; the header says 16th Army, 19th Army, 7th Mech, 13 factors, held 58.33%% against 3:2 on the Blitz table", r)
	}
	var cheaper *reserve
	for i := range d.Frontier {
		if d.Frontier[i].Cost == 8 {
			cheaper = &d.Frontier[i]
		}
	}
	if cheaper == nil || !slices.Equal(cheaper.Units, []string{"16th Army", "19th Army"}) || cheaper.Response.Odds != "2:1" ||
		fmt.Sprintf("%.4f", cheaper.HexHeld) != "0.4167" || cheaper.Short == nil {
		t.Errorf("the cost-8 point %+v; the header says 16th and 19th Army meet 2:1 and hold with 41.67%%", cheaper)
	}
	if d.Sets != 32 || d.Distinct != 24 {
		t.Errorf("%d sets, %d distinct; the header says 32 and 24", d.Sets, d.Distinct)
	}
	text, _, _ := wifodds(t, "plan", "-q", holdSmolensk)
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) > 25 || !strings.HasPrefix(lines[4], "Recommended reserves: 16th Army, 19th Army, 7th Mech") {
		t.Errorf("%d lines, the fifth %q:\n%s", len(lines), lines[min(4, len(lines)-1)], text)
	}
}

// fixedSmolensk is hold-smolensk with the attacker fixed: all six units
// attack, without the Stuka.
const fixedSmolensk = `name: fixed-smolensk
kind: land
crt: 2d6
hex: {terrain: forest, weather: clear}
attacker:
  units:
    - {name: 3. Panzer, type: ARM, factors: 6, nation: GE}
    - {name: 4. Panzer, type: ARM, factors: 6, nation: GE}
    - {name: 2. Panzer, type: ARM, factors: 5, nation: GE}
    - {name: 9th INF, type: INF, factors: 4, nation: GE}
    - {name: 12th INF, type: INF, factors: 4, nation: GE}
    - {name: 29. Mot, type: MECH, factors: 3, nation: GE}
defender:
  units:
    - {type: INF, size: corps, factors: 3, nation: USSR}
`

var fixedReserves = map[string]string{
	"16th Army": "{type: INF, factors: 4, nation: USSR}",
	"19th Army": "{type: INF, factors: 4, nation: USSR}",
	"20th Army": "{type: INF, factors: 3, nation: USSR}",
	"5th Mech":  "{type: MECH, factors: 3, nation: USSR}",
	"7th Mech":  "{type: ARM, factors: 5, nation: USSR}",
}

// With the attacker fixed, each frontier point's figures are `wifodds run
// --exact` of the hex with those reserves added, written as a scenario;
// the HTML report names the recommendation.
func TestDefendFixedAttackerIsRunExact(t *testing.T) {
	dir := t.TempDir()
	text := fixedSmolensk + "  available:\n"
	for _, id := range []string{"16th Army", "19th Army", "20th Army", "5th Mech", "7th Mech"} {
		text += "    - " + strings.Replace(fixedReserves[id], "{", "{id: "+id+", ", 1) + "\n"
	}
	text += "plan: {side: defender, target: 0.55}\n"
	file := filepath.Join(dir, "fixed.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "fixed.html")
	out, errs, code := wifodds(t, "plan", "-q", "-f", "json", "--html", page, file)
	if code != 0 {
		t.Fatal(errs)
	}
	var d struct {
		Attacker    string `json:"attacker"`
		Recommended *struct {
			Units []string `json:"units"`
		} `json:"recommended"`
		Frontier []struct {
			Units    []string  `json:"units"`
			HexTaken float64   `json:"hex_taken"`
			Response forceJSON `json:"response"`
		} `json:"frontier"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Attacker != "fixed" || d.Recommended == nil || len(d.Frontier) < 3 {
		t.Fatalf("%s", out)
	}
	for i, f := range d.Frontier {
		sc := fixedSmolensk
		for _, id := range f.Units {
			sc += "    - " + fixedReserves[id] + "\n"
		}
		path := filepath.Join(dir, fmt.Sprintf("point%d.yaml", i))
		if err := os.WriteFile(path, []byte(sc), 0o644); err != nil {
			t.Fatal(err)
		}
		rout, rerr, code := wifodds(t, "run", "--exact", "-f", "json", path)
		if code != 0 {
			t.Fatal(rerr)
		}
		var r struct {
			P struct {
				HexTaken struct{ P float64 } `json:"hex_taken"`
			} `json:"probabilities"`
			Means struct {
				AF struct{ Mean float64 } `json:"attacker_factors_lost"`
				DF struct{ Mean float64 } `json:"defender_factors_lost"`
			} `json:"means"`
		}
		if err := json.Unmarshal([]byte(rout), &r); err != nil {
			t.Fatal(err)
		}
		got := []float64{f.HexTaken, f.Response.HexTaken.P, f.Response.AttFactors, f.Response.DefFactors}
		want := []float64{r.P.HexTaken.P, r.P.HexTaken.P, r.Means.AF.Mean, r.Means.DF.Mean}
		if !slices.Equal(got, want) {
			t.Errorf("frontier point %d (%v): plan %v, run --exact %v", i, f.Units, got, want)
		}
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "Recommended reserves:</strong> "+strings.Join(d.Recommended.Units, ", ")) {
		t.Errorf("the HTML page does not name the recommendation %v: %v", d.Recommended.Units, err)
	}
}
