package web

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wifodds/wifodds/crt"
)

const wild = "../examples/wild-results-3to1.yaml"

func newServer(t *testing.T, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	ts := httptest.NewUnstartedServer(nil)
	s, err := New(ts.Listener.Addr().String(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = s
	ts.Start()
	t.Cleanup(ts.Close)
	return s, ts
}

func read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// post sends body and returns the status and the decoded JSON.
func post(t *testing.T, ts *httptest.Server, path, ctype string, body []byte) (int, map[string]any, http.Header) {
	t.Helper()
	res, err := http.Post(ts.URL+path, ctype, bytes.NewReader(body))
	return decoded(t, path, res, err)
}

// get sends a GET and returns the status and the decoded JSON.
func get(t *testing.T, ts *httptest.Server, path string) (int, map[string]any) {
	t.Helper()
	res, err := http.Get(ts.URL + path)
	code, m, _ := decoded(t, path, res, err)
	return code, m
}

func decoded(t *testing.T, path string, res *http.Response, err error) (int, map[string]any, http.Header) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
		t.Fatalf("%s: the answer is not JSON: %v", path, err)
	}
	return res.StatusCode, m, res.Header
}

func wantError(t *testing.T, status int, m map[string]any, wantStatus int, wantText string) {
	t.Helper()
	msg, _ := m["error"].(string)
	if status != wantStatus || !strings.Contains(msg, wantText) {
		t.Errorf("got %d %q, want %d and a message containing %q", status, msg, wantStatus, wantText)
	}
}

func TestRunAnswers(t *testing.T) {
	_, ts := newServer(t, Config{})
	// The budget reads as the CLI's does (2M is 2,000,000 paths).
	code, m, _ := post(t, ts, "/api/run?method=exact&budget=2M", "application/yaml", read(t, wild))
	if code != 200 || m["method"] != "exact" {
		t.Fatalf("%d %v", code, m)
	}
	p := m["probabilities"].(map[string]any)["hex_taken"].(map[string]any)["p"].(float64)
	if p <= 0 || p > 1 {
		t.Errorf("P(hex taken) %v", p)
	}
}

// The same scenario as JSON gives the same answer as YAML.
func TestRunJSONBody(t *testing.T) {
	_, ts := newServer(t, Config{})
	js := `{"name": "wild-results-3to1", "kind": "land", "crt": "standard", "table": "assault", "options": ["wild-results"], "modifier": 1,
	  "hex": {"terrain": "clear", "weather": "clear"},
	  "attacker": {"units": [{"type": "ARM", "size": "corps", "factors": 6, "nation": "GE"}, {"type": "INF", "size": "corps", "factors": 4, "nation": "GE"}, {"type": "INF", "size": "corps", "factors": 3, "nation": "GE"}]},
	  "defender": {"units": [{"type": "INF", "size": "corps", "factors": 2, "nation": "FR"}, {"type": "INF", "size": "corps", "factors": 2, "nation": "FR"}]},
	  "dice": [5, 1]}`
	_, a, _ := post(t, ts, "/api/run?method=exact", "application/json", []byte(js))
	_, b, _ := post(t, ts, "/api/run?method=exact", "application/yaml", read(t, wild))
	delete(a, "elapsed_seconds")
	delete(b, "elapsed_seconds")
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Errorf("JSON body:\n%s\nYAML body:\n%s", ja, jb)
	}
}

func TestBadRequests(t *testing.T) {
	s, ts := newServer(t, Config{MaxBody: 4096, MaxTrials: 1000})
	_ = s
	good := read(t, wild)
	cases := []struct {
		name, path, ctype string
		body              []byte
		status            int
		text              string
	}{
		{"bad YAML", "/api/run", "application/yaml", []byte("kind: land\nattacker: {units: [\n"), 400, "request.yaml:"},
		{"unknown key", "/api/run", "application/yaml", bytes.Replace(good, []byte("modifier:"), []byte("modifer:"), 1), 400, `did you mean "modifier"`},
		{"oversized body", "/api/run", "application/yaml", bytes.Repeat([]byte("# padding\n"), 1000), 413, "over 4096 bytes"},
		{"a file named", "/api/run", "application/yaml", bytes.Replace(good, []byte("crt: standard"), []byte("crt: /etc/passwd"), 1), 400, "names a file"},
		{"air tables file", "/api/run", "application/yaml", []byte("kind: bombardment\nair_tables: ../crt/airdata/strategic.yaml\ntarget: {factories: 1}\nbombers: [{a2a: 1, sb: 2}]\n"), 400, "names a file"},
		{"trials over the cap", "/api/run?method=mc&trials=5000", "application/yaml", good, 400, "over this server's cap of 1000"},
		{"bad method", "/api/run?method=fast", "application/yaml", good, 400, "method=fast"},
		{"bad JSON", "/api/run", "application/json", []byte(`{"kind": `), 400, "not JSON"},
		{"wrong type", "/api/run", "image/png", good, 415, "Content-Type"},
		// A land combat is tabulated, never over a budget; a campaign's
		// states are counted against it.
		{"exact over budget", "/api/run?method=exact&budget=5&raids=3", "application/yaml", read(t, "../examples/night-raid-campaign.yaml"), 422, "budget"},
		{"plan to run", "/api/run", "application/yaml", read(t, "../examples/plan-one-hex.yaml"), 400, "/api/plan"},
		{"no variant", "/api/compare", "application/yaml", good, 400, "variant="},
		{"bad variant", "/api/compare?variant=x=speed=3", "application/yaml", good, 400, "variant x"},
		{"sweep range", "/api/sweep?attack=9..x", "application/yaml", good, 400, "attack=9..x"},
		{"nothing to plan", "/api/plan", "application/yaml", good, 400, "nothing to plan"},
		{"bad dice", "/api/run?dice=7,1", "application/yaml", good, 400, "dice"},
		{"bad budget", "/api/run?budget=lots", "application/yaml", good, 400, "budget=lots"},
		{"budget over the bound", "/api/run?budget=2e12", "application/yaml", good, 400, "budget=2e12: over this server's cap of 1099511627776"},
		// As the CLI's --raids and --seed (issue 23 item 8).
		{"raids on a land combat", "/api/run?raids=3", "application/yaml", good, 400, "raids=3: raids applies only to bombardments"},
		{"no raids", "/api/run?raids=0", "application/yaml", good, 400, "raids=0: want a whole number from 1 to 20"},
		{"too many raids", "/api/run?raids=21", "application/yaml", good, 400, "raids=21: want a whole number from 1 to 20"},
		{"too many raids on a bombardment", "/api/run?raids=21", "application/yaml", read(t, "../examples/night-raid-campaign.yaml"), 400, "raids=21"},
		{"hex seed", "/api/run?method=mc&trials=100&seed=0x10", "application/yaml", good, 400, `seed="0x10": a seed is a decimal whole number`},
		{"negative seed", "/api/run?method=mc&trials=100&seed=-1", "application/yaml", good, 400, "seed="},
		{"deep JSON", "/api/run", "application/json", []byte(`{"a": ` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "}"), 400, "request.json: byte 37: nested more than 32 deep"},
		{"form part twice", "/api/run", "multipart/form-data; boundary=b", []byte("--b\r\nContent-Disposition: form-data; name=\"scenario\"\r\n\r\nkind: land\r\n--b\r\nContent-Disposition: form-data; name=\"scenario\"\r\n\r\nkind: land\r\n--b--\r\n"), 400, `form part "scenario" comes twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, m, _ := post(t, ts, c.path, c.ctype, c.body)
			wantError(t, code, m, c.status, c.text)
		})
	}
}

// A seed is decimal: seed=010 is seed=10, as --seed 010 is (issue 23
// item 8).
func TestSeedIsDecimal(t *testing.T) {
	_, ts := newServer(t, Config{})
	answer := func(seed string) string {
		code, m, _ := post(t, ts, "/api/run?method=mc&trials=1000&seed="+seed, "application/yaml", read(t, wild))
		if code != 200 {
			t.Fatalf("seed=%s: %d %v", seed, code, m["error"])
		}
		delete(m, "elapsed_seconds")
		b, _ := json.Marshal(m)
		return string(b)
	}
	if a, b := answer("010"), answer("10"); a != b || !strings.Contains(a, `"seed":10`) {
		t.Errorf("seed=010 and seed=10 differ:\n%s\n%s", a, b)
	}
	if a, b := answer("8"), answer("10"); a == b {
		t.Error("seeds 8 and 10 give the same answer: the test cannot tell them apart")
	}
}

// A Host header that is not the server's is refused: DNS rebinding.
func TestHostHeader(t *testing.T) {
	_, ts := newServer(t, Config{})
	for host, want := range map[string]int{"evil.example:80": 403, ts.Listener.Addr().String(): 200, "localhost:" + ts.URL[strings.LastIndex(ts.URL, ":")+1:]: 200} {
		req, _ := http.NewRequest("GET", ts.URL+"/api/schema", nil)
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, res.StatusCode, want)
		}
	}
}

// Past the concurrency limit (and the queue, here none) a request gets
// 503 with Retry-After.
func TestBusy(t *testing.T) {
	s, ts := newServer(t, Config{Concurrency: 1, QueueLength: -1})
	s.slots <- struct{}{} // a computation is running
	code, m, h := post(t, ts, "/api/run", "application/yaml", read(t, wild))
	wantError(t, code, m, 503, "busy")
	if h.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	<-s.slots
	if code, _, _ := post(t, ts, "/api/run", "application/yaml", read(t, wild)); code != 200 {
		t.Errorf("after the slot freed: %d", code)
	}
}

// A computation over the deadline stops with 503.
func TestDeadline(t *testing.T) {
	_, ts := newServer(t, Config{Timeout: 50 * time.Millisecond, MaxTrials: 1e10})
	start := time.Now()
	code, m, _ := post(t, ts, "/api/run?method=mc&trials=1e10", "application/yaml", read(t, wild))
	if time.Since(start) > 20*time.Second {
		t.Error("the deadline did not stop the computation")
	}
	wantError(t, code, m, 503, "limit")
}

// A request whose client goes away stops its computation: the slot it
// held frees long before its trials could have run.
func TestCancelledRequestStops(t *testing.T) {
	s, ts := newServer(t, Config{Concurrency: 1, Timeout: time.Minute, Workers: 1, MaxTrials: 1e10})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/run?method=mc&trials=1e10", bytes.NewReader(read(t, wild)))
	req.Header.Set("Content-Type", "application/yaml")
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
		t.Fatal("the request finished; it should have been cancelled")
	}
	// 1e10 trials take a minute or more; a stopped computation frees its
	// slot at the next chunk, within milliseconds.
	deadline := time.Now().Add(5 * time.Second)
	for len(s.slots) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if len(s.slots) > 0 {
		t.Error("the computation kept its slot after the client went away")
	}
}

// A panic in a handler is a 500 and the server goes on.
func TestPanicIs500(t *testing.T) {
	s, ts := newServer(t, Config{})
	s.mux.HandleFunc("GET /boom", func(http.ResponseWriter, *http.Request) { panic("boom") })
	res, err := http.Get(ts.URL + "/boom")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 500 {
		t.Errorf("status %d", res.StatusCode)
	}
	if code, _, _ := post(t, ts, "/api/run", "application/yaml", read(t, wild)); code != 200 {
		t.Errorf("after the panic: %d", code)
	}
}

func TestEndpoints(t *testing.T) {
	_, ts := newServer(t, Config{})
	get := func(path string) (int, string) {
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get("/"); code != 200 || !strings.Contains(body, "<title>wifodds") {
		t.Errorf("the page: %d", code)
	}
	if code, body := get("/app.js"); code != 200 || !strings.Contains(body, "api/run") {
		t.Errorf("app.js: %d", code)
	}
	if code, body := get("/api/crt/2D6"); code != 200 || !strings.Contains(body, `"name": "2d6"`) {
		t.Errorf("crt 2d6: %d %s", code, body[:min(len(body), 100)])
	}
	if code, _ := get("/api/crt/9d6"); code != 404 {
		t.Errorf("crt 9d6: %d", code)
	}
	if code, _ := get("/api/nope"); code != 404 {
		t.Errorf("/api/nope: %d", code)
	}
	if code, body := get("/api/schema"); code != 200 || !strings.Contains(body, `"USSR"`) ||
		!strings.Contains(body, `"label": "Wild combat results (AsA 3.14)"`) || !strings.Contains(body, `"label": "Reference town"`) {
		t.Errorf("schema: %d, or no words for the options and hex flags", code)
	}
	// The quick-entry box's parser (scenario.ParseStack), and its
	// suggestion for a typo.
	if code, body := get("/api/stack?text=" + url.QueryEscape("3x INF 4 GE, ARM 6")); code != 200 ||
		strings.Count(body, `"type": "INF"`) != 3 || strings.Count(body, `"nation": "GE"`) != 4 {
		t.Errorf("stack: %d %s", code, body)
	}
	if code, body := get("/api/stack?text=" + url.QueryEscape("3x INF 4 GERM")); code != 400 || !strings.Contains(body, "did you mean GE, Germany?") {
		t.Errorf("stack with a typo: %d %s", code, body)
	}
	res, _ := http.Post(ts.URL+"/", "text/plain", nil)
	res.Body.Close()
	if res.StatusCode != 405 {
		t.Errorf("POST /: %d", res.StatusCode)
	}
	code, m, _ := post(t, ts, "/api/parse", "application/yaml", read(t, wild))
	if code != 200 || m["kind"] != "land" || m["modifier"].(float64) != 1 {
		t.Errorf("parse: %d %v", code, m)
	}
	for _, p := range []string{"/api/compare?variant=std=crt=standard&variant=alt=crt=2d6", "/api/sweep?attack=8..20&crt=standard,2d6&target=0.5"} {
		if code, m, _ := post(t, ts, p, "application/yaml", read(t, wild)); code != 200 {
			t.Errorf("%s: %d %v", p, code, m["error"])
		}
	}
	if code, m, _ := post(t, ts, "/api/plan?target=0.7", "application/yaml", read(t, "../examples/plan-one-hex.yaml")); code != 200 || m["recommended"] == nil {
		t.Errorf("plan: %d %v", code, m["error"])
	}
}

// An uploaded CRT replaces the scenario's table: the standard table sent
// as a file answers as the built-in one does.
func TestUploadedCRT(t *testing.T) {
	_, ts := newServer(t, Config{})
	src, err := crt.BuiltinSource("standard")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, _ := mw.CreateFormFile("scenario", "s.yaml")
	w.Write(read(t, wild))
	w, _ = mw.CreateFormFile("crt", "c.yaml")
	w.Write(src)
	mw.Close()
	code, up, _ := post(t, ts, "/api/run?method=exact", mw.FormDataContentType(), buf.Bytes())
	if code != 200 {
		t.Fatalf("%d %v", code, up["error"])
	}
	_, std, _ := post(t, ts, "/api/run?method=exact", "application/yaml", read(t, wild))
	if up["crt"] != "uploaded" {
		t.Errorf("crt %v", up["crt"])
	}
	a, _ := json.Marshal(up["probabilities"])
	b, _ := json.Marshal(std["probabilities"])
	if !bytes.Equal(a, b) {
		t.Errorf("uploaded %s\nbuilt-in %s", a, b)
	}
	// A form part that is not a table is refused with the table's error.
	buf.Reset()
	mw = multipart.NewWriter(&buf)
	w, _ = mw.CreateFormFile("scenario", "s.yaml")
	w.Write(read(t, wild))
	w, _ = mw.CreateFormFile("crt", "c.yaml")
	w.Write([]byte("nonsense: 1\n"))
	mw.Close()
	code, m, _ := post(t, ts, "/api/run", mw.FormDataContentType(), buf.Bytes())
	wantError(t, code, m, 400, "the uploaded crt")
}

// No request body, in any content type, makes a handler panic or answer
// 500: bad input is always the client's 4xx.
func FuzzAPI(f *testing.F) {
	f.Add([]byte("kind: land\n"), uint8(0), uint8(0))
	f.Add(read(f, wild), uint8(0), uint8(1))
	f.Add([]byte(`{"kind": "land", "attacker": {"units": [{"type": "INF", "factors": 3, "nation": "GE"}]}}`), uint8(1), uint8(0))
	f.Add(read(f, "../examples/plan-one-hex.yaml"), uint8(0), uint8(3))
	f.Add(read(f, "../examples/hold-smolensk.yaml"), uint8(0), uint8(3))
	f.Add(read(f, "../examples/dusseldorf-bombardment.yaml"), uint8(0), uint8(0))
	s, err := New("127.0.0.1:8080", Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxTrials: 10000, Timeout: 2 * time.Second})
	if err != nil {
		f.Fatal(err)
	}
	types := []string{"application/yaml", "application/json", "text/plain", "multipart/form-data; boundary=x"}
	paths := []string{"/api/run?trials=1000", "/api/compare?variant=a=crt=2d6&trials=1000", "/api/sweep?attack=1..6", "/api/plan?max_forces=256", "/api/parse",
		"/api/weights?cell=assault/3:1/4:*/1&cell=blitz/2:1/3:1/2", "/api/run?trials=1000&cell=assault/1:1/0:*/2B"}
	f.Fuzz(func(t *testing.T, body []byte, ct, path uint8) {
		req := httptest.NewRequest("POST", "http://127.0.0.1:8080"+paths[int(path)%len(paths)], bytes.NewReader(body))
		req.Header.Set("Content-Type", types[int(ct)%len(types)])
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("%d %s for %q", rec.Code, rec.Body.String(), body)
		}
	})
}
