package reports

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"github.com/wifodds/wifodds/plan"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlanChart draws a plan under its first table: every force weighed as a
// grey point (P(hex taken) against cost), the frontier as a line through
// its points, the recommendation ringed, and the target as a dashed rule.
// On a front the value is the expected hexes taken (or the chance
// objective's chance) and only the frontier is drawn.
func PlanChart(tp *plan.TablePlan) (Chart, error) {
	front := len(tp.Targets) > 0
	yLabel := "P(hex taken)"
	if front {
		yLabel = "expected hexes taken"
	}
	if tp.Objective != "" {
		yLabel = tp.Objective
	}
	p := newPlot(fmt.Sprintf("Which force to send: %s by cost (CRT %s)", yLabel, tp.CRT), costLabels[tp.Cost], yLabel)
	p.Add(plotter.NewGrid())
	key := newKey()
	var fr plotter.XYs
	hi := 0.0
	for _, f := range tp.Frontier {
		v := forceValue(f)
		fr = append(fr, plotter.XY{X: f.Cost, Y: v})
		hi = max(hi, v)
	}
	if !front {
		percentAxis(&p.Y, 0, 1)
	} else {
		p.Y.Min, p.Y.Max = 0, max(hi*1.1, 0.5)
		if tp.Target != nil {
			p.Y.Max = max(p.Y.Max, *tp.Target*1.1)
		}
		p.Y.Tick.Marker = plot.TickerFunc(halfTicks)
	}
	if len(tp.Candidates) > 0 {
		pts := make(plotter.XYs, len(tp.Candidates))
		for i, c := range tp.Candidates {
			pts[i] = plotter.XY{X: c.Cost, Y: c.Value}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return Chart{}, err
		}
		sc.Color = color.RGBA{150, 150, 150, 255}
		sc.Radius = vg.Points(2.2)
		p.Add(sc)
		key.Add("a force weighed", sc)
	}
	if len(fr) > 0 {
		line, pts, err := plotter.NewLinePoints(fr)
		if err != nil {
			return Chart{}, err
		}
		line.Color, pts.Color = seriesColour(0), seriesColour(0)
		line.Width = vg.Points(2)
		pts.Shape = draw.CircleGlyph{}
		pts.Radius = vg.Points(3.5)
		p.Add(line, pts)
		key.Add("frontier: nothing better for less", line, pts)
	}
	if tp.Target != nil {
		t := *tp.Target
		lo, hiX := 0.0, 1.0
		if len(fr) > 0 {
			lo, hiX = fr[0].X, fr[len(fr)-1].X
		}
		for _, c := range tp.Candidates {
			lo, hiX = min(lo, c.Cost), max(hiX, c.Cost)
		}
		rule, err := plotter.NewLine(plotter.XYs{{X: lo, Y: t}, {X: hiX, Y: t}})
		if err != nil {
			return Chart{}, err
		}
		rule.Color = color.RGBA{176, 33, 27, 255}
		rule.Dashes = []vg.Length{vg.Points(5), vg.Points(4)}
		rule.Width = vg.Points(1.2)
		p.Add(rule)
		key.Add("target", rule)
	}
	if f := tp.Recommended; f != nil {
		v := forceValue(f)
		ring, err := plotter.NewScatter(plotter.XYs{{X: f.Cost, Y: v}})
		if err != nil {
			return Chart{}, err
		}
		ring.Shape = draw.RingGlyph{}
		ring.Radius = vg.Points(7)
		ring.Color = color.RGBA{176, 33, 27, 255}
		p.Add(ring)
		key.Add("recommended", ring)
	}
	return Chart{Title: "Frontier", Plot: p, Key: key}, nil
}

// halfTicks labels every half (every whole over a tall range): expected
// hexes taken.
func halfTicks(lo, hi float64) []plot.Tick {
	step := 0.5
	if hi-lo > 5 {
		step = 1
	}
	var ts []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+1e-9; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	return ts
}

// forceValue is what a force is worth: P(hex taken), or on a front the
// chance objective's chance or the expected hexes taken.
func forceValue(f *plan.Force) float64 {
	if f.Chance != nil {
		return *f.Chance
	}
	if f.Value != nil {
		return *f.Value
	}
	return f.HexTaken.P
}
