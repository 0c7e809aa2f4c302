package main

import (
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/wifodds/wifodds/web"
)

// statusLog notes the status of every API request a server answers.
type statusLog struct {
	mu   sync.Mutex
	seen []string
}

func (l *statusLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusWriter{ResponseWriter: w, status: 200}
		h.ServeHTTP(rec, r)
		if strings.HasPrefix(r.URL.Path, "/api/") {
			l.mu.Lock()
			l.seen = append(l.seen, fmt.Sprintf("%d %s %s %s (Sec-Fetch-Site %q, Origin %q)", rec.status, r.Method, r.URL.RequestURI(),
				r.Header.Get("Content-Type"), r.Header.Get("Sec-Fetch-Site"), r.Header.Get("Origin")))
			l.mu.Unlock()
		}
	})
}

func (l *statusLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) { w.status = code; w.ResponseWriter.WriteHeader(code) }

// A page on another origin, in a real browser, posts the three kinds of
// form a browser sends anywhere without asking (text/plain, multipart,
// urlencoded) and a no-cors fetch to the server: every one is refused with
// 403, though the multipart one holds a valid scenario (issue 23 item 15).
// The other page is on another port of the same address (same-site) and
// on another host name for it (cross-site).
func TestBrowserCrossSitePostsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test")
	}
	ts := httptest.NewUnstartedServer(nil)
	s, err := web.New(ts.Listener.Addr().String(), web.Config{Workers: 1, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	var log statusLog
	ts.Config.Handler = log.wrap(s)
	ts.Start()
	defer ts.Close()
	scenario, err := os.ReadFile("../../examples/wild-results-3to1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	target := ts.URL + "/api/run?method=exact"
	page := `<!doctype html><title>elsewhere</title>
<iframe name="f1"></iframe><iframe name="f2"></iframe><iframe name="f3"></iframe>
<form id="plain" method="POST" enctype="text/plain" target="f1" action="` + target + `&form=plain"><input name="kind: land&#10;#" value="x"></form>
<form id="multi" method="POST" enctype="multipart/form-data" target="f2" action="` + target + `&form=multipart"><textarea name="scenario">` + html.EscapeString(string(scenario)) + `</textarea></form>
<form id="url" method="POST" target="f3" action="` + target + `&form=urlencoded"><input name="kind" value="land"></form>
<script>
fetch(` + "`" + target + "&form=fetch`" + `, {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'}, body: 'kind: land'}).catch(() => {});
for (const id of ['plain', 'multi', 'url']) document.getElementById(id).submit();
</script>`
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, page)
	}))
	defer other.Close()
	otherPort := other.URL[strings.LastIndex(other.URL, ":")+1:]
	ctx, cancel := browser(t, 800, 600)
	defer cancel()
	for _, origin := range []string{"http://127.0.0.1:" + otherPort, "http://localhost:" + otherPort} {
		before := len(log.list())
		if err := chromedp.Do(ctx, chromedp.Navigate(origin+"/")); err != nil {
			t.Fatal(err)
		}
		var seen []string
		for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			if seen = log.list()[before:]; len(seen) >= 4 {
				break
			}
		}
		if len(seen) < 4 {
			t.Errorf("from %s: the server saw %d of the 4 requests: %v", origin, len(seen), seen)
		}
		for _, s := range seen {
			if !strings.HasPrefix(s, "403 ") {
				t.Errorf("from %s: %s, want 403", origin, s)
			}
		}
		t.Logf("from %s: %s", origin, strings.Join(seen, "; "))
	}
}
