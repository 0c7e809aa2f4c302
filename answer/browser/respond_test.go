package browser

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

func call(t testing.TB, req map[string]any) (int, []byte) {
	t.Helper()
	text, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return Respond(context.Background(), string(text), nil)
}

// The browser's answer is the front door's, byte for byte: what the
// server and the CLI write too (cmd/wifodds TestOneFrontDoor).
func TestRespondIsTheFrontDoor(t *testing.T) {
	text, err := os.ReadFile("../../examples/wild-results-3to1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	status, body := call(t, map[string]any{"command": "run", "params": map[string][]string{"method": {"exact"}, "dice": {"6,6"}, "explain": {"true"}}, "scenario": string(text)})
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	a, err := answer.Run(context.Background(), answer.Input{Name: "request.yaml", Text: text, Options: scenario.ParseOptions{NoFiles: true}, Tables: answer.Supplied{}},
		answer.RunFlags{Request: analysis.Request{Engine: analysis.Exact, Budget: sim.DefaultPathBudget, Sample: sim.Config{Trials: 1_000_000, Seed: 1, Workers: 1}}, Dice: []int{6, 6}, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := answer.JSON(a.Value())
	var g, w map[string]any
	json.Unmarshal(body, &g)
	json.Unmarshal(want, &w)
	delete(g, "elapsed_seconds")
	delete(w, "elapsed_seconds")
	gj, _ := json.Marshal(g)
	wj, _ := json.Marshal(w)
	if string(gj) != string(wj) {
		t.Errorf("the browser build answers\n%s\nthe front door\n%s", gj, wj)
	}
}

// Bad requests are the server's 400s, with the server's {"error"} shape.
func TestRespondRefuses(t *testing.T) {
	cases := []struct {
		text   string
		status int
		want   string
	}{
		{`nope`, 400, "not JSON"},
		{`{"command": "fly"}`, 400, `command "fly"`},
		{`{"command": "run", "scenario": "kind: land\n"}`, 400, "attacker: missing"},
		{`{"command": "run", "scenario": "kind: land\ncrt: /etc/passwd\n"}`, 400, "names a file"},
		{`{"command": "run", "params": {"trials": ["1e12"]}, "scenario": ""}`, 400, "trials=1e12"},
		{`{"command": "compare", "params": {"method": ["fast"]}, "scenario": ""}`, 400, "method=fast"},
		{`{"command": "run", "crt": "rows: [", "scenario": ""}`, 400, "the uploaded crt"},
	}
	for _, c := range cases {
		status, body := Respond(context.Background(), c.text, nil)
		var m map[string]string
		if err := json.Unmarshal(body, &m); err != nil || status != c.status || !strings.Contains(m["error"], c.want) {
			t.Errorf("%s: %d %s, want %d with %q", c.text, status, body, c.status, c.want)
		}
	}
}

// Whatever the page (or a link) sends, the engine answers with a status
// and a JSON body, and never panics. Computations are cut at 200 ms.
func FuzzRespond(f *testing.F) {
	for _, file := range []string{"wild-results-3to1", "plan-one-hex", "dusseldorf-bombardment"} {
		text, err := os.ReadFile("../../examples/" + file + ".yaml")
		if err != nil {
			f.Fatal(err)
		}
		for _, cmd := range []string{"run", "compare", "sweep", "plan", "parse", "weights"} {
			req, _ := json.Marshal(map[string]any{"command": cmd, "scenario": string(text),
				"params": map[string][]string{"variant": {"a=crt=2d6"}, "attack": {"5..9"}, "trials": {"1000"}}})
			f.Add(string(req))
		}
		for _, cmd := range []string{"run", "weights"} {
			req, _ := json.Marshal(map[string]any{"command": cmd, "scenario": string(text),
				"params": map[string][]string{"cell": {"assault/3:1/4:*/1", "blitz/>=10:1/6:-/2S"}, "trials": {"1000"}}})
			f.Add(string(req))
		}
	}
	f.Add(`{"command": "schema"}`)
	f.Fuzz(func(t *testing.T, text string) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		status, body := Respond(ctx, text, nil)
		var m any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%d: the body is not JSON: %v\n%s", status, err, body)
		}
		if status != 200 && status != 400 && status != 422 {
			t.Fatalf("status %d", status)
		}
	})
}

// A Monte Carlo run reports its progress, up to every trial planned.
func TestRespondProgress(t *testing.T) {
	text, err := os.ReadFile("../../examples/wild-results-3to1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := json.Marshal(map[string]any{"command": "run", "params": map[string][]string{"method": {"mc"}, "trials": {"300000"}}, "scenario": string(text)})
	var last, planned uint64
	status, body := Respond(context.Background(), string(req), func(d, p uint64) { last, planned = max(last, d), p })
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	if planned != 300000 || last != planned {
		t.Errorf("progress reached %d of %d, want 300000 of 300000", last, planned)
	}
}

// The quick-entry box's stack line reads here as on the server: the
// front door's units, or its error with the suggestion.
func TestRespondStack(t *testing.T) {
	status, body := call(t, map[string]any{"command": "stack", "params": map[string][]string{"text": {"2x INF 4 GE, ARM 6 GE"}}})
	units, _ := answer.Stack("2x INF 4 GE, ARM 6 GE")
	want, _ := answer.JSON(units)
	if status != 200 || string(body) != string(want) {
		t.Errorf("%d %s, want %s", status, body, want)
	}
	status, body = call(t, map[string]any{"command": "stack", "params": map[string][]string{"text": {"INF 4 GERM"}}})
	if status != 400 || !strings.Contains(string(body), "did you mean GE, Germany?") {
		t.Errorf("a typo: %d %s", status, body)
	}
}
