package reports

import (
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/wifodds/wifodds/cells"
	"github.com/wifodds/wifodds/crt"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
)

// WriteCellWeightsText writes the battery's weight grid of each table and
// the cells whose edit moves P(hex taken) most.
func WriteCellWeightsText(w io.Writer, cw *cells.Weights) error {
	b := &strings.Builder{}
	t := cw.Table
	fmt.Fprintf(b, "CRT %s: cell weights over %d scenario(s), in %% of rolls (mean per scenario)\n", t.Name, len(cw.Scenarios))
	if cw.Fixed > 0 {
		fmt.Fprintf(b, "no roll read (automatic results, forbidden airdrops): %.2f%%\n", 100*cw.Fixed)
	}
	for _, k := range crt.Kinds {
		fmt.Fprintf(b, "\n%s table (result weight%%)\n", k)
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "roll\t")
		for col := range t.Columns() {
			fmt.Fprintf(tw, "%s\t", t.ColumnLabel(col))
		}
		fmt.Fprintln(tw)
		for row := range t.MaxRow - t.MinRow + 1 {
			fmt.Fprintf(tw, "%s\t", t.RowLabel(row))
			for col := range t.Columns() {
				c, _ := cw.Cell(crt.Cell{Kind: k, Row: row, Col: col})
				fmt.Fprintf(tw, "%s %s\t", c.Result, weightPct(c.Weight))
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	top := topChanges(cw, 0, 15)
	if len(top) > 0 {
		fmt.Fprintf(b, "\nthe cells whose edit moves P(hex taken) most: each one's largest change, summed over the scenarios\n")
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "cell\tresult\tweight\tto\thex_taken\tattacker_units_lost\tdefender_units_lost")
		for _, x := range top {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%+.4f\t%+.4f\t%+.4f\n", x.cell.Label, x.cell.Result, weightPct(x.cell.Weight), x.change.Result,
				x.change.Delta[0], x.change.Delta[metricIndex(cw, "attacker_units_lost")], x.change.Delta[metricIndex(cw, "defender_units_lost")])
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func weightPct(x float64) string {
	if x == 0 {
		return "0"
	}
	return strconv.FormatFloat(100*x, 'f', 2, 64)
}

func metricIndex(cw *cells.Weights, name string) int {
	for i, m := range cw.Metrics {
		if m == name {
			return i
		}
	}
	panic("reports: no metric " + name)
}

type cellChange struct {
	cell   cells.CellWeight
	change cells.Change
}

// topChanges are the n cells whose edit changes metric m most, each with
// the alternative that changes it most (the first of equals), largest in
// size first, ties by cell order.
func topChanges(cw *cells.Weights, m, n int) []cellChange {
	var all []cellChange
	for _, c := range cw.Cells {
		best := -1
		for j, ch := range c.Changes {
			if ch.Delta[m] != 0 && (best < 0 || math.Abs(ch.Delta[m]) > math.Abs(c.Changes[best].Delta[m])) {
				best = j
			}
		}
		if best >= 0 {
			all = append(all, cellChange{c, c.Changes[best]})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return math.Abs(all[i].change.Delta[m]) > math.Abs(all[j].change.Delta[m]) })
	return all[:min(n, len(all))]
}

// WriteCellWeightsCSV writes tidy rows: one per scenario (and "(battery)")
// and cell with its weights, and one per alternative result and metric
// with the change.
func WriteCellWeightsCSV(w io.Writer, cw *cells.Weights) error {
	c := csv.NewWriter(w)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	c.Write([]string{"scenario", "cell", "result", "weight", "attacker_roll", "defender_roll", "alternative", "metric", "change"})
	rows := func(name string, cs []cells.CellWeight) {
		for _, x := range cs {
			c.Write([]string{name, x.Label, x.Result, g(x.Weight), g(x.AttackerRoll), g(x.DefenderRoll), "", "", ""})
			for _, ch := range x.Changes {
				if ch.Result == x.Result {
					continue
				}
				for m, d := range ch.Delta {
					c.Write([]string{name, x.Label, x.Result, "", "", "", ch.Result, cw.Metrics[m], g(d)})
				}
			}
		}
	}
	for _, s := range cw.Scenarios {
		rows(s.Name, s.Cells)
	}
	rows("(battery)", cw.Cells)
	c.Flush()
	return c.Error()
}

// CellWeightsChart shades each cell of the table's grids by its battery
// weight, one panel per table, with the weight in % printed on the cell.
func CellWeightsChart(cw *cells.Weights) (Chart, error) {
	t := cw.Table
	hi := 0.0
	for _, c := range cw.Cells {
		hi = max(hi, c.Weight)
	}
	if hi == 0 {
		return Chart{}, fmt.Errorf("reports: no cell of table %s is read", t.Name)
	}
	cm := moreland.SmoothBlueRed()
	cm.SetMin(0)
	cm.SetMax(hi)
	ch := Chart{Title: fmt.Sprintf("CRT %s: how often each cell is read", t.Name)}
	cols, rows := t.Columns(), t.MaxRow-t.MinRow+1
	for _, k := range crt.Kinds {
		g := HeatGrid{}
		for col := range cols {
			g.Xs = append(g.Xs, float64(col))
		}
		for row := range rows {
			g.Ys = append(g.Ys, float64(t.MinRow+row))
			vals := make([]float64, cols)
			for col := range cols {
				c, _ := cw.Cell(crt.Cell{Kind: k, Row: row, Col: col})
				vals[col] = c.Weight
			}
			g.Values = append(g.Values, vals)
		}
		h := plotter.NewHeatMap(g, cm.Palette(64))
		h.Min, h.Max = 0, hi
		xLabel := "odds"
		if t.Method == crt.ByModifier {
			xLabel = "one column: the odds modify the roll"
		}
		p := newPlot(fmt.Sprintf("%s table: %% of rolls reading each cell (%d scenarios)", k, len(cw.Scenarios)), xLabel, "modified roll")
		p.Add(h)
		p.X.Min, p.X.Max = -0.5, float64(cols)-0.5
		p.Y.Min, p.Y.Max = float64(t.MinRow)-0.5, float64(t.MaxRow)+0.5
		var xt, yt []plot.Tick
		for col := range cols {
			xt = append(xt, plot.Tick{Value: float64(col), Label: t.ColumnLabel(col)})
		}
		for row := range rows {
			yt = append(yt, plot.Tick{Value: float64(t.MinRow + row), Label: t.RowLabel(row)})
		}
		p.X.Tick.Marker, p.Y.Tick.Marker = plot.ConstantTicks(xt), plot.ConstantTicks(yt)
		if err := resultLabels(p, t, k, g, cm); err != nil {
			return Chart{}, err
		}
		ch.Panels = append(ch.Panels, p)
	}
	bar := newPlot("", "", "")
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.HideX()
	bar.Y.Label.Text = "share of rolls"
	// The bar spans the weights found, which are far below 100%.
	bar.Y.Min, bar.Y.Max = 0, hi
	var ticks []plot.Tick
	for i := range 5 {
		v := hi * float64(i) / 4
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(100*v, 'f', 1, 64) + "%"})
	}
	bar.Y.Tick.Marker = plot.ConstantTicks(ticks)
	ch.KeyPlot = bar
	return ch, nil
}

// resultLabels prints each cell's result and, when it is read, its weight
// in %, in black or white, whichever reads on the cell's shade.
func resultLabels(p *plot.Plot, t *crt.Table, k crt.Kind, g HeatGrid, cm interface {
	At(float64) (color.Color, error)
}) error {
	size := 8.0
	if len(g.Xs) > 10 {
		size = 6
	}
	for r, y := range g.Ys {
		for c, x := range g.Xs {
			v := g.Values[r][c]
			text := t.Cell(crt.Cell{Kind: k, Row: r, Col: c}).String()
			if v > 0 {
				text += "\n" + strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
			}
			shade, _ := cm.At(v)
			if err := cellLabel(p, x, y, text, size, shade); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteDesignText writes a design search's answer: the edits, each goal
// before and after, what was searched, and the edits as a variant for
// battery and compare (ref names the table as the command was given it).
func WriteDesignText(w io.Writer, d *cells.Design, ref string, scenarios int) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "CRT %s: design search over %d scenario(s), %d candidate edits, %d sets weighed exactly\n", d.Table, scenarios, d.Candidates, d.Evaluations)
	switch {
	case d.Met && len(d.Edits) == 0:
		fmt.Fprintln(b, "the table as it is meets every goal")
	case d.Met:
		fmt.Fprintf(b, "every goal is met with %d edit(s)", len(d.Edits))
		if d.Optimal {
			fmt.Fprint(b, ", the fewest")
			if d.Alike > 0 {
				fmt.Fprintf(b, " (%d other set(s) of %d do too)", d.Alike, len(d.Edits))
			}
		}
		fmt.Fprintln(b, ":")
	default:
		fmt.Fprintf(b, "no set of edits found meets every goal; the closest found (%d edit(s)):\n", len(d.Edits))
	}
	for _, e := range d.Edits {
		fmt.Fprintf(b, "  %s: %s -> %s\n", e.Cell, e.From, e.To)
	}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\ngoal\tbefore\tafter\tshort by")
	for _, g := range d.Goals {
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%.4f\n", g.Goal, g.Before, g.After, g.Shortfall)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(b, "\nsearch: %s\n", d.Search)
	if len(d.Edits) > 0 {
		fmt.Fprintf(b, "as a variant: -v 'edited=crt=%s", ref)
		for _, e := range d.Edits {
			fmt.Fprintf(b, ",cell=%s", e.Spec())
		}
		fmt.Fprintln(b, "'")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
