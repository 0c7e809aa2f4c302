package crt

import (
	"embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/wifodds/wifodds/internal/fileio"
	"github.com/wifodds/wifodds/internal/yamlx"
)

//go:embed airdata/*.yaml
var airData embed.FS

// AirTables are the charts of a strategic bombardment (docs/rules.md §5): the AA
// chart (how many dice on which table AA factors roll against a number of
// aircraft), the AA dice tables and the Strategic Bombardment Table.
type AirTables struct {
	Name  string
	Title string
	File  string

	// Chart[F-1][N-1] is the AA fire of F factors against N aircraft.
	Chart    [][]AAFire
	ChartSrc Source
	// AATables[t-1][die-1] is the result of one AA die on table t.
	AATables [][]AAResult
	AASrc    Source
	// SB is the Strategic Bombardment Table: Columns[i] is the least
	// bombing factors of column i; Rows[r][i] the result for modified roll
	// MinRoll+r.
	SBColumns []int
	SBLabels  []string
	SBMinRoll int
	SB        [][]SBResult
	SBSrc     Source
}

// AAFire is a cell of the AA chart: Dice dice on table Table.
type AAFire struct{ Dice, Table int }

// AAResult is one AA die's result: bombing factors that do not press the
// attack, and whether it is an abort ("*").
type AAResult struct {
	Factors int
	Star    bool
}

// SBResult is a cell of the Strategic Bombardment Table.
type SBResult struct {
	BP   int
	Star bool
}

var (
	airMu    sync.Mutex
	airCache = map[string]*AirTables{}
)

// BuiltinAir returns the embedded air tables ("strategic").
func BuiltinAir(name string) (*AirTables, error) {
	airMu.Lock()
	defer airMu.Unlock()
	if t, ok := airCache[name]; ok {
		return t, nil
	}
	data, err := airData.ReadFile("airdata/" + name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("crt: no built-in air tables %q (have strategic)", name)
	}
	t, err := ParseAir("builtin:"+name, data)
	if err != nil {
		return nil, err
	}
	airCache[name] = t
	return t, nil
}

// LoadAir reads and validates an air tables file.
func LoadAir(path string) (*AirTables, error) {
	data, err := fileio.ReadFile(path, yamlx.MaxSize)
	if err != nil {
		return nil, err
	}
	return ParseAir(path, data)
}

// Fire looks up the AA chart. F and N must be positive and within the
// chart.
func (a *AirTables) Fire(factors, aircraft int) (AAFire, error) {
	if factors < 1 || factors > len(a.Chart) || aircraft < 1 || aircraft > len(a.Chart[0]) {
		return AAFire{}, fmt.Errorf("%d AA factors against %d aircraft is outside the AA chart (%d factors, %d aircraft) of %s", factors, aircraft, len(a.Chart), len(a.Chart[0]), a.File)
	}
	return a.Chart[factors-1][aircraft-1], nil
}

// Column is the SB table column for a number of bombing factors (> 0).
func (a *AirTables) Column(factors int) int {
	col := 0
	for i, least := range a.SBColumns {
		if factors >= least {
			col = i
		}
	}
	return col
}

// Bomb reads the SB table for bombing factors (> 0) and a modified roll,
// clamped to the rows.
func (a *AirTables) Bomb(factors, roll int) SBResult {
	r := min(max(roll-a.SBMinRoll, 0), len(a.SB)-1)
	return a.SB[r][a.Column(factors)]
}

// ParseAir validates an air tables file.
func ParseAir(file string, data []byte) (*AirTables, error) {
	root, err := yamlx.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := &yamlx.Decoder{File: file}
	a := &AirTables{File: file}
	m := d.Map(root, "")
	if !m.Str("name", &a.Name) || a.Name == "" {
		d.Errorf(root, "name", "the tables need a name")
	}
	m.Str("title", &a.Title)
	parseChart(d, d.Map(m.Get("aa_chart"), "aa_chart"), a)
	parseAATables(d, d.Map(m.Get("aa_tables"), "aa_tables"), a)
	parseSB(d, d.Map(m.Get("sb_table"), "sb_table"), a)
	m.Close("name", "title", "aa_chart", "aa_tables", "sb_table")
	if err := d.Err(); err != nil {
		return nil, err
	}
	return a, nil
}

func required(d *yamlx.Decoder, m *yamlx.Map) Source {
	if m.Node() == nil {
		d.Errorf(nil, m.Path(), "missing")
	}
	s := parseSource(d, m, Source{})
	requireSource(d, m, s)
	return s
}

func parseChart(d *yamlx.Decoder, m *yamlx.Map, a *AirTables) {
	a.ChartSrc = required(d, m)
	rows := m.Seq("rows")
	if m.Node() != nil && len(rows) == 0 {
		d.Errorf(m.Node(), "aa_chart.rows", "need at least one row")
	}
	width := -1
	for i, it := range rows {
		key := yamlx.Index("aa_chart.rows", i)
		rm := d.Map(it, key)
		var f int
		if !rm.Int("factors", &f) || f != i+1 {
			d.Errorf(it, key+".factors", "rows must give factors 1, 2, 3, ... in order; want %d", i+1)
		}
		cells := rm.Seq("cells")
		if width < 0 {
			width = len(cells)
		}
		if len(cells) == 0 || len(cells) != width {
			d.Errorf(it, key+".cells", "AA factors %d: %d cells, want %d (one per number of aircraft, all rows alike)", i+1, len(cells), max(width, 1))
		}
		var row []AAFire
		for j, c := range cells {
			ck := yamlx.Index(key+".cells", j)
			s, ok := d.Scalar(c, ck)
			if !ok {
				continue
			}
			ks, ts, found := strings.Cut(s, "/")
			k, err1 := strconv.Atoi(ks)
			t, err2 := strconv.Atoi(ts)
			if !found || err1 != nil || err2 != nil || k < 0 || k > 20 || t < 1 || t > 5 {
				d.Errorf(c, ck, "AA factors %d, %d aircraft: %q: want dice/table, e.g. 2/2 (dice 0-20, table 1-5)", i+1, j+1, s)
			}
			row = append(row, AAFire{k, t})
		}
		rm.Close("factors", "cells")
		a.Chart = append(a.Chart, row)
	}
	m.Close("rows", "provenance", "source")
}

func parseAATables(d *yamlx.Decoder, m *yamlx.Map, a *AirTables) {
	a.AASrc = required(d, m)
	rows := m.Seq("rows")
	if m.Node() != nil && len(rows) != 5 {
		d.Errorf(m.Node(), "aa_tables.rows", "%d tables, want 5 (tables 1 to 5)", len(rows))
	}
	for i, it := range rows {
		key := yamlx.Index("aa_tables.rows", i)
		rm := d.Map(it, key)
		var t int
		if !rm.Int("table", &t) || t != i+1 {
			d.Errorf(it, key+".table", "tables must be numbered 1 to 5 in order; want %d", i+1)
		}
		cells := rm.Seq("cells")
		if len(cells) != 6 {
			d.Errorf(it, key+".cells", "table %d: %d cells, want 6 (die rolls 1-6)", i+1, len(cells))
		}
		var row []AAResult
		for j, c := range cells {
			ck := yamlx.Index(key+".cells", j)
			s, ok := d.Scalar(c, ck)
			if !ok {
				continue
			}
			r, err := parseAAResult(s)
			if err != nil {
				d.Errorf(c, ck, "table %d, die %d: %v", i+1, j+1, err)
			}
			row = append(row, r)
		}
		rm.Close("table", "cells")
		a.AATables = append(a.AATables, row)
	}
	m.Close("rows", "provenance", "source")
}

func parseAAResult(text string) (AAResult, error) {
	if text == "-" {
		return AAResult{}, nil
	}
	var r AAResult
	s := text
	if strings.HasSuffix(s, "*") {
		r.Star, s = true, s[:len(s)-1]
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 50 {
		return AAResult{}, fmt.Errorf("%q: want -, N or N* with N from 0 to 50 (an abort with no factors is 0*)", text)
	}
	r.Factors = n
	return r, nil
}

func parseSB(d *yamlx.Decoder, m *yamlx.Map, a *AirTables) {
	a.SBSrc = required(d, m)
	next, open := 1, false
	firstOK := false // the first row gave its roll, so the others can be checked against it
	for i, c := range m.Seq("columns") {
		ck := yamlx.Index("sb_table.columns", i)
		s, ok := d.Scalar(c, ck)
		if !ok {
			continue
		}
		lo, hi, err := sbRange(s)
		switch {
		case err != nil:
			d.Errorf(c, ck, "column %q: %v", s, err)
		case open:
			d.Errorf(c, ck, "column %q comes after an open-ended column", s)
		case next != lo:
			d.Errorf(c, ck, "column %q: starts at %d, want %d: the columns must follow on with no gap or overlap (1-2, 3-5, ..., 45+)", s, lo, next)
		}
		if hi < 0 {
			open = true
		}
		next = hi + 1
		a.SBColumns = append(a.SBColumns, lo)
		a.SBLabels = append(a.SBLabels, s)
	}
	if len(a.SBColumns) > 0 && !open {
		d.Errorf(m.Node(), "sb_table.columns", "the last column must be open-ended, e.g. 45+, so every number of bombing factors has a column")
	}
	if m.Node() != nil && len(a.SBColumns) == 0 {
		d.Errorf(m.Node(), "sb_table.columns", "missing")
	}
	for i, it := range m.Seq("rows") {
		key := yamlx.Index("sb_table.rows", i)
		rm := d.Map(it, key)
		var roll int
		if !rm.Has("roll") {
			d.Errorf(it, key+".roll", "missing: the modified roll this row is read for")
		}
		hasRoll := rm.Int("roll", &roll)
		if i == 0 {
			a.SBMinRoll = roll
			firstOK = hasRoll
		} else if firstOK && roll != a.SBMinRoll+i {
			d.Errorf(it, key+".roll", "rolls must rise by one; want %d", a.SBMinRoll+i)
		}
		cells := rm.Seq("cells")
		if len(cells) != len(a.SBColumns) {
			d.Errorf(it, key+".cells", "roll %d: %d cells, want %d (one per column)", roll, len(cells), len(a.SBColumns))
		}
		var row []SBResult
		for j, c := range cells {
			ck := yamlx.Index(key+".cells", j)
			s, ok := d.Scalar(c, ck)
			if !ok {
				continue
			}
			r := SBResult{}
			if strings.HasSuffix(s, "*") {
				r.Star, s = true, s[:len(s)-1]
			}
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 || n > 100 {
				col := "?"
				if j < len(a.SBLabels) {
					col = a.SBLabels[j]
				}
				d.Errorf(c, ck, "roll %d, column %s: %q: want build points lost, with * for an extra effect", roll, col, cells[j].Value)
			}
			r.BP = n
			row = append(row, r)
		}
		rm.Close("roll", "cells")
		a.SB = append(a.SB, row)
	}
	if m.Node() != nil && len(a.SB) == 0 {
		d.Errorf(m.Node(), "sb_table.rows", "missing")
	}
	m.Close("columns", "rows", "provenance", "source")
}

// sbRange reads an SB column label: "N" (one number), "N-M" or "N+" (open
// ended, hi < 0).
func sbRange(s string) (lo, hi int, err error) {
	bad := fmt.Errorf("want a range of bombing factors such as 1-2, 6 or 45+")
	if t, ok := strings.CutSuffix(s, "+"); ok {
		lo, err := strconv.Atoi(t)
		if err != nil || lo < 1 {
			return 0, 0, bad
		}
		return lo, -1, nil
	}
	a, b, found := strings.Cut(s, "-")
	if !found {
		b = a
	}
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || lo < 1 || hi < lo {
		return 0, 0, bad
	}
	return lo, hi, nil
}
