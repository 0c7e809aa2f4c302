package reports

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart sizes: 800x500 pixels at the 96 dpi gonum/plot renders images at.
const (
	ChartWidth  = 800
	ChartHeight = 500
)

// Chart is a titled figure: one plot, or several panels stacked one above
// the other (a heat map per CRT), with an optional key drawn in a strip on
// the right, outside every data area so it never covers the data.
type Chart struct {
	Title  string
	Plot   *plot.Plot
	Panels []*plot.Plot
	// Key is a legend drawn to the right of the plots; KeyPlot is a narrow
	// plot drawn there instead (a colour bar).
	Key     *plot.Legend
	KeyPlot *plot.Plot
}

// sans is the one typeface of every chart: Liberation Sans, which
// gonum/plot ships, to match the sans-serif HTML pages.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// newPlot is a plot in the shared style: sans-serif text throughout.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, 13)
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, 11)
		a.Tick.Label.Font = font.From(sans, 10)
	}
	p.Legend.TextStyle.Font = font.From(sans, 10)
	return p
}

// newKey is a legend in the shared style, for a chart's key strip.
func newKey() *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(sans, 10)
	l.Top, l.Left = true, true
	return &l
}

// percentAxis shows probabilities as percentages over a range that fits
// the data: from 0 or from a round value below the smallest, to 100%.
func percentAxis(a *plot.Axis, lo, hi float64) {
	min := 0.0
	if lo > 0.2 {
		min = math.Floor((lo-0.05)*10) / 10
	}
	a.Min, a.Max = min, math.Max(hi, min+0.1)
	a.Max = math.Min(1, math.Ceil(a.Max*20)/20)
	if a.Max-a.Min < 0.1 {
		a.Max = math.Min(1, a.Min+0.1)
	}
	a.Tick.Marker = plot.TickerFunc(percentTicks)
}

// percentTicks labels every 10% (every 5% over a narrow range), with
// unlabelled minor ticks between.
func percentTicks(min, max float64) []plot.Tick {
	step := 0.1
	if max-min <= 0.4 {
		step = 0.05
	}
	var ts []plot.Tick
	for i := math.Ceil(min/step*2 - 1e-9); i/2*step <= max+1e-9; i++ {
		v := i / 2 * step
		if math.Abs(v) < 1e-9 {
			v = 0 // no "-0%"
		}
		label := ""
		if int(i)%2 == 0 {
			label = fmt.Sprintf("%.0f%%", 100*v)
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return ts
}

// Save writes the chart as "png" or "svg" at 800x500 pixels.
func (ch Chart) Save(w io.Writer, format string) error {
	width, height := vg.Length(ChartWidth)*vg.Inch/96, vg.Length(ChartHeight)*vg.Inch/96
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.New(width, height)}
	case "svg":
		c = vgsvg.New(width, height)
	default:
		return fmt.Errorf("reports: chart format %q: want png or svg", format)
	}
	ch.draw(draw.New(c))
	_, err := c.WriteTo(w)
	return err
}

// draw lays the panels out in the canvas, leaving a strip on the right for
// the key when there is one.
func (ch Chart) draw(dc draw.Canvas) {
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	panels := ch.Panels
	if ch.Plot != nil {
		panels = append([]*plot.Plot{ch.Plot}, panels...)
	}
	strip := vg.Length(0)
	if ch.Key != nil {
		strip = ch.Key.Rectangle(dc).Size().X + vg.Points(16)
	}
	if ch.KeyPlot != nil {
		strip = vg.Points(70)
	}
	body := draw.Crop(dc, 0, -strip, 0, 0)
	grid := make([][]*plot.Plot, len(panels))
	for i, p := range panels {
		grid[i] = []*plot.Plot{p}
	}
	cells := plot.Align(grid, draw.Tiles{Rows: len(panels), Cols: 1, PadY: vg.Points(6)}, body)
	for i, p := range panels {
		p.Draw(cells[i][0])
	}
	side := draw.Crop(dc, dc.Max.X-dc.Min.X-strip, 0, 0, 0)
	switch {
	case ch.KeyPlot != nil:
		ch.KeyPlot.Draw(draw.Crop(side, 0, 0, vg.Points(20), -vg.Points(30)))
	case ch.Key != nil:
		ch.Key.Draw(draw.Crop(side, vg.Points(6), 0, 0, -vg.Points(30)))
	}
}

// integerTicks labels every whole number (for modifiers).
func integerTicks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for v := math.Ceil(min); v <= max; v++ {
		ts = append(ts, plot.Tick{Value: v, Label: fmt.Sprintf("%+.0f", v)})
	}
	return ts
}
