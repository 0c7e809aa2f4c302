package reports

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/wifodds/wifodds/analysis"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// series colours: distinct, colour-blind-friendly hues (Okabe and Ito).
var series = []color.Color{
	color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{86, 180, 233, 255}, color.RGBA{230, 159, 0, 255},
	color.RGBA{0, 0, 0, 255},
}

func seriesColour(i int) color.Color { return series[i%len(series)] }

// resultColours gives each result a colour by what it means: results
// where the defender loses nothing are an orange-to-red family, darker the
// more the attacker loses; results that hurt the defender are a blue
// family, darker the better they are for the attacker. Within each family
// every result has its own shade. codes run from the attacker's worst.
func resultColours(codes []string) map[string]color.Color {
	var bad, good []string
	for _, c := range codes {
		if _, def, _ := strings.Cut(c, "/"); def == "-" || def == "" {
			bad = append(bad, c)
		} else {
			good = append(good, c)
		}
	}
	out := map[string]color.Color{}
	ramp := func(list []string, from, to color.RGBA) {
		for i, c := range list {
			t := 0.5
			if len(list) > 1 {
				t = float64(i) / float64(len(list)-1)
			}
			out[c] = color.RGBA{lerp(from.R, to.R, t), lerp(from.G, to.G, t), lerp(from.B, to.B, t), 255}
		}
	}
	ramp(bad, color.RGBA{153, 52, 4, 255}, color.RGBA{254, 196, 79, 255})   // worst (dark red) to mild (amber)
	ramp(good, color.RGBA{198, 219, 239, 255}, color.RGBA{8, 48, 107, 255}) // slight (pale blue) to best (navy)
	return out
}

func lerp(a, b uint8, t float64) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*t + 0.5) }

// ink is black or white, whichever reads better on background c.
func ink(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	if 0.299*float64(r)+0.587*float64(g)+0.114*float64(b) > 0.55*65535 {
		return color.Black
	}
	return color.White
}

// ResultMixChart stacks each variant's result probabilities in one bar,
// the attacker's worst result at the bottom, each segment coloured by what
// the result means and labelled when it is large; the key lists the
// results in the order they are stacked, top first.
func ResultMixChart(c *analysis.Comparison) (Chart, error) {
	d := ResultMixData(c)
	p := newPlot(c.Scenario+": result mix by variant", "variant", "probability")
	percentAxis(&p.Y, 0, 1)
	key := newKey()
	width := vg.Points(float64(min(120, 420/max(len(d.Variants), 1))))
	shade := resultColours(d.Codes)
	var prev *plotter.BarChart
	var bars []*plotter.BarChart
	for r := range d.Codes {
		b, err := plotter.NewBarChart(plotter.Values(d.Values[r]), width)
		if err != nil {
			return Chart{}, err
		}
		b.Color = shade[d.Codes[r]]
		b.LineStyle.Color, b.LineStyle.Width = color.White, vg.Points(0.5)
		if prev != nil {
			b.StackOn(prev)
		}
		p.Add(b)
		bars, prev = append(bars, b), b
	}
	for r := len(d.Codes) - 1; r >= 0; r-- {
		key.Add(d.Codes[r], bars[r])
	}
	// Percentages on the segments large enough to hold them.
	for v := range d.Variants {
		base := 0.0
		for r := range d.Codes {
			val := d.Values[r][v]
			if val >= 0.06 {
				l, err := plotter.NewLabels(plotter.XYLabels{XYs: []plotter.XY{{X: float64(v), Y: base + val/2}}, Labels: []string{fmt.Sprintf("%.0f%%", 100*val)}})
				if err != nil {
					return Chart{}, err
				}
				l.TextStyle[0].Font = font.From(sans, 9)
				l.TextStyle[0].Color = ink(shade[d.Codes[r]])
				l.TextStyle[0].XAlign, l.TextStyle[0].YAlign = draw.XCenter, draw.YCenter
				p.Add(l)
			}
			base += val
		}
	}
	p.NominalX(d.Variants...)
	p.X.Min, p.X.Max = -0.6, float64(len(d.Variants))-0.4
	return Chart{Title: "Result mix", Plot: p, Key: key}, nil
}

// LossChart groups each variant's distribution of attacking units lost,
// the key outside the bars.
func LossChart(c *analysis.Comparison) (Chart, error) {
	d := LossData(c)
	n, hi := 0, 0.0
	for _, row := range d {
		n = max(n, len(row))
		for _, v := range row {
			hi = math.Max(hi, v)
		}
	}
	p := newPlot(c.Scenario+": attacking units lost", "attacking units lost", "probability")
	percentAxis(&p.Y, 0, hi)
	key := newKey()
	w := vg.Points(min(40, 440/float64(max(n, 1)*(len(d)+1))))
	for i, row := range d {
		vals := make(plotter.Values, n)
		copy(vals, row)
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return Chart{}, err
		}
		b.Color = seriesColour(i)
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(i)-float64(len(d)-1)/2)
		p.Add(b)
		key.Add(c.Variants[i].Name, b)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprint(i)
	}
	p.NominalX(names...)
	return Chart{Title: "Attacking units lost", Plot: p, Key: key}, nil
}

// OddsCurveChart draws P(hex taken) against the swept total at the
// scenario's own modifier, one line with its own colour and marker per
// CRT, with a dashed rule and a label where the odds level changes.
func OddsCurveChart(s *analysis.Sweep) (Chart, error) {
	d := OddsCurveData(s)
	mod := s.CurveModifier()
	p := newPlot(fmt.Sprintf("%s: P(hex taken) by %s total (modifier %+d)", s.Scenario, s.Axis, mod), string(s.Axis)+" total", "P(hex taken)")
	lo, hi := 1.0, 0.0
	for _, pts := range d.Points {
		for _, pt := range pts {
			lo, hi = math.Min(lo, pt.Y), math.Max(hi, pt.Y)
		}
	}
	percentAxis(&p.Y, lo, hi)
	p.Add(plotter.NewGrid())
	key := newKey()
	for i, name := range d.CRTs {
		if len(d.Points[i]) == 0 {
			continue
		}
		line, pts, err := plotter.NewLinePoints(plotter.XYs(d.Points[i]))
		if err != nil {
			return Chart{}, err
		}
		line.Color, pts.Color = seriesColour(i), seriesColour(i)
		line.Width = vg.Points(2)
		pts.Shape = plotutil.Shape(i)
		p.Add(line, pts)
		key.Add("CRT "+name, line, pts)
		if err := oddsBreaks(p, s, name, mod, i); err != nil {
			return Chart{}, err
		}
	}
	return Chart{Title: "P(hex taken) by total", Plot: p, Key: key}, nil
}

// oddsBreaks marks where the odds level changes on one CRT's curve: a
// dashed rule just before the step, labelled with the new level at the
// foot of the chart, clear of the rising curves.
func oddsBreaks(p *plot.Plot, s *analysis.Sweep, crtName string, mod, i int) error {
	top := p.Y.Max
	for _, st := range s.Steps {
		if st.CRT != crtName || st.Modifier != mod || !st.OddsChanged {
			continue
		}
		x := st.Attack
		if s.Axis == analysis.Defence {
			x = st.Defence
		}
		x -= 0.5
		rule, err := plotter.NewLine(plotter.XYs{{X: x, Y: p.Y.Min}, {X: x, Y: top}})
		if err != nil {
			return err
		}
		rule.Color, rule.Dashes, rule.Width = seriesColour(i), []vg.Length{vg.Points(3), vg.Points(3)}, vg.Points(0.8)
		label, err := plotter.NewLabels(plotter.XYLabels{XYs: []plotter.XY{{X: x, Y: p.Y.Min}}, Labels: []string{st.Odds}})
		if err != nil {
			return err
		}
		label.TextStyle[0].Font = font.From(sans, 9)
		label.TextStyle[0].Color = seriesColour(i)
		label.TextStyle[0].XAlign, label.TextStyle[0].YAlign = draw.XLeft, draw.YBottom
		label.Offset = vg.Point{X: vg.Points(2), Y: vg.Points(float64(2 + 11*i))}
		p.Add(rule, label)
	}
	return nil
}

// HeatMapChart shades P(hex taken) over the swept total and the modifier,
// one panel per CRT with every cell whole and its value printed in a
// colour that reads on it, and a colour bar.
func HeatMapChart(s *analysis.Sweep) (Chart, error) {
	cm := moreland.SmoothBlueRed()
	cm.SetMin(0)
	cm.SetMax(1)
	ch := Chart{Title: "P(hex taken) over total and modifier"}
	for _, name := range s.CRTs {
		g := HeatMapData(s, name)
		if len(g.Xs) == 0 || len(g.Ys) == 0 {
			return Chart{}, fmt.Errorf("reports: no sweep steps for CRT %s", name)
		}
		h := plotter.NewHeatMap(g, cm.Palette(64))
		h.Min, h.Max = 0, 1
		h.NaN = color.Gray{Y: 230}
		p := newPlot(fmt.Sprintf("%s: P(hex taken), CRT %s", s.Scenario, name), string(s.Axis)+" total", "die-roll modifier")
		p.Add(h)
		p.X.Min, p.X.Max = g.Xs[0]-0.5, g.Xs[len(g.Xs)-1]+0.5
		p.Y.Min, p.Y.Max = g.Ys[0]-0.5, g.Ys[len(g.Ys)-1]+0.5
		p.Y.Tick.Marker = plot.TickerFunc(integerTicks)
		if len(g.Xs) <= 40 {
			if err := cellLabels(p, g, cm); err != nil {
				return Chart{}, err
			}
		}
		ch.Panels = append(ch.Panels, p)
	}
	bar := newPlot("", "", "")
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.HideX()
	bar.Y.Label.Text = "P(hex taken)"
	percentAxis(&bar.Y, 0, 1)
	ch.KeyPlot = bar
	return ch, nil
}

// cellLabels prints each cell's percentage in black or white, whichever
// reads on the cell's shade.
func cellLabels(p *plot.Plot, g HeatGrid, cm interface {
	At(float64) (color.Color, error)
}) error {
	size := 9.0
	if len(g.Xs) > 25 {
		size = 7
	}
	for r, y := range g.Ys {
		for c, x := range g.Xs {
			v := g.Values[r][c]
			if math.IsNaN(v) {
				continue
			}
			shade, _ := cm.At(v)
			if err := cellLabel(p, x, y, fmt.Sprintf("%.0f", 100*v), size, shade); err != nil {
				return err
			}
		}
	}
	return nil
}

// cellLabel prints text centred on a heat map's cell, in black or white,
// whichever reads on the cell's shade.
func cellLabel(p *plot.Plot, x, y float64, text string, size float64, shade color.Color) error {
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: []plotter.XY{{X: x, Y: y}}, Labels: []string{text}})
	if err != nil {
		return err
	}
	l.TextStyle[0].Font = font.From(sans, vg.Length(size))
	l.TextStyle[0].Color = ink(shade)
	l.TextStyle[0].XAlign, l.TextStyle[0].YAlign = draw.XCenter, draw.YCenter
	p.Add(l)
	return nil
}
