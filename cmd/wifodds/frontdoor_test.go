package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/answer"
	jscall "github.com/wifodds/wifodds/answer/browser"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// frontDoorCase is one request as the CLI, the server and the front door
// take it.
type frontDoorCase struct {
	kind  string
	cli   []string
	query string
	call  func(ctx context.Context, in answer.Input) (any, error)
}

// frontDoorCases are the requests made of every example: run for each,
// compare and sweep for each land combat, plan for each plan, and a
// campaign for each bombardment. Monte Carlo runs are short (1e5 trials,
// two workers on every surface).
func frontDoorCases(s *scenario.Scenario) []frontDoorCase {
	smp := sim.Config{Trials: 100_000, Seed: DefaultSeed, Workers: 2}
	req := analysis.Request{Engine: analysis.Auto, Budget: sim.DefaultPathBudget, Sample: smp}
	run := func(raids int) func(ctx context.Context, in answer.Input) (any, error) {
		return func(ctx context.Context, in answer.Input) (any, error) {
			a, err := answer.Run(ctx, in, answer.RunFlags{Request: req, Raids: raids})
			if err != nil {
				return nil, err
			}
			return a.Value(), nil
		}
	}
	switch {
	case s.IsPlan():
		return []frontDoorCase{{"plan", []string{"plan", "-q", "-f", "json"}, "/api/plan", func(ctx context.Context, in answer.Input) (any, error) {
			return answer.PlanSide(ctx, in, answer.PlanFlags{MaxForces: 2_000_000, Budget: sim.DefaultPathBudget, Sample: sim.Config{Trials: 1_000_000, Seed: DefaultSeed, Workers: 2}, Workers: 2})
		}}}
	case s.Kind == scenario.Bombardment:
		return []frontDoorCase{
			{"run", []string{"run", "-n", "100000", "-w", "2", "-f", "json"}, "/api/run?trials=100000", run(1)},
			{"campaign", []string{"run", "--raids", "3", "-n", "100000", "-w", "2", "-f", "json"}, "/api/run?raids=3&trials=100000", run(3)},
		}
	case s.IsOperation():
		// An operation is run whole; compare and sweep take one combat.
		return []frontDoorCase{{"operation", []string{"run", "-n", "100000", "-w", "2", "-f", "json"}, "/api/run?trials=100000", run(0)}}
	}
	return []frontDoorCase{
		{"run", []string{"run", "-n", "100000", "-w", "2", "-f", "json"}, "/api/run?trials=100000", run(0)},
		{"explain", []string{"run", "--explain", "--dice", "6,6", "-n", "100000", "-w", "2", "-f", "json"}, "/api/run?trials=100000&explain=true&dice=6,6",
			func(ctx context.Context, in answer.Input) (any, error) {
				a, err := answer.Run(ctx, in, answer.RunFlags{Request: req, Dice: []int{6, 6}, Explain: true})
				if err != nil {
					return nil, err
				}
				return a.Value(), nil
			}},
		{"compare", []string{"compare", "-v", "alt=modifier=1", "-n", "100000", "-w", "2", "-f", "json"}, "/api/compare?variant=alt=modifier=1&trials=100000",
			func(ctx context.Context, in answer.Input) (any, error) {
				return answer.Compare(ctx, in, answer.CompareFlags{Request: req, Variants: []string{"alt=modifier=1"}})
			}},
		{"sweep", []string{"sweep", "--attack", "1..60", "--crt", "standard,2d6", "--target", "0.75", "-q", "-f", "json"}, "/api/sweep?attack=1..60&crt=standard,2d6&target=0.75",
			func(ctx context.Context, in answer.Input) (any, error) {
				return answer.Sweep(ctx, in, answer.SweepFlags{Axis: analysis.Attack, Totals: analysis.Range{Lo: 1, Hi: 60}, CRTs: []string{"standard", "2d6"},
					Budget: sim.DefaultPathBudget, Target: 0.75})
			}},
	}
}

// The CLI's JSON, the server's JSON, the front door's JSON and the browser
// build's JSON are the same bytes (timings aside, and the browser's worker
// count) for every example and every command kind.
func TestOneFrontDoor(t *testing.T) {
	ts := startWeb(t, 2)
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	kinds := map[string]bool{}
	for _, file := range files {
		s, err := scenario.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range frontDoorCases(s) {
			kinds[c.kind] = true
			t.Run(filepath.Base(file)+"/"+c.kind, func(t *testing.T) {
				cli, errs, code := wifodds(t, append(c.cli, file)...)
				if code != 0 {
					t.Fatalf("wifodds %v: %s", c.cli, errs)
				}
				api := post(t, ts.URL+c.query, s.Source)
				v, err := c.call(context.Background(), answer.Input{Name: "request.yaml", Text: s.Source,
					Options: scenario.ParseOptions{NoFiles: true}, Tables: answer.Supplied{}})
				if err != nil {
					t.Fatal(err)
				}
				door, err := answer.JSON(v)
				if err != nil {
					t.Fatal(err)
				}
				if normalise(cli) != normalise(api) || normalise(api) != normalise(string(door)) {
					t.Errorf("the surfaces differ:\nCLI: %s\nAPI: %s\nfront door: %s", normalise(cli), normalise(api), normalise(string(door)))
				}
				// The browser computes on one worker: its record says so,
				// and nothing else may differ.
				js := inTheBrowser(t, c.query, s.Source)
				if oneWorker(normalise(api)) != oneWorker(normalise(js)) {
					t.Errorf("the browser build differs:\nAPI: %s\nbrowser: %s", normalise(api), normalise(js))
				}
			})
		}
	}
	for _, k := range []string{"run", "explain", "campaign", "compare", "sweep", "plan", "operation"} {
		if !kinds[k] {
			t.Errorf("no example exercised %s", k)
		}
	}
}

// post sends a scenario to the server and returns its 200 answer.
func post(t *testing.T, url string, body []byte) string {
	t.Helper()
	res, err := http.Post(url, "application/yaml", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("%s: %d %s", url, res.StatusCode, got)
	}
	return string(got)
}

// inTheBrowser asks the browser build's calling convention what the API
// was asked: the endpoint's command and query parameters, the scenario.
func inTheBrowser(t *testing.T, query string, scenario []byte) string {
	t.Helper()
	u, err := url.Parse(query)
	if err != nil {
		t.Fatal(err)
	}
	req, err := json.Marshal(map[string]any{"command": strings.TrimPrefix(u.Path, "/api/"), "params": u.Query(), "scenario": string(scenario)})
	if err != nil {
		t.Fatal(err)
	}
	status, body := jscall.Respond(context.Background(), string(req), nil)
	if status != 200 {
		t.Fatalf("the browser build: %d %s", status, body)
	}
	return string(body)
}

var workersField = regexp.MustCompile(`"workers": \d+`)

// oneWorker words a run record's worker count as one: the count does not
// change the answer (docs/architecture.md, Invariants).
func oneWorker(s string) string { return workersField.ReplaceAllString(s, `"workers": 1`) }
