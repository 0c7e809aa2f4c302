package crt_test

import (
	"strings"
	"testing"

	"github.com/wifodds/wifodds/crt"
)

// A cell is named TABLE/ODDS/ROLL and its label reads back as the same
// cell, on a table read by column and on one read by modifier
// (docs/crtlab.md).
func TestCellLabelsRoundTrip(t *testing.T) {
	for _, name := range []string{"standard", "2d6"} {
		tb, err := crt.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, k := range crt.Kinds {
			for row := range tb.MaxRow - tb.MinRow + 1 {
				for col := range tb.Columns() {
					c := crt.Cell{Kind: k, Row: row, Col: col}
					got, err := tb.ParseCell(tb.CellLabel(c))
					if err != nil || got != c {
						t.Fatalf("%s: %s reads back as %+v, %v", name, tb.CellLabel(c), got, err)
					}
					n++
				}
			}
		}
		if n != 2*tb.Columns()*(tb.MaxRow-tb.MinRow+1) {
			t.Fatalf("%s: %d cells", name, n)
		}
	}
}

// Editing copies the table: the original is untouched, the edited cell
// reads the new result and its row's note names the edit; a cell edited
// twice and malformed edits are errors naming what is wrong.
func TestEditCells(t *testing.T) {
	tb, err := crt.Builtin("standard")
	if err != nil {
		t.Fatal(err)
	}
	c, err := tb.ParseCell("assault/3:1/4")
	if err != nil {
		t.Fatal(err)
	}
	before := tb.Cell(c)
	e, err := tb.EditCells([]string{"assault/3:1/4:*/1", "blitz/1:1/2:-/1R"})
	if err != nil {
		t.Fatal(err)
	}
	if tb.Cell(c) != before || e.Cell(c).String() != "*/1" {
		t.Fatalf("original reads %s (was %s), edited %s", tb.Cell(c), before, e.Cell(c))
	}
	row := e.Grids[crt.Assault].Rows[c.Row]
	if !strings.Contains(row.Note, "assault/3:1/4 1/2 -> */1") || !strings.HasPrefix(e.File, crt.EditedPrefix) || e.Name != "standard+edited" {
		t.Errorf("edited table: name %q, file %q, row note %q", e.Name, e.File, row.Note)
	}
	for spec, want := range map[string]string{
		"assault/3:1/4":         "want TABLE/ODDS/ROLL:RESULT",
		"charge/3:1/4:1/-":      "want assault or blitz",
		"assault/3:2/4:1/-":     "no odds level \"3:2\" (levels: <=1:2, 1:1",
		"assault/3:1/9:1/-":     "from 0 to 7",
		"assault/3:1/x:1/-":     "roll \"x\"",
		"assault/3:1/4:21/-":    "result \"21/-\"",
		"assault/3:1/4:1/-,":    "result",
		"assault/<=1:2/0:1/1R":  "",
		"assault/10:1/7:-/2S":   "",
		"blitz/>=10:1/7:*/2B":   "",
		"assault/1:2/0:1/1R":    "",
		"assault/-/4:1/-":       "no odds level \"-\"",
		"assault/3:1/4:*/1@bad": "result",
	} {
		_, err := tb.EditCells([]string{spec})
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", spec, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v, want one containing %q", spec, err, want)
		}
	}
	if _, err := tb.EditCells([]string{"assault/3:1/4:1/-", "assault/3:1/4:2/-"}); err == nil || !strings.Contains(err.Error(), "edited twice") {
		t.Errorf("a cell edited twice: %v", err)
	}
	d6, _ := crt.Builtin("2d6")
	if _, err := d6.EditCells([]string{"assault/3:1/8:1/-"}); err == nil || !strings.Contains(err.Error(), "write its odds as -") {
		t.Errorf("2d6 by odds: %v", err)
	}
	if e, err := d6.EditCells([]string{"blitz/-/15:-/1R"}); err != nil || e.Grids[crt.Blitz].Rows[15].Cells[0].String() != "-/1R" {
		t.Errorf("2d6 blitz/-/15: %v", err)
	}
}

// FuzzParseEdit: any text given as a cell= override is an edit of a cell
// of the table, whose label reads back as the same cell, or an error;
// never a panic.
func FuzzParseEdit(f *testing.F) {
	for _, s := range []string{"assault/3:1/4:*/1", "blitz/>=10:1/7:*/2B", "assault/<=1:2/0:1/1R", "assault/-/4:1/-", "a/b/c:d", "//:", "assault/3:1/99999999999999999999:1/-"} {
		f.Add("standard", s)
		f.Add("2d6", s)
	}
	f.Fuzz(func(t *testing.T, table, spec string) {
		tb, err := crt.Builtin(table)
		if err != nil {
			return
		}
		e, err := tb.ParseEdit(spec)
		if err != nil {
			return
		}
		if c, err := tb.ParseCell(tb.CellLabel(e.Cell)); err != nil || c != e.Cell {
			t.Fatalf("%q: cell %s reads back as %+v, %v", spec, tb.CellLabel(e.Cell), c, err)
		}
		if _, err := tb.Apply([]crt.Edit{e}); err != nil {
			t.Fatal(err)
		}
	})
}
