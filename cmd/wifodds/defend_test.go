package main

import (
	"encoding/json"
	"fmt"
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
