package reports

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"github.com/wifodds/wifodds/analysis"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Chart sizes: 800x500 pixels at the 96 dpi gonum/plot renders images at.
const (
	ChartWidth  = 800
	ChartHeight = 500
)

// SaveChart writes a chart as "png" or "svg" at 800x500 pixels.
func SaveChart(p *plot.Plot, w io.Writer, format string) error {
	if format != "png" && format != "svg" {
		return fmt.Errorf("reports: chart format %q: want png or svg", format)
	}
	wt, err := p.WriterTo(vg.Length(ChartWidth)*vg.Inch/96, vg.Length(ChartHeight)*vg.Inch/96, format)
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

// colours spreads n colours over a blue-to-red scale, for ordered
// categories such as results from the attacker's worst to best.
func colours(n int) []color.Color {
	cm := moreland.SmoothBlueRed()
	cm.SetMin(0)
	cm.SetMax(1)
	out := make([]color.Color, n)
	for i := range out {
		x := 0.5
		if n > 1 {
			x = float64(i) / float64(n-1)
		}
		c, _ := cm.At(x)
		out[i] = c
	}
	return out
}

// ResultMix is the data of the result-mix chart: Values[r][v] is the
// probability of result Codes[r] under variant v.
type ResultMix struct {
	Variants []string
	Codes    []string
	Values   [][]float64
}

// ResultMixData extracts the stacked result mix of a comparison.
func ResultMixData(c *analysis.Comparison) ResultMix {
	m := ResultMix{Codes: c.ResultCodes()}
	for _, v := range c.Variants {
		m.Variants = append(m.Variants, v.Name)
	}
	for _, code := range m.Codes {
		row := make([]float64, len(c.Variants))
		for i, v := range c.Variants {
			row[i] = v.Results[code]
		}
		m.Values = append(m.Values, row)
	}
	return m
}

// ResultMixChart stacks each variant's result probabilities in one bar,
// from the attacker's worst result at the bottom to the best on top.
func ResultMixChart(c *analysis.Comparison) (*plot.Plot, error) {
	d := ResultMixData(c)
	p := plot.New()
	p.Title.Text = c.Scenario + ": result mix by variant"
	p.Y.Label.Text = "probability"
	p.X.Label.Text = "variant"
	p.Y.Min, p.Y.Max = 0, 1
	cols := colours(len(d.Codes))
	var prev *plotter.BarChart
	for r, code := range d.Codes {
		bars, err := plotter.NewBarChart(plotter.Values(d.Values[r]), vg.Points(float64(min(120, 400/max(len(d.Variants), 1)))))
		if err != nil {
			return nil, err
		}
		bars.Color = cols[r]
		bars.LineStyle.Width = 0
		if prev != nil {
			bars.StackOn(prev)
		}
		p.Add(bars)
		p.Legend.Add(code, bars)
		prev = bars
	}
	p.Legend.Top = true
	p.Legend.Left = false
	p.NominalX(d.Variants...)
	// Room on the right for the legend, clear of the last bar.
	p.X.Min, p.X.Max = -0.5, float64(len(d.Variants))-0.5+0.6*float64(max(len(d.Variants), 2))/2
	return p, nil
}

// LossData is the data of the loss chart: Values[v][n] is P(n attacking
// units lost) under variant v.
func LossData(c *analysis.Comparison) [][]float64 {
	var out [][]float64
	for _, v := range c.Variants {
		out = append(out, v.Summary.Distributions.AttackerUnitsLost)
	}
	return out
}

// LossChart groups each variant's distribution of attacking units lost.
func LossChart(c *analysis.Comparison) (*plot.Plot, error) {
	d := LossData(c)
	n := 0
	for _, row := range d {
		n = max(n, len(row))
	}
	p := plot.New()
	p.Title.Text = c.Scenario + ": attacking units lost"
	p.X.Label.Text = "units lost"
	p.Y.Label.Text = "probability"
	// Each loss count gets a slot of roughly 440/n points of the plot's
	// width; the variants' bars share it with a bar's width to spare.
	w := vg.Points(min(40, 440/float64(max(n, 1)*(len(d)+1))))
	for i, row := range d {
		vals := make(plotter.Values, n)
		copy(vals, row)
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, err
		}
		bars.Color = plotutil.Color(i)
		bars.LineStyle.Width = 0
		bars.Offset = w * vg.Length(float64(i)-float64(len(d)-1)/2)
		p.Add(bars)
		p.Legend.Add(c.Variants[i].Name, bars)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprint(i)
	}
	p.NominalX(names...)
	p.Legend.Top = true
	return p, nil
}

// OddsCurve is the data of the odds-curve chart: for each CRT, the points
// (total, P(hex taken)) at the sweep's first modifier.
type OddsCurve struct {
	CRTs   []string
	Points [][]plotter.XY
}

// OddsCurveData extracts P(hex taken) against the swept total.
func OddsCurveData(s *analysis.Sweep) OddsCurve {
	d := OddsCurve{CRTs: s.CRTs}
	for _, name := range s.CRTs {
		var pts []plotter.XY
		for _, st := range s.Steps {
			if st.CRT == name && st.Modifier == s.Modifiers[0] {
				x := st.Attack
				if s.Axis == analysis.Defence {
					x = st.Defence
				}
				pts = append(pts, plotter.XY{X: x, Y: st.HexTaken})
			}
		}
		d.Points = append(d.Points, pts)
	}
	return d
}

// OddsCurveChart draws P(hex taken) against the swept total, one line per
// CRT.
func OddsCurveChart(s *analysis.Sweep) (*plot.Plot, error) {
	d := OddsCurveData(s)
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: P(hex taken) by %s total (modifier %+d)", s.Scenario, s.Axis, s.Modifiers[0])
	p.X.Label.Text = string(s.Axis) + " total"
	p.Y.Label.Text = "P(hex taken)"
	p.Y.Min, p.Y.Max = 0, 1
	for i, name := range d.CRTs {
		if len(d.Points[i]) == 0 {
			continue
		}
		line, pts, err := plotter.NewLinePoints(plotter.XYs(d.Points[i]))
		if err != nil {
			return nil, err
		}
		line.Color, pts.Color = plotutil.Color(i), plotutil.Color(i)
		line.Width = vg.Points(2)
		p.Add(line, pts)
		p.Legend.Add("CRT "+name, line, pts)
	}
	p.Legend.Top = false
	p.Legend.Left = false
	p.Add(plotter.NewGrid())
	return p, nil
}

// HeatGrid is P(hex taken) over the swept total (columns) and the modifier
// (rows) for one CRT. It is the plotter.GridXYZ the heat map draws.
type HeatGrid struct {
	Xs     []float64
	Ys     []float64
	Values [][]float64 // Values[row][col]
}

// Dims is the grid size; with Z, X and Y it makes a HeatGrid a plotter.GridXYZ.
func (g HeatGrid) Dims() (c, r int) { return len(g.Xs), len(g.Ys) }

// Z is the value at column c, row r.
func (g HeatGrid) Z(c, r int) float64 { return g.Values[r][c] }

// X is the total of column c.
func (g HeatGrid) X(c int) float64 { return g.Xs[c] }

// Y is the modifier of row r.
func (g HeatGrid) Y(r int) float64 { return g.Ys[r] }

// HeatMapData lays out P(hex taken) over the swept total and the modifier
// for one CRT; cells the sweep skipped are NaN.
func HeatMapData(s *analysis.Sweep, crtName string) HeatGrid {
	var g HeatGrid
	xsSeen := map[float64]bool{}
	for _, st := range s.Steps {
		x := st.Attack
		if s.Axis == analysis.Defence {
			x = st.Defence
		}
		if st.CRT == crtName && !xsSeen[x] {
			xsSeen[x] = true
			g.Xs = append(g.Xs, x)
		}
	}
	for _, m := range s.Modifiers {
		g.Ys = append(g.Ys, float64(m))
		row := make([]float64, len(g.Xs))
		for i := range row {
			row[i] = math.NaN()
		}
		g.Values = append(g.Values, row)
	}
	for _, st := range s.Steps {
		if st.CRT != crtName {
			continue
		}
		x := st.Attack
		if s.Axis == analysis.Defence {
			x = st.Defence
		}
		for r, m := range s.Modifiers {
			if m != st.Modifier {
				continue
			}
			for c, xx := range g.Xs {
				if xx == x {
					g.Values[r][c] = st.HexTaken
				}
			}
		}
	}
	return g
}

// HeatMapChart shades P(hex taken) over the swept total and the modifier,
// with each cell's value printed on it.
func HeatMapChart(s *analysis.Sweep, crtName string) (*plot.Plot, error) {
	g := HeatMapData(s, crtName)
	if len(g.Xs) == 0 || len(g.Ys) == 0 {
		return nil, fmt.Errorf("reports: no sweep steps for CRT %s", crtName)
	}
	cm := moreland.SmoothBlueRed()
	h := plotter.NewHeatMap(g, cm.Palette(64))
	h.Min, h.Max = 0, 1
	h.NaN = color.Gray{Y: 230}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: P(hex taken) in %%, CRT %s (blue 0, red 100)", s.Scenario, crtName)
	p.X.Label.Text = string(s.Axis) + " total"
	p.Y.Label.Text = "die-roll modifier"
	p.Add(h)
	var labels plotter.XYLabels
	for r, y := range g.Ys {
		for c, x := range g.Xs {
			if v := g.Values[r][c]; !math.IsNaN(v) && len(g.Xs) <= 30 {
				labels.XYs = append(labels.XYs, plotter.XY{X: x, Y: y})
				labels.Labels = append(labels.Labels, fmt.Sprintf("%.0f", 100*v))
			}
		}
	}
	if len(labels.XYs) > 0 {
		l, err := plotter.NewLabels(labels)
		if err != nil {
			return nil, err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].Color = color.Black
		}
		p.Add(l)
	}
	return p, nil
}
