package answer

import (
	"context"
	"fmt"

	"github.com/wifodds/wifodds/cells"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// WeightsFlags are the page's Table tab's request: the cell edits
// (TABLE/ODDS/ROLL:RESULT) applied to the scenario's table first.
type WeightsFlags struct {
	Cells []string
}

// TableWeights is one combat's table as a grid of cells, each with the
// probability that the combat's roll reads it (docs/crtlab.md, Cell
// weights): what `wifodds crt weights TABLE --battery FILE` reports for
// the scenario alone, laid out as `crt show` prints the table.
type TableWeights struct {
	Scenario string   `json:"scenario"`
	Table    string   `json:"table"`   // its name, "+edited" when edits were given
	Method   string   `json:"method"`  // column or modifier
	Columns  []string `json:"columns"` // the odds columns' headings, lowest first
	Rows     []string `json:"rows"`    // the modified rolls' labels, lowest first
	// Results are the results the unedited table uses, in reading order:
	// the alternatives a cell may be set to.
	Results []string     `json:"results"`
	Grids   []WeightGrid `json:"grids"` // Assault, then Blitz
	Fixed   float64      `json:"fixed"` // the mass no cell decides (automatic results, forbidden airdrops)
	// Metrics and Figures are the headline figures on the (edited) table,
	// exact: compare's metrics, in its order.
	Metrics []string  `json:"metrics"`
	Figures []float64 `json:"figures"`
	// Printed are the same figures on the table as printed (Figures
	// when no cell is edited).
	Printed []float64  `json:"printed_figures"`
	Edits   []CellEdit `json:"edits"`
}

// WeightGrid is the Assault or the Blitz table's cells, by row then column.
type WeightGrid struct {
	Kind  string       `json:"kind"`
	Cells [][]GridCell `json:"cells"`
}

// GridCell is one cell: its label as a cell edit names it, its result and
// weights (cells.CellWeight: under wild results Weight is the mean of the
// attacker's and the defender's roll's masses).
type GridCell struct {
	Cell         string  `json:"cell"`
	Result       string  `json:"result"`
	Weight       float64 `json:"weight"`
	AttackerRoll float64 `json:"attacker_roll"`
	DefenderRoll float64 `json:"defender_roll"`
	Edited       bool    `json:"edited,omitempty"`
}

// CellEdit is one edit as given: the cell, its printed result and the
// result it reads now.
type CellEdit struct {
	Cell string `json:"cell"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Weights answers the page's Table tab: the combat's table (the
// scenario's, or in.CRT), edited by f.Cells, with every cell's weight in
// this combat. A bad edit comes back as *CellEditError in an InputError.
func Weights(ctx context.Context, in Input, f WeightsFlags) (*TableWeights, error) {
	s, err := in.land()
	if err != nil {
		return nil, err
	}
	base, err := in.Tables.CRT(s, s.CRT)
	if err != nil {
		return nil, err
	}
	t, edits, err := editTable(base, f.Cells)
	if err != nil {
		return nil, err
	}
	air, err := in.Tables.Air(s)
	if err != nil {
		return nil, err
	}
	w, err := weigh(ctx, s, t, air)
	if err != nil {
		return nil, err
	}
	tw := tableWeights(s, base, t, edits, w)
	if len(edits) > 0 {
		if w, err = weigh(ctx, s, base, air); err != nil {
			return nil, err
		}
		tw.Printed = w.Scenarios[0].Figures
	}
	return tw, nil
}

// weigh compiles the combat on t and weighs its cells.
func weigh(ctx context.Context, s *scenario.Scenario, t *crt.Table, air *crt.AirTables) (*cells.Weights, error) {
	cb, err := combat.CompileWith(s, t, air, combat.Options{})
	if err != nil {
		return nil, err
	}
	sc, err := cells.NewScenario(s.Name, cb)
	if err != nil {
		return nil, err
	}
	return cells.Weigh(ctx, t, []*cells.Scenario{sc})
}

// editTable applies the edits (none: the table itself).
func editTable(t *crt.Table, specs []string) (*crt.Table, []crt.Edit, error) {
	if len(specs) == 0 {
		return t, nil, nil
	}
	if len(specs) > crt.MaxEdits {
		return nil, nil, &InputError{&CellEditError{fmt.Errorf("%d cell edits: at most %d", len(specs), crt.MaxEdits)}}
	}
	edits, err := t.ParseEdits(specs)
	if err == nil {
		var e *crt.Table
		if e, err = t.Apply(edits); err == nil {
			return e, edits, nil
		}
	}
	return nil, nil, &InputError{&CellEditError{err}}
}

// tableWeights lays the weights of t (base edited by edits) out as grids.
func tableWeights(s *scenario.Scenario, base, t *crt.Table, edits []crt.Edit, w *cells.Weights) *TableWeights {
	tw := &TableWeights{Scenario: s.Name, Table: t.Name, Method: t.Method.String(), Fixed: w.Fixed,
		Metrics: w.Metrics, Figures: w.Scenarios[0].Figures, Printed: w.Scenarios[0].Figures, Edits: []CellEdit{}}
	for col := range t.Columns() {
		tw.Columns = append(tw.Columns, t.ColumnLabel(col))
	}
	for row := range t.MaxRow - t.MinRow + 1 {
		tw.Rows = append(tw.Rows, t.RowLabel(row))
	}
	for _, r := range base.Codes() {
		tw.Results = append(tw.Results, r.String())
	}
	edited := map[crt.Cell]bool{}
	for _, e := range edits {
		edited[e.Cell] = true
		tw.Edits = append(tw.Edits, CellEdit{Cell: t.CellLabel(e.Cell), From: base.Cell(e.Cell).String(), To: e.Result.String()})
	}
	// w.Cells holds every cell of both grids, by table, row and column.
	for _, k := range crt.Kinds {
		g := WeightGrid{Kind: k.String(), Cells: make([][]GridCell, len(tw.Rows))}
		for row := range g.Cells {
			g.Cells[row] = make([]GridCell, len(tw.Columns))
		}
		tw.Grids = append(tw.Grids, g)
	}
	for _, cw := range w.Cells {
		c := cw.Cell
		tw.Grids[c.Kind].Cells[c.Row][c.Col] = GridCell{Cell: cw.Label, Result: cw.Result, Weight: cw.Weight,
			AttackerRoll: cw.AttackerRoll, DefenderRoll: cw.DefenderRoll, Edited: edited[c]}
	}
	return tw
}
