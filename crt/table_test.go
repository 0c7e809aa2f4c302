package crt

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func mustBuiltin(t testing.TB, name string) *Table {
	t.Helper()
	tb, err := Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// docs/rules.md §2.1: the printed rows of the 2D6 table (AfA section 8) and the
// reconstructed ones.
func TestTwoD6Table(t *testing.T) {
	tb := mustBuiltin(t, "2d6")
	assault := []string{"4/-", "3/-", "3/-", "3/-", "2/-", "2/-", "1/-", "2/1", "1/1", "1/1", "1/2", "-/2", "1/2S", "-/2S", "-/2S", "*/2S"}
	blitz := []string{"3/-", "3/-", "3/-", "2/-", "2/-", "1/-", "1/-", "1/1", "1/1R", "-/1R", "-/1R", "*/1S", "*/1S", "*/2S", "*/2B", "*/2B"}
	for row := 0; row <= 15; row++ {
		if got := tb.Grids[Assault].Rows[row].Cells[0].String(); got != assault[row] {
			t.Errorf("Assault row %d = %s, want %s", row, got, assault[row])
		}
		if got := tb.Grids[Blitz].Rows[row].Cells[0].String(); got != blitz[row] {
			t.Errorf("Blitz row %d = %s, want %s", row, got, blitz[row])
		}
		// Provenance: rows 0-7 printed; row 8 printed on Assault only.
		wantA, wantB := Reconstructed, Reconstructed
		if row <= 7 {
			wantA, wantB = Printed, Printed
		} else if row == 8 {
			wantA = Printed
		}
		if p := tb.Grids[Assault].Rows[row].Provenance; p != wantA {
			t.Errorf("Assault row %d provenance %s, want %s", row, p, wantA)
		}
		if p := tb.Grids[Blitz].Rows[row].Provenance; p != wantB {
			t.Errorf("Blitz row %d provenance %s, want %s", row, p, wantB)
		}
	}
	// Odds modifiers (printed, AfA 3.11).
	want := map[string]int{"<1:5": -20, "1:5": -10, "1:4": -6, "1:3": -4, "1:2": -2, "2:3": -1, "1:1": 0, "3:2": 1,
		"2:1": 2, "3:1": 3, "4:1": 4, "5:1": 5, "6:1": 6, "7:1": 7, "8:1": 8, "9:1": 9, "10:1": 10}
	for _, l := range tb.Levels {
		key := l.Ratio.String()
		if l.Below {
			key = l.Label
		}
		if l.Modifier != want[key] {
			t.Errorf("odds %s modifier %d, want %d", key, l.Modifier, want[key])
		}
		delete(want, key)
	}
	if len(want) != 0 {
		t.Errorf("levels missing: %v", want)
	}
	// Clamping: rolls are read at 0..15.
	if r := tb.Lookup(Assault, tb.LevelForRatio(Ratio{10, 1}), 12); r.String() != "*/2S" {
		t.Errorf("2d6 assault 12+10 = %s, want */2S (clamped to 15)", r)
	}
	if r := tb.Lookup(Blitz, 0, 12); r.String() != "3/-" {
		t.Errorf("2d6 blitz 12-20 = %s, want 3/- (clamped to 0)", r)
	}
}

// docs/rules.md §2.2: every standard cell is the 2D6 row clamp(q(d) + m, 0, 15).
func TestStandardDerivedFromTwoD6(t *testing.T) {
	std, two := mustBuiltin(t, "standard"), mustBuiltin(t, "2d6")
	q := []int{0, 2, 4, 6, 7, 8, 10, 12}
	m := []int{-2, 0, 2, 3, 4, 5, 7, 10}
	if len(std.Levels) != len(m) {
		t.Fatalf("standard has %d columns, want %d", len(std.Levels), len(m))
	}
	for _, k := range Kinds {
		for d := 0; d <= 7; d++ {
			for c := range m {
				want := two.Grids[k].Rows[min(max(q[d]+m[c], 0), 15)].Cells[0]
				if got := std.Grids[k].Rows[d].Cells[c]; got != want {
					t.Errorf("standard %s roll %d column %s = %s, want %s", k, d, std.Levels[c], got, want)
				}
			}
			if std.Grids[k].Rows[d].Provenance != Reconstructed {
				t.Errorf("standard %s row %d should be reconstructed", k, d)
			}
		}
	}
	// AsA 3.14's example: Assault 3:1, a modified 6 gives the defender 2S and a
	// modified 2 gives the attacker 2.
	col := std.LevelForRatio(Ratio{3, 1})
	if r := std.Lookup(Assault, col, 6); r.DefenderLoss != 2 || r.Effect != Shatter {
		t.Errorf("standard assault 3:1 roll 6 = %s, want defender 2S", r)
	}
	if r := std.Lookup(Assault, col, 2); r.AttackerLoss != 2 {
		t.Errorf("standard assault 3:1 roll 2 = %s, want attacker 2", r)
	}
	// Clamped at <=0 and >=7.
	if std.Lookup(Assault, col, -3) != std.Lookup(Assault, col, 0) || std.Lookup(Assault, col, 9) != std.Lookup(Assault, col, 7) {
		t.Error("standard rolls are not clamped to 0..7")
	}
}

// docs/rules.md §1: a zero defence is */2B on Blitz and */2S on Assault.
func TestAutomatic(t *testing.T) {
	for _, name := range Names() {
		tb := mustBuiltin(t, name)
		if tb.Automatic[Assault].String() != "*/2S" || tb.Automatic[Blitz].String() != "*/2B" {
			t.Errorf("%s automatic = %s, %s", name, tb.Automatic[Assault], tb.Automatic[Blitz])
		}
		if !tb.HasReconstructed() {
			t.Errorf("%s: reconstructed values not reported", name)
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	for _, name := range Names() {
		tb := mustBuiltin(t, name)
		var buf bytes.Buffer
		if err := Encode(&buf, tb); err != nil {
			t.Fatal(err)
		}
		back, err := Parse("builtin:"+name, buf.Bytes())
		if err != nil {
			t.Fatalf("%s: re-parse: %v\n%s", name, err, buf.String())
		}
		if !reflect.DeepEqual(tb, back) {
			t.Errorf("%s: round trip changed the table", name)
		}
	}
}

// Errors name the file, line, key, and for cells the table, roll and column.
func TestParseErrors(t *testing.T) {
	base, _ := BuiltinSource("standard")
	cases := []struct {
		name, from, to string
		want           []string
	}{
		{"bad cell", `{roll: 3, cells: ["2/-", "1/-", "1/1", "1/1",`, `{roll: 3, cells: ["2/-", "1/-", "1/1", "1/Q",`,
			[]string{"my.yaml:", "tables.assault.rows[3].cells[3]", "table assault, roll 3, column 3:1"}},
		{"missing row", "      - {roll: 5, cells: [\"1/-\", \"1/1\", \"1/2\"", "      - {roll: 4, cells: [\"1/-\", \"1/1\", \"1/2\"",
			[]string{"roll 4 appears twice"}},
		{"non-monotone", `- {odds: "4:1"}`, `- {odds: "2:1"}`, []string{"odds.levels[4].odds", "must rise strictly"}},
		{"unknown key", "rounding: nearest", "rounding: nearest\nroundng: up", []string{"my.yaml:12:1: roundng: unknown key (did you mean \"rounding\"?)"}},
		{"short row", `{roll: 0, cells: ["4/-", "4/-", `, `{roll: 0, cells: [`, []string{"tables.assault.rows[0].cells", "6 cells, want 8"}},
		{"bad provenance", "provenance: reconstructed", "provenance: guessed", []string{"want printed or reconstructed"}},
		{"bad dice", "dice: 1d6", "dice: 3d6", []string{"dice: want 1d6 or 2d6"}},
		{"modifier on column", `- {odds: "1:1"}`, `- {odds: "1:1", modifier: 0}`, []string{"remove the modifier"}},
		{"wrong type", "rows: {min: 0, max: 7}", "rows: {min: zero, max: 7}", []string{"rows.min: expected a whole number"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := string(base)
			if !strings.Contains(src, c.from) {
				t.Fatalf("fixture text %q not found", c.from)
			}
			_, err := Parse("my.yaml", []byte(strings.Replace(src, c.from, c.to, 1)))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, n := range Names() {
		src, _ := BuiltinSource(n)
		f.Add(src)
	}
	f.Add([]byte("name: x\n"))
	f.Add([]byte("a: &x [1]\nb: *x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tb, err := Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		// A table that parses must be usable everywhere without panicking.
		for _, k := range Kinds {
			for lv := range tb.Levels {
				for roll := tb.MinRow - 25; roll <= tb.MaxRow+25; roll++ {
					_ = tb.Lookup(k, lv, roll)
				}
			}
		}
		var buf bytes.Buffer
		if err := Encode(&buf, tb); err != nil {
			t.Fatal(err)
		}
		if _, err := Parse("fuzz.yaml", buf.Bytes()); err != nil {
			t.Fatalf("encoded table does not parse: %v\n%s", err, buf.String())
		}
	})
}
