package battery

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/stats"
)

func TestParseAxis(t *testing.T) {
	a, err := ParseAxis("attack=4..7")
	if err != nil || strings.Join(a.Values, ",") != "4,5,6,7" {
		t.Errorf("%+v %v", a, err)
	}
	if a, err := ParseAxis("defense=2..3"); err != nil || a.Key != "defence" {
		t.Errorf("defense: %+v %v", a, err)
	}
	for spec, want := range map[string]string{
		"speed=1..2":      "KEY one of",
		"terrain=clear,x": `unknown terrain "x"`,
		"attack=9..4":     "LO..HI",
		"modifier=40":     "from -",
		"weather=":        "no values",
		// Red-team finding F7: a value twice made the same scenario twice
		// (two rows of one name); a stray comma dropped a value silently.
		"terrain=clear,clear": "clear is named twice",
		"attack=13,13":        "13 is named twice",
		"attack=13,013":       "013 is named twice",
		"terrain=clear,":      "an empty value (a stray comma?)",
		"terrain=,clear":      "an empty value",
	} {
		if _, err := ParseAxis(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
}

const template = `name: t
kind: land
crt: standard
hex: {terrain: clear}
attacker: {units: [{type: INF, factors: 6, nation: GE}]}
defender: {units: [{type: INF, factors: 3, nation: FR}]}
`

// Generate makes every combination, the first axis slowest, sets totals
// by ground support and skips totals the units already pass.
func TestGenerate(t *testing.T) {
	s, err := scenario.Parse("t.yaml", []byte(template))
	if err != nil {
		t.Fatal(err)
	}
	open := func(ref string) (*crt.Table, error) { return crt.Builtin(ref) }
	a1, _ := ParseAxis("attack=5..8")
	a2, _ := ParseAxis("terrain=clear,forest")
	items, notes, err := Generate(s, []Axis{a1, a2}, open, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 6 || len(notes) != 1 || !strings.Contains(notes[0], "2 combination(s) skipped") {
		t.Fatalf("%d items, notes %v", len(items), notes)
	}
	if items[0].Name != "t attack=6 terrain=clear" || items[1].Name != "t attack=6 terrain=forest" {
		t.Errorf("names %q, %q", items[0].Name, items[1].Name)
	}
	if g := items[4].Scenario.Attacker.GroundSupport; g != 2 {
		t.Errorf("attack 8: ground support %v, want 2", g)
	}
	if s.Attacker.GroundSupport != 0 || s.Hex.Terrain != "clear" {
		t.Error("Generate changed the template")
	}
	if string(items[0].Source) == string(items[1].Source) {
		t.Error("two scenarios hash alike")
	}
}

// Issue 23 item 7: a repeated axis would label scenarios by both values
// while running them all at the last; it is refused, naming the axis.
func TestGenerateRefusesRepeatedAxis(t *testing.T) {
	s, err := scenario.Parse("t.yaml", []byte(template))
	if err != nil {
		t.Fatal(err)
	}
	open := func(ref string) (*crt.Table, error) { return crt.Builtin(ref) }
	a1, _ := ParseAxis("attack=13..14")
	a2, _ := ParseAxis("attack=20..21")
	if _, _, err := Generate(s, []Axis{a1, a2}, open, nil); err == nil || !strings.Contains(err.Error(), "axis attack is given twice") {
		t.Errorf("got %v", err)
	}
	d1, _ := ParseAxis("defence=4..5")
	d2, _ := ParseAxis("defense=6..7")
	if _, _, err := Generate(s, []Axis{d1, d2}, open, nil); err == nil || !strings.Contains(err.Error(), "axis defence is given twice") {
		t.Errorf("defence and defense: got %v", err)
	}
}

func TestSignificant(t *testing.T) {
	if Significant("exact", stats.Exact(1e-13)) || !Significant("exact", stats.Exact(1e-9)) {
		t.Error("exact")
	}
	if Significant("monte-carlo", stats.Estimate{P: 0.01, Lo: -0.001, Hi: 0.02}) || !Significant("monte-carlo", stats.Estimate{P: 0.01, Lo: 0.001, Hi: 0.02}) {
		t.Error("sampled")
	}
}

// No part file, however damaged, makes ReadPart panic; what it accepts is
// a whole, consistent part.
func FuzzReadPart(f *testing.F) {
	f.Add(encode(f, testPart(f, false)))
	f.Add([]byte(`{"format": "wifodds-battery-part/2", "battery": "b", "hash": "h", "shard": 1, "shards": 2, "scenarios": 3, "variants": ["a=crt=2d6"], "engine": "auto",
		"results": [{"index": 0, "name": "a", "method": "exact", "variants": []}, {"index": 2, "name": "c", "method": "exact", "variants": []}]}`))
	f.Add([]byte(`{"format": "wifodds-battery-part/2"}`))
	f.Add([]byte(`[1, 2]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadPart("part.json", bytes.NewReader(data))
		if err != nil {
			return
		}
		mine := 0
		for i := range p.Scenarios {
			if (Shard{p.Shard, p.Shards}).Mine(i) {
				mine++
			}
		}
		if mine != len(p.Results) {
			t.Fatalf("accepted a part with %d results for %d scenarios", len(p.Results), mine)
		}
		Merge(map[string]*Part{"part.json": p})
	})
}

// A part whose scenarios disagree on their variants is damaged.
func TestMergeRefusesRaggedVariants(t *testing.T) {
	v := Variant{Name: "a"}
	p := &Part{Format: PartFormat, Battery: "b", Hash: "h", Shard: 1, Shards: 1, Scenarios: 2,
		Results: []Result{{Index: 0, Variants: []Variant{v, v}}, {Index: 1, Variants: []Variant{v}}}}
	if _, err := Merge(map[string]*Part{"p": p}); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("got %v", err)
	}
	p.Results[1].Variants = nil
	if _, err := Merge(map[string]*Part{"p": p}); err == nil {
		t.Error("a scenario with no variants was merged")
	}
}
