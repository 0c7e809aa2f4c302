package main

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// The Table tab's two requests, the weights of the combat's table with
// cell edits and a run on the edited table, are the same bytes from the
// server, the front door and the browser build, and the run the same as
// `wifodds run --cell`; every cell's weight is the one `wifodds crt
// weights` reports for the scenario (docs/crtlab.md).
func TestTableTabFrontDoor(t *testing.T) {
	const file = "../../examples/wild-results-3to1.yaml"
	s, err := scenario.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	ts := startWeb(t, 2)
	in := answer.Input{Name: "request.yaml", Text: s.Source, Options: scenario.ParseOptions{NoFiles: true}, Tables: answer.Supplied{}}
	edits := []string{"assault/3:1/4:*/1", "blitz/4:1/2:-/2S"}
	ctx := context.Background()

	w, err := answer.Weights(ctx, in, answer.WeightsFlags{Cells: edits})
	if err != nil {
		t.Fatal(err)
	}
	door, err := answer.JSON(w)
	if err != nil {
		t.Fatal(err)
	}
	query := "/api/weights?cell=assault/3:1/4:*/1&cell=blitz/4:1/2:-/2S"
	if api, js := post(t, ts.URL+query, s.Source), inTheBrowser(t, query, s.Source); api != string(door) || js != string(door) {
		t.Errorf("weights differ:\nfront door: %s\nAPI: %s\nbrowser: %s", door, api, js)
	}

	r, err := answer.Run(ctx, in, answer.RunFlags{Request: analysis.Request{Engine: analysis.Auto, Budget: sim.DefaultPathBudget,
		Sample: sim.Config{Trials: 100_000, Seed: DefaultSeed, Workers: 2}}, Cells: edits})
	if err != nil {
		t.Fatal(err)
	}
	rdoor, err := answer.JSON(r.Value())
	if err != nil {
		t.Fatal(err)
	}
	cli, errs, code := wifodds(t, "run", "--cell", edits[0], "--cell", edits[1], "-n", "100000", "-w", "2", "-f", "json", file)
	if code != 0 {
		t.Fatal(errs)
	}
	rquery := "/api/run?trials=100000&cell=assault/3:1/4:*/1&cell=blitz/4:1/2:-/2S"
	api := post(t, ts.URL+rquery, s.Source)
	if normalise(cli) != normalise(api) || normalise(api) != normalise(string(rdoor)) {
		t.Errorf("run with cell edits differs:\nCLI: %s\nAPI: %s\nfront door: %s", normalise(cli), normalise(api), normalise(string(rdoor)))
	}
	if js := inTheBrowser(t, rquery, s.Source); oneWorker(normalise(js)) != oneWorker(normalise(api)) {
		t.Errorf("the browser build's run differs:\nAPI: %s\nbrowser: %s", api, js)
	}

	// The unedited table's weights, cell by cell, are crt weights'.
	w, err = answer.Weights(ctx, in, answer.WeightsFlags{})
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code := wifodds(t, "crt", "weights", s.CRT, "--battery", file, "-f", "json")
	if code != 0 {
		t.Fatal(errs)
	}
	var lab struct {
		Cells []struct {
			Cell   string  `json:"cell"`
			Result string  `json:"result"`
			Weight float64 `json:"weight"`
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(out), &lab); err != nil {
		t.Fatal(err)
	}
	cells := 0
	for _, g := range w.Grids {
		for _, row := range g.Cells {
			for _, c := range row {
				cells++
				found := false
				for _, l := range lab.Cells {
					if l.Cell == c.Cell {
						found = true
						if l.Weight != c.Weight || l.Result != c.Result {
							t.Errorf("%s: weight %s %s, crt weights says %s %s", c.Cell, c.Result, strconv.FormatFloat(c.Weight, 'g', -1, 64),
								l.Result, strconv.FormatFloat(l.Weight, 'g', -1, 64))
						}
					}
				}
				if !found {
					t.Errorf("%s: crt weights has no such cell", c.Cell)
				}
			}
		}
	}
	if cells != len(lab.Cells) || cells == 0 {
		t.Errorf("the grid has %d cells, crt weights %d", cells, len(lab.Cells))
	}
}
