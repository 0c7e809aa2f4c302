package crt

import "fmt"

// Kind is one of a CRT's two tables.
type Kind uint8

const (
	// Assault is the Assault table.
	Assault Kind = iota
	// Blitz is the Blitz (Blitzkrieg) table.
	Blitz
)

// Kinds lists both tables in display order.
var Kinds = [...]Kind{Assault, Blitz}

func (k Kind) String() string {
	if k == Blitz {
		return "blitz"
	}
	return "assault"
}

// Method says how the odds enter the table.
type Method uint8

const (
	// ByColumn reads the modified roll in the odds level's column.
	ByColumn Method = iota + 1
	// ByModifier adds the odds level's modifier to the roll and reads one column.
	ByModifier
)

func (m Method) String() string {
	if m == ByModifier {
		return "modifier"
	}
	return "column"
}

// Level is one odds level of a table, lowest first.
type Level struct {
	Ratio    Ratio
	Below    bool   // a "<a:b" level: everything below the next level (Ratio is 0:1)
	Label    string // display label, e.g. "<=1:2"
	Modifier int    // die-roll modifier (ByModifier tables)
}

func (l Level) String() string {
	if l.Label != "" {
		return l.Label
	}
	return l.Ratio.String()
}

// Row is one modified-roll row of a table.
type Row struct {
	Roll  int
	Cells []Result // one per odds level (ByColumn) or one (ByModifier)
	Source
}

// Grid is the Assault or the Blitz table.
type Grid struct {
	Rows []Row // Rows[i].Roll == MinRow+i
	Source
}

// Table is a validated land CRT. Build one with Parse, Load or Builtin; it
// must not be modified afterwards.
type Table struct {
	Name      string
	Title     string
	File      string // where it was loaded from ("builtin:NAME" for embedded tables)
	Dice      int    // number of six-sided dice rolled: 1 or 2
	MinRow    int    // modified rolls below are read here
	MaxRow    int    // modified rolls above are read here
	Rounding  Rounding
	Method    Method
	Levels    []Level
	OddsSrc   Source
	Grids     [2]Grid
	Automatic [2]Result // result of a zero defence on each table
	AutoSrc   Source
	Modifiers Schedule
}

// Columns is the number of result columns of each grid.
func (t *Table) Columns() int {
	if t.Method == ByModifier {
		return 1
	}
	return len(t.Levels)
}

// LevelFor returns the index of the highest odds level not above
// attack:defence, or 0 (the lowest level) when the ratio is below them all.
// defence must be positive.
func (t *Table) LevelFor(attack, defence float64) int {
	best := 0
	for i, l := range t.Levels {
		if l.Below || l.Ratio.AtMost(attack, defence) {
			best = i
		}
	}
	return best
}

// LevelForRatio is LevelFor for an exact ratio.
func (t *Table) LevelForRatio(r Ratio) int {
	return t.LevelFor(float64(r.Num), float64(r.Den))
}

// Ratios lists the table's own odds levels as ratios (the "<" level left
// out), for the fractional-odds rule.
func (t *Table) Ratios() []Ratio {
	rs := make([]Ratio, 0, len(t.Levels))
	for _, l := range t.Levels {
		if !l.Below {
			rs = append(rs, l.Ratio)
		}
	}
	return rs
}

// RowFor returns the row index read for an odds level and the roll with its
// other modifiers applied, with the odds modifier added (ByModifier) and the
// result clamped to the table; and the column.
func (t *Table) RowFor(level, modifiedRoll int) (row, col int) {
	r := modifiedRoll
	if t.Method == ByModifier {
		r += t.Levels[level].Modifier
	} else {
		col = level
	}
	r = min(max(r, t.MinRow), t.MaxRow)
	return r - t.MinRow, col
}

// Lookup reads the result for a table, odds level and modified roll (the
// dice plus every modifier except the odds).
func (t *Table) Lookup(k Kind, level, modifiedRoll int) Result {
	row, col := t.RowFor(level, modifiedRoll)
	return t.Grids[k].Rows[row].Cells[col]
}

// SourceOf is the provenance of the cell Lookup reads.
func (t *Table) SourceOf(k Kind, level, modifiedRoll int) Source {
	row, _ := t.RowFor(level, modifiedRoll)
	return t.Grids[k].Rows[row].Source
}

// RowLabel is how a row is shown: "<=0" and ">=7" at the clamped ends.
func (t *Table) RowLabel(i int) string {
	switch r := t.MinRow + i; {
	case i == 0:
		return fmt.Sprintf("<=%d", r)
	case r == t.MaxRow:
		return fmt.Sprintf(">=%d", r)
	default:
		return fmt.Sprint(r)
	}
}

// HasReconstructed reports whether any value of the table is reconstructed.
func (t *Table) HasReconstructed() bool {
	for _, g := range t.Grids {
		for _, r := range g.Rows {
			if r.Provenance == Reconstructed {
				return true
			}
		}
	}
	return t.OddsSrc.Provenance == Reconstructed || t.AutoSrc.Provenance == Reconstructed ||
		t.Modifiers.Provenance == Reconstructed
}
