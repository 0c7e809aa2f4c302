package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/answer/browser"
)

// Red-team finding F8: over HTTP a repeated parameter took its first value
// (seed=1&seed=2 ran seed 1) and an unknown one was ignored (seeds=5 ran
// seed 1), so a typo went unnoticed. Both are a 400 naming the parameter,
// as the CLI refuses a repeated or unknown flag; variant and cell alone
// repeat.
func TestQueryParametersChecked(t *testing.T) {
	_, ts := newServer(t, Config{MaxTrials: 1_000_000})
	good := read(t, wild)
	for _, c := range []struct{ path, text string }{
		{"/api/run?method=mc&trials=10&seed=1&seed=2", "seed is given 2 times (seed=1, seed=2); give it once"},
		{"/api/run?method=mc&seeds=5", `unknown parameter "seeds" (did you mean seed?): /api/run takes the parameters method, trials, seed, budget, explain, raids, dice, crt, cell`},
		{"/api/weights?crt=standard&crt=2d6", "crt is given 2 times"},
		{"/api/weights?cells=assault/3:1/4:*/1", `unknown parameter "cells" (did you mean cell?)`},
		{"/api/weights?cell=assault/3:1/9:*/1", `cell: cell "assault/3:1/9": roll "9": want a whole number from 0 to 7`},
		{"/api/run?cell=assault/3:1/4:*/1&cell=assault/3:1/4:1/1", "cell: cell assault/3:1/4 is edited twice"},
		{"/api/run?raids=3&raids=21", "raids is given 2 times"},
		{"/api/run?Method=exact", `unknown parameter "Method" (did you mean method?)`},
		{"/api/sweep?attack=8..9&attack=20..21", "attack is given 2 times"},
		{"/api/sweep?attack=8..9&trials=100", `unknown parameter "trials"`},
		{"/api/compare?variant=a=crt=2d6&independant=true", `unknown parameter "independant"`},
		{"/api/plan?target=0.7&target=0.8", "target is given 2 times"},
		{"/api/parse?x=1", `unknown parameter "x": /api/parse takes no parameters`},
		// target=0x1p-1 was read as 0.5, a hex float; the CLI refuses it too.
		{"/api/sweep?attack=8..9&target=0x1p-1", "target=0x1p-1: want a number above 0 and at most 1"},
	} {
		code, m, _ := post(t, ts, c.path, "application/yaml", good)
		wantError(t, code, m, 400, c.text)
	}
	for _, path := range []string{"/api/compare?variant=a=crt=2d6&variant=b=crt=standard&method=exact", "/api/run?method=exact&explain=true",
		"/api/run?method=exact&cell=assault/3:1/4:*/1&cell=assault/3:1/5:*/1", "/api/weights?cell=assault/3:1/4:*/1&cell=assault/3:1/5:*/1"} {
		if code, m, _ := post(t, ts, path, "application/yaml", good); code != 200 {
			t.Errorf("%s: %d %v", path, code, m["error"])
		}
	}
}

// The browser build reads the same parameters through the same reader
// (package answer/query): a request the server refuses, it refuses with
// the same status and message, byte for byte (query.Refusal). Trials are capped at the
// server's default (1e8) on both.
func TestBrowserRefusesAsTheServer(t *testing.T) {
	_, ts := newServer(t, Config{})
	for _, c := range []struct{ path, file string }{
		{"/api/run?method=mc&trials=10&seed=1&seed=2", wild},
		{"/api/run?method=mc&seeds=5", wild},
		{"/api/run?Method=exact", wild},
		{"/api/run?raids=0", wild},
		{"/api/run?raids=21", wild},
		{"/api/run?raids=3", wild},
		{"/api/run?explain=yes", wild},
		{"/api/run?trials=2e8", wild},
		{"/api/run?budget=2e12", wild},
		{"/api/run?dice=7", wild},
		{"/api/sweep?attack=8..9&trials=100", wild},
		{"/api/sweep?attack=8..9&target=0x1p-1", wild},
		{"/api/sweep?attack=0..99999", wild},
		{"/api/sweep?attack=8..9&defence=1..2", wild},
		{"/api/compare?variant=a=crt=2d6&independant=true", wild},
		{"/api/compare?method=exact", wild},
		{"/api/compare?variant=a=nope=1", wild},
		{"/api/compare?variant=a=crt=9d6", wild},
		{"/api/plan?target=0.7&target=0.8", wild},
		{"/api/plan?max_forces=1e12", wild},
		{"/api/parse?x=1", wild},
		{"/api/stack?text=INF+3+GE&text=ARM+6+GE", wild},
		{"/api/stack?txt=INF+3+GE", wild},
		{"/api/schema?x=1", wild},
		// The wrong kind of scenario is told the right endpoint.
		{"/api/run", "../examples/plan-one-hex.yaml"},
		{"/api/compare?variant=a=crt=2d6", "../examples/dusseldorf-bombardment.yaml"},
		// A combat the budget refuses is a 422, with what to change.
		{"/api/run?method=exact&budget=1000", "../cmd/wifodds/testdata/huge-tree.yaml"},
	} {
		text := read(t, c.file)
		var code int
		var m map[string]any
		if strings.HasPrefix(c.path, "/api/stack") || strings.HasPrefix(c.path, "/api/schema") {
			code, m = get(t, ts, c.path)
		} else {
			code, m, _ = post(t, ts, c.path, "application/yaml", text)
		}
		if code != 400 && code != 422 {
			t.Errorf("%s: the server answers %d %v, want a 400 or a 422", c.path, code, m["error"])
			continue
		}
		u, err := url.Parse(c.path)
		if err != nil {
			t.Fatal(err)
		}
		req, _ := json.Marshal(map[string]any{"command": strings.TrimPrefix(u.Path, "/api/"), "params": u.Query(), "scenario": string(text)})
		bcode, body := browser.Respond(t.Context(), string(req), nil)
		var bm map[string]any
		if err := json.Unmarshal(body, &bm); err != nil {
			t.Fatalf("%s: the browser's answer is not JSON: %v", c.path, err)
		}
		if bcode != code || bm["error"] != m["error"] {
			t.Errorf("%s: the server answers %d %q, the browser build %d %q", c.path, code, m["error"], bcode, bm["error"])
		}
	}
}

// Red-team finding F10: a path the page does not have answered the file
// server's "404 page not found" as text; every error is {"error": ...}.
func TestNotFoundIsJSON(t *testing.T) {
	_, ts := newServer(t, Config{})
	for _, p := range []string{"/nope", "/API/run", "/nope.html", "/static/app.js"} {
		res, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]string
		jerr := json.NewDecoder(res.Body).Decode(&m)
		res.Body.Close()
		if res.StatusCode != 404 || res.Header.Get("Content-Type") != "application/json" || jerr != nil || !strings.Contains(m["error"], "no such page or endpoint") {
			t.Errorf("%s: %d %s %v %v", p, res.StatusCode, res.Header.Get("Content-Type"), m, jerr)
		}
	}
	for _, p := range []string{"/", "/app.js", "/style.css"} {
		res, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
	}
}

// Red-team finding F1 over HTTP: a name that is not one line (here in a
// JSON body, whose "\n" escape is a newline) is refused with its line,
// as the CLI refuses it, not printed into a report.
func TestNameOfTwoLinesRefused(t *testing.T) {
	_, ts := newServer(t, Config{})
	body := []byte(`{"name": "x\nP(hex taken) 99%", "kind": "land", "hex": {"terrain": "clear"},
 "attacker": {"units": [{"type": "ARM", "size": "corps", "factors": 6, "nation": "GE"}]},
 "defender": {"units": [{"type": "INF", "size": "corps", "factors": 2, "nation": "FR"}]}}`)
	code, m, _ := post(t, ts, "/api/run", "application/json", body)
	wantError(t, code, m, 400, `request.json:2:11: "x\nP(hex taken) 99%" holds the character U+000A`)
	code, m, _ = post(t, ts, "/api/compare?variant="+url.QueryEscape("a\nforged=crt=2d6"), "application/yaml", read(t, wild))
	wantError(t, code, m, 400, "U+000A")
}
