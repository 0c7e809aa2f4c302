package crt

import (
	"fmt"
	"strconv"
	"strings"
)

// Cell is one cell of a table's grid: the Assault or Blitz table, the
// row index (Grid.Rows) and the column (the odds level; 0 on a table read
// by modifier, which has one column).
type Cell struct {
	Kind     Kind
	Row, Col int
}

// CellLabel writes the cell as TABLE/ODDS/ROLL, as ParseCell reads it: ODDS
// is the column's odds level, "-" on a table with one column; ROLL the
// row's modified roll.
func (t *Table) CellLabel(c Cell) string {
	odds := "-"
	if t.Method == ByColumn {
		odds = t.Levels[c.Col].String()
	}
	return fmt.Sprintf("%s/%s/%d", c.Kind, odds, t.MinRow+c.Row)
}

// ColumnLabel is the column's heading: its odds level, or "-".
func (t *Table) ColumnLabel(col int) string {
	if t.Method == ByColumn {
		return t.Levels[col].String()
	}
	return "-"
}

// Cell is the cell's result.
func (t *Table) Cell(c Cell) Result { return t.Grids[c.Kind].Rows[c.Row].Cells[c.Col] }

// ParseCell reads TABLE/ODDS/ROLL against the table: TABLE assault or blitz;
// ODDS one of the table's odds levels as written (its label or its
// ratio), or "-" on a table read by modifier; ROLL a row of the table.
func (t *Table) ParseCell(s string) (Cell, error) {
	kind, rest, ok1 := strings.Cut(s, "/")
	odds, roll, ok2 := strings.Cut(rest, "/")
	if !ok1 || !ok2 {
		return Cell{}, fmt.Errorf("cell %q: want TABLE/ODDS/ROLL, e.g. assault/3:1/4", s)
	}
	var c Cell
	switch strings.TrimSpace(kind) {
	case "assault":
		c.Kind = Assault
	case "blitz":
		c.Kind = Blitz
	default:
		return Cell{}, fmt.Errorf("cell %q: table %q: want assault or blitz", s, kind)
	}
	odds = strings.TrimSpace(odds)
	if t.Method == ByModifier {
		if odds != "-" {
			return Cell{}, fmt.Errorf("cell %q: table %s is read by modifier and has one column: write its odds as -, e.g. %s/-/%d", s, t.Name, kind, t.MinRow)
		}
	} else {
		c.Col = -1
		var names []string
		for i, l := range t.Levels {
			names = append(names, l.String())
			if odds == l.String() || !l.Below && odds == l.Ratio.String() {
				c.Col = i
			}
		}
		if c.Col < 0 {
			return Cell{}, fmt.Errorf("cell %q: table %s has no odds level %q (levels: %s)", s, t.Name, odds, strings.Join(names, ", "))
		}
	}
	n, err := strconv.Atoi(strings.TrimSpace(roll))
	if err != nil || n < t.MinRow || n > t.MaxRow {
		return Cell{}, fmt.Errorf("cell %q: roll %q: want a whole number from %d to %d (table %s's rows)", s, roll, t.MinRow, t.MaxRow, t.Name)
	}
	c.Row = n - t.MinRow
	return c, nil
}

// Edit sets one cell to a result.
type Edit struct {
	Cell   Cell
	Result Result
}

// ParseEdit reads TABLE/ODDS/ROLL:RESULT, e.g. assault/3:1/4:*/1.
func (t *Table) ParseEdit(s string) (Edit, error) {
	// The odds hold a colon too: the result follows the colon after the
	// last slash of the cell, which is the roll's.
	kind, rest, _ := strings.Cut(s, "/")
	odds, rest, _ := strings.Cut(rest, "/")
	roll, res, ok := strings.Cut(rest, ":")
	if !ok {
		return Edit{}, fmt.Errorf("cell edit %q: want TABLE/ODDS/ROLL:RESULT, e.g. assault/3:1/4:*/1", s)
	}
	c, err := t.ParseCell(kind + "/" + odds + "/" + roll)
	if err != nil {
		return Edit{}, err
	}
	r, err := ParseResult(strings.TrimSpace(res))
	if err != nil {
		return Edit{}, fmt.Errorf("cell edit %q: %w", s, err)
	}
	return Edit{c, r}, nil
}

// Codes are the distinct results the table's grids use, in reading order
// (Assault then Blitz, row by row): the alternatives a cell may be set to.
func (t *Table) Codes() []Result {
	var out []Result
	seen := map[Result]bool{}
	for _, g := range t.Grids {
		for _, r := range g.Rows {
			for _, x := range r.Cells {
				if !seen[x] {
					seen[x] = true
					out = append(out, x)
				}
			}
		}
	}
	return out
}

// EditedPrefix starts an edited table's File: no file holds it.
const EditedPrefix = "edited:"

// MaxEdits bounds the edits one table may carry.
const MaxEdits = 64

// Apply writes the edits into a copy of the table: the name and title marked
// "edited", each edited row's note naming its edits and its provenance
// Edited (a reconstructed row stays reconstructed: its other cells
// still are). Editing a cell twice is an error, not an overwrite.
func (t *Table) Apply(edits []Edit) (*Table, error) {
	if len(edits) > MaxEdits {
		return nil, fmt.Errorf("%d cell edits: at most %d", len(edits), MaxEdits)
	}
	e := *t
	e.Name, e.Title, e.File = t.Name+"+edited", t.Title+" (edited)", EditedPrefix+t.File
	e.Grids = t.Grids
	seen := map[Cell]bool{}
	for k := range e.Grids {
		e.Grids[k].Rows = append([]Row(nil), t.Grids[k].Rows...)
	}
	for _, ed := range edits {
		if seen[ed.Cell] {
			return nil, fmt.Errorf("cell %s is edited twice", t.CellLabel(ed.Cell))
		}
		seen[ed.Cell] = true
		row := &e.Grids[ed.Cell.Kind].Rows[ed.Cell.Row]
		row.Cells = append([]Result(nil), row.Cells...)
		row.Cells[ed.Cell.Col] = ed.Result
		note := "edited: " + t.CellLabel(ed.Cell) + " " + t.Cell(ed.Cell).String() + " -> " + ed.Result.String()
		if strings.Contains(row.Note, "edited: ") {
			note = row.Note + "; " + note
		}
		if row.Provenance != Reconstructed {
			row.Provenance = Edited
		}
		row.Note = note
	}
	return &e, nil
}

// ParseEdits reads edits written TABLE/ODDS/ROLL:RESULT, as a variant's
// cell= overrides give them: at most MaxEdits, no cell twice.
func (t *Table) ParseEdits(specs []string) ([]Edit, error) {
	if len(specs) > MaxEdits {
		return nil, fmt.Errorf("%d cell edits: at most %d", len(specs), MaxEdits)
	}
	edits := make([]Edit, 0, len(specs))
	seen := map[Cell]bool{}
	for _, s := range specs {
		e, err := t.ParseEdit(s)
		if err != nil {
			return nil, err
		}
		if seen[e.Cell] {
			return nil, fmt.Errorf("cell %s is edited twice", t.CellLabel(e.Cell))
		}
		seen[e.Cell] = true
		edits = append(edits, e)
	}
	return edits, nil
}

// EditCells is Apply for edits written TABLE/ODDS/ROLL:RESULT.
func (t *Table) EditCells(specs []string) (*Table, error) {
	edits, err := t.ParseEdits(specs)
	if err != nil {
		return nil, err
	}
	return t.Apply(edits)
}
