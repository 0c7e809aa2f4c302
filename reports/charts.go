package reports

import (
	"math"

	"github.com/wifodds/wifodds/analysis"
	"gonum.org/v1/plot/plotter"
)

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
			row[i] = v.Results.Value(code)
		}
		m.Values = append(m.Values, row)
	}
	return m
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

// OddsCurve is the data of the odds-curve chart: for each CRT, the points
// (total, P(hex taken)) at the sweep's own modifier.
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
			if st.CRT == name && st.Modifier == s.CurveModifier() {
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
