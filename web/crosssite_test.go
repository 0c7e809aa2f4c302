package web

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// formBody is the scenario as a multipart form, as the page sends it with
// an uploaded table.
func formBody(t *testing.T, scenario []byte) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, _ := mw.CreateFormFile("scenario", "s.yaml")
	w.Write(scenario)
	mw.Close()
	return mw.FormDataContentType(), buf.Bytes()
}

// send makes a request with the given headers and returns the status, the
// headers and the body.
func send(t *testing.T, ts *httptest.Server, method, path string, body []byte, headers map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}

// A request another site's page makes is refused (403) before it is
// routed, whatever its content type, including the three a browser posts
// cross-site without asking first (issue 23 item 15; docs/web.md "Safe by
// default").
func TestCrossSiteRefused(t *testing.T) {
	_, ts := newServer(t, Config{})
	scenario := read(t, wild)
	formType, form := formBody(t, scenario)
	port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	bodies := []struct {
		ctype string
		body  []byte
	}{
		{"text/plain", scenario},
		{formType, form},
		{"application/x-www-form-urlencoded", []byte("kind=land")},
		{"", scenario},
		{"application/yaml", scenario},
		{"application/json", []byte(`{"kind": "land"}`)},
	}
	signals := []map[string]string{
		{"Origin": "https://evil.example"},
		{"Origin": "http://evil.example:" + port},
		{"Origin": "http://localhost:1"}, // another port: another origin
		{"Origin": "null"},
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site"},
		{"Sec-Fetch-Site": "same-site", "Origin": "http://localhost:1"},
		{"Sec-Fetch-Site": "cross-site", "Origin": ts.URL}, // the browser's word wins
		{"Sec-Fetch-Site": "sideways"},
	}
	for _, b := range bodies {
		for _, sig := range signals {
			h := map[string]string{"Content-Type": b.ctype}
			for k, v := range sig {
				h[k] = v
			}
			for _, path := range []string{"/api/run?method=mc&trials=1e8", "/api/parse"} {
				code, hdr, text := send(t, ts, "POST", path, b.body, h)
				if code != http.StatusForbidden || !strings.Contains(text, "another site") {
					t.Errorf("POST %s %q %v: %d %s, want 403", path, b.ctype, sig, code, text)
				}
				if hdr.Get("Content-Security-Policy") == "" || hdr.Get("X-Content-Type-Options") != "nosniff" {
					t.Errorf("POST %s %v: the 403 lacks the security headers: %v", path, sig, hdr)
				}
			}
		}
	}
	// A script on another site may not read the API with GET either.
	if code, _, _ := send(t, ts, "GET", "/api/schema", nil, map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"}); code != 403 {
		t.Errorf("cross-site GET /api/schema: %d, want 403", code)
	}
	if code, _, _ := send(t, ts, "POST", "/api/run", scenario, map[string]string{"Content-Type": "application/yaml", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}); code != 403 {
		t.Errorf("cross-site navigating POST: %d, want 403", code)
	}
}

// The page's own requests, and those of programs that are not browsers,
// still work; a link from elsewhere still opens the page.
func TestSameOriginServed(t *testing.T) {
	_, ts := newServer(t, Config{})
	scenario := read(t, wild)
	formType, form := formBody(t, scenario)
	port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	for _, sig := range []map[string]string{
		{},
		{"Origin": ts.URL},
		{"Origin": ts.URL, "Sec-Fetch-Site": "same-origin"},
		{"Sec-Fetch-Site": "same-origin"},
		{"Sec-Fetch-Site": "none"},
		{"Host": "localhost:" + port, "Origin": "http://LOCALHOST:" + port},
		{"Host": "localhost:" + port, "Origin": "http://localhost:" + port, "Sec-Fetch-Site": "same-site"},
	} {
		for _, b := range []struct {
			ctype string
			body  []byte
		}{{"application/yaml", scenario}, {formType, form}} {
			h := map[string]string{"Content-Type": b.ctype}
			for k, v := range sig {
				h[k] = v
			}
			if code, _, text := send(t, ts, "POST", "/api/run?method=exact", b.body, h); code != 200 {
				t.Errorf("POST %q %v: %d %s", b.ctype, sig, code, text)
			}
		}
	}
	if code, _, _ := send(t, ts, "GET", "/", nil, map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}); code != 200 {
		t.Errorf("a link from another site to the page: %d", code)
	}
	if code, _, _ := send(t, ts, "GET", "/app.js", nil, map[string]string{"Origin": ts.URL, "Sec-Fetch-Site": "same-origin"}); code != 200 {
		t.Errorf("the page's script: %d", code)
	}
}

// Only the media types the page and the API's documentation name are
// read; a text/plain, urlencoded or untyped body is refused (415) even
// from the same origin.
func TestContentTypes(t *testing.T) {
	_, ts := newServer(t, Config{})
	scenario := read(t, wild)
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "text/yaml", "multipart/form-data"} {
		code, _, text := send(t, ts, "POST", "/api/run", scenario, map[string]string{"Content-Type": ct, "Origin": ts.URL})
		want := http.StatusUnsupportedMediaType
		if ct == "multipart/form-data" {
			want = http.StatusBadRequest // no boundary
		}
		if code != want {
			t.Errorf("Content-Type %q: %d %s, want %d", ct, code, text, want)
		}
	}
	code, _, text := send(t, ts, "POST", "/api/run", scenario, map[string]string{"Content-Type": "application/yaml; charset=utf-8"})
	if code != 200 {
		t.Errorf("application/yaml with a charset: %d %s", code, text)
	}
}

// Every answer, refusals included, carries the security headers; an
// endpoint asked with another method answers 405 and says which it takes
// (issue 23 item 18; docs/web.md "The API").
func TestEveryAnswerHasSecurityHeaders(t *testing.T) {
	s, ts := newServer(t, Config{MaxBody: 4096, QueueLength: -1})
	scenario := read(t, wild)
	cases := []struct {
		method, path string
		headers      map[string]string
		body         []byte
		status       int
		allow        string
	}{
		{"GET", "/", nil, nil, 200, ""},
		{"GET", "/api/schema", nil, nil, 200, ""},
		{"POST", "/api/run", map[string]string{"Content-Type": "application/yaml"}, scenario, 200, ""},
		{"GET", "/api/schema", map[string]string{"Host": "evil.example:80"}, nil, 403, ""},
		{"POST", "/api/run", map[string]string{"Content-Type": "text/plain", "Origin": "https://evil.example"}, scenario, 403, ""},
		{"GET", "/api/nope", nil, nil, 404, ""},
		{"GET", "/nope.html", nil, nil, 404, ""},
		{"GET", "/api/crt/9d6", nil, nil, 404, ""},
		{"GET", "/api/run", nil, nil, 405, "POST"},
		{"PUT", "/api/plan", nil, nil, 405, "POST"},
		{"OPTIONS", "/api/compare", nil, nil, 405, "POST"},
		{"POST", "/api/schema", map[string]string{"Content-Type": "application/yaml"}, nil, 405, "GET, HEAD"},
		{"DELETE", "/api/crt/standard", nil, nil, 405, "GET, HEAD"},
		{"POST", "/", map[string]string{"Content-Type": "application/yaml"}, nil, 405, "GET, HEAD"},
		{"POST", "/api/run", map[string]string{"Content-Type": "application/yaml"}, bytes.Repeat([]byte("# padding\n"), 1000), 413, ""},
		{"POST", "/api/run", map[string]string{"Content-Type": "image/png"}, scenario, 415, ""},
	}
	for _, c := range cases {
		code, h, text := send(t, ts, c.method, c.path, c.body, c.headers)
		if code != c.status {
			t.Errorf("%s %s: %d %s, want %d", c.method, c.path, code, text, c.status)
		}
		if h.Get("Content-Security-Policy") == "" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s %s (%d): security headers missing: %v", c.method, c.path, code, h)
		}
		if h.Get("Allow") != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, h.Get("Allow"), c.allow)
		}
	}
	s.slots <- struct{}{}
	for range cap(s.slots) - 1 {
		s.slots <- struct{}{}
	}
	code, h, _ := send(t, ts, "POST", "/api/run", scenario, map[string]string{"Content-Type": "application/yaml"})
	if code != 503 || h.Get("Content-Security-Policy") == "" || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("busy: %d %v", code, h)
	}
	for range cap(s.slots) {
		<-s.slots
	}
}

func TestSameOrigin(t *testing.T) {
	for _, c := range []struct {
		origin, host string
		want         bool
	}{
		{"http://127.0.0.1:8080", "127.0.0.1:8080", true},
		{"http://LocalHost:8080", "localhost:8080", true},
		{"http://localhost", "localhost:80", true},
		{"https://localhost", "localhost:443", true},
		{"http://[::1]:8080", "[::1]:8080", true},
		{"http://[::1]", "[::1]:80", true},
		{"http://localhost:8081", "localhost:8080", false},
		{"http://localhost", "localhost:8080", false},
		{"https://localhost", "localhost:80", false},
		{"http://127.0.0.1:8080", "localhost:8080", false},
		{"null", "localhost:8080", false},
		{"file://", "localhost:8080", false},
		{"ftp://localhost", "localhost:21", false},
		{"http://user@localhost:8080", "localhost:8080", false},
		{"http://localhost:8080/x", "localhost:8080", false},
		{"http://evil.example", "localhost:8080", false},
		{"%%%", "localhost:8080", false},
	} {
		if got := sameOrigin(c.origin, c.host); got != c.want {
			t.Errorf("sameOrigin(%q, %q) = %v", c.origin, c.host, got)
		}
	}
}
