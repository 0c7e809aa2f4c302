package reports

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"flag"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"gonum.org/v1/plot/cmpimg"
)

func comparison(t *testing.T) *analysis.Comparison {
	t.Helper()
	s, err := scenario.Load("../examples/wild-results-3to1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var vs []analysis.NamedCombat
	for _, o := range []string{"crt=standard", "crt=2d6", "crt=2d6,options-=wild-results"} {
		v, _ := scenario.Override(s, o)
		tb, _ := crt.Builtin(v.CRT)
		c, err := combat.Compile(v, tb, nil)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, analysis.NamedCombat{Name: o, Overrides: o, Combat: c})
	}
	cmp, err := analysis.CompareExact(context.Background(), s.Name, vs, 0)
	if err != nil {
		t.Fatal(err)
	}
	return cmp
}

func sweep(t *testing.T) *analysis.Sweep {
	t.Helper()
	s, err := scenario.Load("../examples/fractional-odds-16to3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	std, _ := crt.Builtin("standard")
	two, _ := crt.Builtin("2d6")
	sw, err := analysis.RunSweep(context.Background(), s, []*crt.Table{std, two}, nil, analysis.Attack, analysis.Range{Lo: 16, Hi: 34}, []int{-2, -1, 0, 1, 2}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sw
}

func checkImage(t *testing.T, name string, data []byte, format string) {
	t.Helper()
	switch format {
	case "png":
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != ChartWidth || b.Dy() != ChartHeight {
			t.Errorf("%s: %dx%d, want %dx%d", name, b.Dx(), b.Dy(), ChartWidth, ChartHeight)
		}
	case "svg":
		var doc struct {
			XMLName xml.Name
			Width   string `xml:"width,attr"`
			Height  string `xml:"height,attr"`
		}
		if err := xml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if doc.XMLName.Local != "svg" || !strings.HasPrefix(doc.Width, "600") || !strings.HasPrefix(doc.Height, "375") {
			t.Errorf("%s: <%s width=%q height=%q>, want an svg of 600x375 points (800x500 pixels)", name, doc.XMLName.Local, doc.Width, doc.Height)
		}
	}
}

// The charts decode as images of 800x500 and plot the computed values.
func TestCharts(t *testing.T) {
	cmp := comparison(t)
	sw := sweep(t)
	mix := ResultMixData(cmp)
	for r, code := range mix.Codes {
		for v := range mix.Variants {
			if mix.Values[r][v] != cmp.Variants[v].Results.Value(code) {
				t.Errorf("result mix %s variant %d: plotted %v, computed %v", code, v, mix.Values[r][v], cmp.Variants[v].Results.Value(code))
			}
		}
	}
	for v, row := range LossData(cmp) {
		for n, p := range row {
			if p != cmp.Variants[v].Summary.Distributions.AttackerUnitsLost[n] {
				t.Errorf("loss chart variant %d, %d lost: %v", v, n, p)
			}
		}
	}
	curve := OddsCurveData(sw)
	k := 0
	for i, name := range curve.CRTs {
		for _, pt := range curve.Points[i] {
			for _, st := range sw.Steps {
				if st.CRT == name && st.Modifier == sw.CurveModifier() && st.Attack == pt.X {
					k++
					if st.HexTaken != pt.Y {
						t.Errorf("curve %s at %v: plotted %v, computed %v", name, pt.X, pt.Y, st.HexTaken)
					}
				}
			}
		}
	}
	if k != 2*19 {
		t.Errorf("curve plots %d points, want %d", k, 2*19)
	}
	g := HeatMapData(sw, "2d6")
	for _, st := range sw.Steps {
		if st.CRT != "2d6" {
			continue
		}
		c, r := int(st.Attack)-16, st.Modifier+2
		if got := g.Z(c, r); got != st.HexTaken || g.X(c) != st.Attack || g.Y(r) != float64(st.Modifier) {
			t.Errorf("heat map at %v,%d: %v, computed %v", st.Attack, st.Modifier, got, st.HexTaken)
		}
	}
	if sw.CurveModifier() != 0 {
		t.Errorf("the curve shows modifier %+d, want the scenario's own, +0", sw.CurveModifier())
	}
	heat, err := HeatMapChart(sw)
	if err != nil {
		t.Fatal(err)
	}
	if len(heat.Panels) != 2 || heat.KeyPlot == nil {
		t.Errorf("heat map: %d panels, colour bar %v; want one panel per CRT and a colour bar", len(heat.Panels), heat.KeyPlot != nil)
	}
	mixChart, _ := ResultMixChart(cmp)
	lossChart, _ := LossChart(cmp)
	curveChart, _ := OddsCurveChart(sw)
	for _, format := range []string{"png", "svg"} {
		for name, ch := range map[string]Chart{"mix": mixChart, "loss": lossChart, "curve": curveChart, "heat": heat} {
			var buf bytes.Buffer
			if err := ch.Save(&buf, format); err != nil {
				t.Fatal(err)
			}
			checkImage(t, name+"."+format, buf.Bytes(), format)
		}
	}
	if err := mixChart.Save(&bytes.Buffer{}, "gif"); err == nil {
		t.Error("saved a gif")
	}
	if math.IsNaN(g.Z(0, 0)) {
		t.Error("a computed cell is NaN")
	}
}

// The HTML page is self-contained: charts inline as SVG, the scenario, the
// seed or method, and the reconstructed-values note.
func TestCompareHTML(t *testing.T) {
	cmp := comparison(t)
	mix, _ := ResultMixChart(cmp)
	var buf bytes.Buffer
	if err := WriteCompareHTML(&buf, cmp, "name: <scenario>", []Chart{mix}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{"<svg", "Result mix", "name: &lt;scenario&gt;", "exact", "table rows the rulebooks do not print", "P(hex taken)", `class="better"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "<img") || strings.Contains(page, "http") && strings.Contains(page, "src=\"http") {
		t.Error("page loads something from outside")
	}
}

var updateImages = flag.Bool("update-images", false, "rewrite the golden chart images")

// Every chart type matches its golden image within a small tolerance, so a
// change of layout (a clipped legend, a cut cell, a moved axis) fails the
// build. Regenerate with go test ./reports -run GoldenImages -update-images
// after checking the new images by eye.
func TestGoldenImages(t *testing.T) {
	cmp, sw := comparison(t), sweep(t)
	mix, err1 := ResultMixChart(cmp)
	loss, err2 := LossChart(cmp)
	curve, err3 := OddsCurveChart(sw)
	heat, err4 := HeatMapChart(sw)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		t.Fatal(err)
	}
	for name, ch := range map[string]Chart{"result-mix": mix, "losses": loss, "odds-curve": curve, "heat-map": heat} {
		var buf bytes.Buffer
		if err := ch.Save(&buf, "png"); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", name+".png")
		if *updateImages {
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update-images to create it)", err)
		}
		ok, err := cmpimg.EqualApprox("png", buf.Bytes(), want, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			got := filepath.Join(t.TempDir(), name+".png")
			os.WriteFile(got, buf.Bytes(), 0o644)
			t.Errorf("%s differs from %s; the new image is %s", name, path, got)
		}
	}
}

// The sweep page has real tables, one per CRT and modifier.
func TestSweepHTML(t *testing.T) {
	sw := sweep(t)
	var buf bytes.Buffer
	if err := WriteSweepHTML(&buf, sw, "name: x", nil); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if n := strings.Count(page, "<table>"); n != len(sw.CRTs)*len(sw.Modifiers) {
		t.Errorf("%d tables, want one per CRT and modifier", n)
	}
	if strings.Contains(page, "<pre>attack") || !strings.Contains(page, "<th>P(hex taken)</th>") {
		t.Error("the sweep is not laid out as tables")
	}
}
