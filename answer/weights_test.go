package answer

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/cells"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// The Table tab's answer is the lab's weights of the one combat
// (docs/crtlab.md, Cell weights), laid out as the table's grid: every
// cell's weight is cells.Weigh's, they sum with the fixed mass to 1,
// and a cell edit shows in the grid, the edit list and the figures.
func TestWeightsGrid(t *testing.T) {
	ctx := context.Background()
	in := example(t, "wild-results-3to1")
	got, err := Weights(ctx, in, WeightsFlags{})
	if err != nil {
		t.Fatal(err)
	}
	std, _ := crt.Builtin("standard")
	s, _ := in.parse()
	air, _ := crt.BuiltinAir("strategic")
	cb, err := combat.CompileWith(s, std, air, combat.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := cells.NewScenario(s.Name, cb)
	if err != nil {
		t.Fatal(err)
	}
	want, err := cells.Weigh(ctx, std, []*cells.Scenario{sc})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Grids) != 2 || len(got.Columns) != std.Columns() || len(got.Rows) != std.MaxRow-std.MinRow+1 || got.Rows[0] != "<=0" || got.Columns[3] != "3:1" {
		t.Fatalf("grid %d tables, columns %v, rows %v", len(got.Grids), got.Columns, got.Rows)
	}
	sum, read := got.Fixed, 0
	for _, g := range got.Grids {
		for _, row := range g.Cells {
			for _, c := range row {
				cl, err := std.ParseCell(c.Cell)
				if err != nil {
					t.Fatal(err)
				}
				w, ok := want.Cell(cl)
				if !ok || w.Weight != c.Weight || w.AttackerRoll != c.AttackerRoll || w.DefenderRoll != c.DefenderRoll || w.Result != c.Result {
					t.Errorf("%s: %+v, the lab weighs %+v", c.Cell, c, w)
				}
				sum += c.Weight
				if c.Weight > 0 {
					read++
				}
			}
		}
	}
	// Wild results (docs/rules.md §2.4): the attacker's and the defender's
	// rolls each read one of the six rows of 3:1 on the Assault table.
	if d := sum - 1; d > 1e-12 || d < -1e-12 || read != 6 {
		t.Errorf("weights sum to %v over %d cells, want 1 over 6", sum, read)
	}
	if c := got.Grids[crt.Assault].Cells[4][3]; c.Cell != "assault/3:1/4" || c.Result != "1/2" || c.Weight != 1.0/6 {
		t.Errorf("assault 3:1 roll 4: %+v", c)
	}

	edited, err := Weights(ctx, in, WeightsFlags{Cells: []string{"assault/3:1/4:*/1"}})
	if err != nil {
		t.Fatal(err)
	}
	c := edited.Grids[crt.Assault].Cells[4][3]
	if c.Result != "*/1" || !c.Edited || len(edited.Edits) != 1 || edited.Edits[0] != (CellEdit{"assault/3:1/4", "1/2", "*/1"}) || edited.Table != "standard+edited" {
		t.Errorf("the edited cell %+v, edits %+v, table %s", c, edited.Edits, edited.Table)
	}
	if strings.Join(edited.Results, " ") != strings.Join(got.Results, " ") {
		t.Errorf("the results a cell cycles among changed with the edit: %v, %v", edited.Results, got.Results)
	}
	run, err := Run(ctx, in, RunFlags{Request: exact, Cells: []string{"assault/3:1/4:*/1"}})
	if err != nil {
		t.Fatal(err)
	}
	if p := run.Land.Probabilities.HexTaken.P; edited.Metrics[0] != "hex_taken" || edited.Figures[0] != p || p == got.Figures[0] {
		t.Errorf("P(hex taken) on the edited table: weights %v, run %v (unedited %v)", edited.Figures[0], p, got.Figures[0])
	}
	if !slices.Equal(edited.Printed, got.Figures) || !slices.Equal(got.Printed, got.Figures) {
		t.Errorf("the printed figures %v (edited), %v (unedited), want %v", edited.Printed, got.Printed, got.Figures)
	}

	for _, bad := range [][]string{{"assault/3:1/9:*/1"}, {"assault/3:1/4:*/1", "assault/3:1/4:1/1"}, {"nope/3:1/4:*/1"}, {"assault/3:1/4:x"}} {
		_, err := Weights(ctx, in, WeightsFlags{Cells: bad})
		var ie *InputError
		var ce *CellEditError
		if !errors.As(err, &ie) || !errors.As(err, &ce) {
			t.Errorf("%v: %v, want a CellEditError in an InputError", bad, err)
		}
	}
	if _, err := Weights(ctx, example(t, "dusseldorf-bombardment"), WeightsFlags{}); !errors.Is(err, ErrBombardment) {
		t.Errorf("a bombardment's weights: %v", err)
	}
}

// A run with cell edits answers as the same run on the edited table
// written as a CRT file (docs/crtlab.md, What-if edits), byte for byte
// but the table's name.
func TestRunCellsEqualsEditedFile(t *testing.T) {
	ctx := context.Background()
	src, err := crt.BuiltinSource("standard")
	if err != nil {
		t.Fatal(err)
	}
	// assault 3:1 roll 4 is 1/2 in the built-in file.
	text := strings.Replace(string(src), `{roll: 4, cells: ["2/-", "2/1", "1/1", "1/2",`, `{roll: 4, cells: ["2/-", "2/1", "1/1", "*/1",`, 1)
	if text == string(src) {
		t.Fatal("the built-in table's rows moved: edit this test's text")
	}
	file, err := crt.Parse("edited.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	crtField := regexp.MustCompile(`"crt": "[^"]*"`)
	for _, name := range []string{"wild-results-3to1", "port-moresby-invasion"} {
		in := example(t, name)
		a, err := Run(ctx, in, RunFlags{Request: exact, Cells: []string{"assault/3:1/4:*/1"}})
		if err != nil {
			t.Fatal(err)
		}
		fin := in
		fin.CRT, fin.Tables = "uploaded", Supplied{CRTTable: file}
		b, err := Run(ctx, fin, RunFlags{Request: exact})
		if err != nil {
			t.Fatal(err)
		}
		ja, _ := JSON(a.Value())
		jb, _ := JSON(b.Value())
		if a.Land.CRT != "standard (edited)" {
			t.Errorf("%s: the edited run names its table %q", name, a.Land.CRT)
		}
		na := timing(crtField.ReplaceAllString(string(ja), ""))
		nb := timing(crtField.ReplaceAllString(string(jb), ""))
		if na != nb {
			t.Errorf("%s: run with the cell edit:\n%s\nrun on the edited file:\n%s", name, na, nb)
		}
	}
	if _, err := Run(ctx, example(t, "dusseldorf-bombardment"), RunFlags{Request: exact, Cells: []string{"assault/3:1/4:*/1"}}); !errors.Is(err, ErrCellsBombardment) {
		t.Errorf("cell edits on a bombardment: %v", err)
	}
}

var elapsed = regexp.MustCompile(`"elapsed_seconds": [0-9.e-]+`)

func timing(s string) string { return elapsed.ReplaceAllString(s, `"elapsed_seconds": X`) }

// Every example answers the Table tab: a combat's weights and the mass no
// cell decides sum to 1 (docs/crtlab.md, Cell weights); a plan, a
// bombardment and an operation are refused, as compare refuses them.
func TestWeightsEveryExample(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatal("no examples")
	}
	weighed := 0
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		in := example(t, name)
		s, err := in.parse()
		if err != nil {
			t.Fatal(err)
		}
		w, err := Weights(context.Background(), in, WeightsFlags{})
		switch {
		case s.IsPlan() || s.Kind == scenario.Bombardment || s.IsOperation():
			if err == nil {
				t.Errorf("%s: weighed a plan, bombardment or operation", name)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", name, err)
			continue
		}
		sum := w.Fixed
		for _, g := range w.Grids {
			for _, row := range g.Cells {
				for _, c := range row {
					sum += c.Weight
				}
			}
		}
		if d := sum - 1; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s: the weights and the fixed mass sum to %v", name, sum)
		}
		weighed++
	}
	if weighed < 5 {
		t.Errorf("only %d examples weighed", weighed)
	}
}
