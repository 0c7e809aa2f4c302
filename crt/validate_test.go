package crt

import (
	"strings"
	"testing"
)

// mutate returns a built-in table's or air tables' source with old
// replaced by new, failing when old is not there.
func mutate(t *testing.T, src []byte, old, new string) []byte {
	t.Helper()
	if !strings.Contains(string(src), old) {
		t.Fatalf("the built-in data no longer holds %q; update this test", old)
	}
	return []byte(strings.Replace(string(src), old, new, 1))
}

// Audit item 6: custom CRTs are validated against the known names, the
// modifier range and the rows the dice can reach; item 12: their errors
// say what is wrong.
func TestCustomCRTDefects(t *testing.T) {
	std, _ := BuiltinSource("standard")
	two, _ := BuiltinSource("2d6")
	weather := "weather: {clear: 0, mud: -1, winter: -2, monsoon: -2, severe-winter: -3}"
	cases := []struct {
		name     string
		src      []byte
		old, new string
		want     string
	}{
		{"unknown weather", std, weather, "weather: {clear: 0, mudd: -1, mud: -1, winter: -2, monsoon: -2, severe-winter: -3}",
			`modifiers.weather.mudd: unknown weather "mudd" (did you mean "mud"?)`},
		{"missing mud", std, weather, "weather: {clear: 0, winter: -2, monsoon: -2, severe-winter: -3}",
			"modifiers.weather: no modifier for mud: give every weather a value (0 for none)"},
		{"unknown terrain", std, "forest: -1,", "forest: -1, lava: 3,", `modifiers.terrain.lava: unknown terrain "lava"`},
		{"huge modifier", std, "face_down_defender: 1", "face_down_defender: 4294967291", `modifiers.face_down_defender: whole number "4294967291" is out of range`},
		{"large modifier", std, "hq_support: 1", "hq_support: 31", "modifiers.hq_support: modifier +31 is outside -30..30"},
		{"odds modifier", two, `{odds: "10:1", modifier: 10,`, `{odds: "10:1", modifier: 99,`, "odds.levels[16].modifier: modifier +99 is outside -30..30"},
		{"2d6 rows 0..7", two, "rows: {min: 0, max: 15}", "rows: {min: 0, max: 7}", "rows: min 0 and max 7: a 2d6 table needs a row for every natural roll 2..12"},
		{"1d6 rows 0..15", std, "rows: {min: 0, max: 7}", "rows: {min: 0, max: 15}", "rows: max 15: a 1d6 roll with this table's modifiers reaches at most 12, so rows above it are never read"},
		{"row without roll", std, `- {roll: 3, cells: ["2/-", "1/-", "1/1", "1/1", "1/2", "-/2", "-/2S", "*/2S"]}`, `- {cells: ["2/-", "1/-", "1/1", "1/1", "1/2", "-/2", "-/2S", "*/2S"]}`,
			"tables.assault.rows[3].roll: missing: the modified roll this row is read for"},
	}
	for _, c := range cases {
		src := mutate(t, c.src, c.old, c.new)
		_, err := Parse("mine.yaml", src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "unknown key") {
			t.Errorf("%s: a misleading unknown-key error: %v", c.name, err)
		}
	}
	// No odds levels: one error for that, not one per row of cells.
	src := mutate(t, std, `    - {odds: "1:2", label: "<=1:2"}`, "")
	for _, l := range []string{"1:1", "2:1", "3:1", "4:1", "5:1", "7:1", "10:1"} {
		src = []byte(strings.Replace(string(src), `    - {odds: "`+l+`"}`+"\n", "", 1))
	}
	src = []byte(strings.Replace(string(src), `    - {odds: "10:1", label: ">=10:1"}`+"\n", "", 1))
	src = mutate(t, src, "  levels:\n", "  levels: []\n")
	_, err := Parse("mine.yaml", src)
	if err == nil || !strings.Contains(err.Error(), "need at least one odds level") || strings.Contains(err.Error(), "want 0") {
		t.Errorf("no levels: %v", err)
	}
}

// Audit item 6: the SB table's columns follow on with no gap or overlap and
// end open; item 12: a missing first roll and a "-*" cell are named.
func TestCustomAirTableDefects(t *testing.T) {
	src, _ := AirSource("strategic")
	cols := `columns: ["1-2", "3-5", "6-9", "10-14", "15-20", "21-27", "28-35", "36-44", "45+"]`
	cases := []struct{ old, new, want string }{
		{cols, `columns: ["1-2", "3-5", "4-9", "10-14", "15-20", "21-27", "28-35", "36-44", "45+"]`, `sb_table.columns[2]: column "4-9": starts at 4, want 6`},
		{cols, `columns: ["1-2", "3-5", "6-9", "10-14", "15-20", "21-27", "28-35", "36-44", "45-50"]`, "the last column must be open-ended"},
		{cols, `columns: ["1-2", "3-5", "6-9", "10-14", "15-20", "21-27", "28-35", "36+", "45+"]`, `column "45+" comes after an open-ended column`},
		{`{table: 1, cells: ["-", "-", "-", "1", "1", "1*"]}`, `{table: 1, cells: ["-", "-", "-", "1", "1", "-*"]}`, `"-*": want -, N or N* with N from 0 to 50`},
	}
	for _, c := range cases {
		_, err := ParseAir("air.yaml", mutate(t, src, c.old, c.new))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.new, err, c.want)
		}
	}
	i := strings.Index(string(src), "sb_table:")
	j := i + strings.Index(string(src[i:]), "{roll: ")
	k := j + strings.Index(string(src[j:]), "cells")
	bad := string(src[:j]) + "{" + string(src[k:])
	if _, err := ParseAir("air.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "sb_table.rows[0].roll: missing") {
		t.Errorf("missing first SB roll: %v", err)
	}
}
