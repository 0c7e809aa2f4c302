package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The static folder served by a plain file server (not wifodds serve)
// gives the CLI's numbers with the engine in the browser, runs the plan
// tab on the one-hex example, and sends no request off its origin. The
// file server adds a report-only Content-Security-Policy allowing the
// origin alone, so any request the page or its worker makes elsewhere is
// reported (not blocked) to it; a probe at the end shows the recorder
// hears. (Chromium's own background traffic is not the page's and is
// not counted.) The first answer after navigation, exact answers after
// edits (just after a load, after a reload, and later) and the plan are
// timed and logged for docs/performance.md, not asserted.
func TestStaticSiteInTheBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test")
	}
	var mu sync.Mutex
	var away []string
	files := http.FileServer(http.Dir(siteDir(t)))
	static := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/csp-report" {
			body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
			mu.Lock()
			away = append(away, string(body))
			mu.Unlock()
			return
		}
		w.Header().Set("Content-Security-Policy-Report-Only",
			"default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; report-uri /csp-report")
		files.ServeHTTP(w, r)
	}))
	defer static.Close()
	ctx, cancel := browser(t, 1280, 1000)
	defer cancel()

	firstAnswer(ctx, t, static.URL)
	editTiming(ctx, t, "the first after the page loaded")
	buildWildResults(ctx, t, static.URL)
	editTiming(ctx, t, "after a reload and the dozen answers of building the combat")
	warmedUp(ctx, t)
	editTiming(ctx, t, "the next nine")
	cancelLongRun(ctx, t)
	planOneHex(ctx, t)

	mu.Lock()
	before := append([]string(nil), away...)
	mu.Unlock()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`fetch('http://probe.invalid/').catch(() => {}), true`)); err != nil {
		t.Fatal(err)
	}
	heard := false
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end) && !heard; time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		heard = len(away) > len(before) && strings.Contains(strings.Join(away[len(before):], ""), "probe.invalid")
		mu.Unlock()
	}
	if !heard {
		t.Error("the recorder did not hear the probe's request off the origin: the check below proves nothing")
	}
	if len(before) > 0 {
		t.Errorf("requests left the origin: %v", before)
	}
	offline(ctx, t, static)
}

// firstAnswer opens the site and waits for the default combat's answer,
// drawn by the engine in the worker.
func firstAnswer(ctx context.Context, t *testing.T, url string) {
	t.Helper()
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(css("#p-hex[data-value]"))); err != nil {
		t.Fatal(err)
	}
	wall := time.Since(start)
	engine, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.wifodds.engine`))
	if err != nil || engine != "wasm" {
		t.Fatalf("the static page talks to engine %q (%v), want wasm", engine, err)
	}
	ms, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](`window.wifodds.firstAnswerMs`))
	t.Logf("first answer: %.0f ms after navigation by the page's clock (%v by the test's)", ms, wall.Round(time.Millisecond))
}

// editTiming edits a factor nine times and logs how long the engine took
// to answer exactly in the worker (its call, the median and the fastest),
// the page's call to the answer back (the messages to and from the worker
// too) and the edit to the answer drawn. when says where the page is: the
// first edits after a load run before the browser has optimised the
// module (the worker's warm-up is there for them).
func editTiming(ctx context.Context, t *testing.T, when string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(css("#tab-run"))); err != nil {
		t.Fatal(err)
	}
	var engine, answer, drawn []float64
	for i := range 9 {
		if err := chromedp.Do(ctx, setField(`[data-row="attacker-0"] [data-field="factors"]`, strconv.Itoa(6+i%2))); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		var m struct{ EngineMs, AnswerMs, EditToAnswerMs float64 }
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({EngineMs: performance.getEntriesByName('wifodds engine call').at(-1)?.duration,
			AnswerMs: window.wifodds.answerMs, EditToAnswerMs: window.wifodds.editToAnswerMs})`))
		if err != nil || json.Unmarshal([]byte(v), &m) != nil {
			t.Fatalf("the page's timings: %v %q", err, v)
		}
		engine, answer, drawn = append(engine, m.EngineMs), append(answer, m.AnswerMs), append(drawn, m.EditToAnswerMs)
	}
	for _, x := range [][]float64{engine, answer, drawn} {
		slices.Sort(x)
	}
	t.Logf("exact answer after an edit, %s (9 edits): the engine's call in the worker %.1f ms median, %.1f fastest; the page's call to the answer back %.1f ms median, %.1f fastest; %.0f ms median from the edit to the answer drawn (25 ms of it the page's debounce)",
		when, engine[4], engine[0], answer[4], answer[0], drawn[4])
}

// warmedUp waits for the worker to say it has made its warm-up replays
// (web/static/worker.js) since the reload.
func warmedUp(ctx context.Context, t *testing.T) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`performance.getEntriesByName('wifodds engine warmed').length`))
		if err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			return
		}
		if n > 1 || time.Now().After(end) {
			t.Fatalf("the worker said %d times that it had warmed up since the reload, want once", n)
		}
	}
}

// cancelLongRun starts a long Monte Carlo run in the worker, sees its
// progress on the status line, cancels it, and sees the next edit answered
// by a fresh worker.
func cancelLongRun(ctx context.Context, t *testing.T) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.wifodds.ask('run', {method: 'mc', trials: '100000000'}), true`)); err != nil {
		t.Fatal(err)
	}
	status := ""
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end) && !strings.Contains(status, "% ("); time.Sleep(20 * time.Millisecond) {
		status = liveText(ctx, t, "#status-text")
	}
	if !strings.Contains(status, "% (") || !strings.Contains(status, "of 100,000,000") {
		t.Fatalf("no progress on the status line during a long run: %q", status)
	}
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Click(css("#cancel"))); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && status != "Cancelled"; time.Sleep(10 * time.Millisecond) {
		status = liveText(ctx, t, "#status-text")
	}
	if status != "Cancelled" {
		t.Fatalf("after Cancel the status line says %q", status)
	}
	t.Logf("a long Monte Carlo run cancelled in %v", time.Since(start).Round(time.Millisecond))
	// The answer on show was for the combat before: struck, not current.
	if !answerStale(ctx, t) {
		t.Error("after Cancel the answer on show is not marked as not the current combat's")
	}
	want := cliHexTaken(t, "../../examples/wild-results-3to1.yaml")
	if err := chromedp.Do(ctx, setField(`[data-row="attacker-0"] [data-field="factors"]`, "7"), setField(`[data-row="attacker-0"] [data-field="factors"]`, "6")); err != nil {
		t.Fatal(err)
	}
	// The value on show was already want: wait for the fresh answer to
	// clear the mark, then check the value.
	stale := true
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end) && stale; time.Sleep(20 * time.Millisecond) {
		stale = answerStale(ctx, t)
	}
	if stale {
		t.Error("the answer to the edit after Cancel is still marked stale")
	}
	waitValue(ctx, t, "#p-hex", want)
}

// offline stops the file server and opens a share link to the site: the
// service worker's copies open the page and the engine answers.
func offline(ctx context.Context, t *testing.T, static *httptest.Server) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!navigator.serviceWorker.controller`))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Now().After(end) {
			t.Fatal("no service worker controls the static page")
		}
	}
	const file = "../../examples/wild-results-3to1.yaml"
	want := cliHexTaken(t, file)
	url := static.URL
	static.Close()
	openShareLink(ctx, t, url, file, want)
}

// planOneHex imports the one-hex plan file and checks the plan tab
// recommends the CLI's force.
func planOneHex(ctx context.Context, t *testing.T) {
	t.Helper()
	const file = "../../examples/plan-one-hex.yaml"
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code := wifodds(t, "plan", "-q", "-f", "json", file)
	if code != 0 {
		t.Fatal(errs)
	}
	var cli struct {
		Recommended struct{ Units []string } `json:"recommended"`
	}
	if err := json.Unmarshal([]byte(out), &cli); err != nil || len(cli.Recommended.Units) == 0 {
		t.Fatalf("the CLI's plan: %v\n%s", err, out)
	}
	want := "Send " + strings.Join(cli.Recommended.Units, ", ") + ":"
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.Click(css("#export")), chromedp.WaitVisible(css("#yaml-text")),
		setField("#yaml-text", string(text)),
		chromedp.Click(css("#yaml-import")), chromedp.WaitNotVisible(css("#yaml-text")),
		setField("#plan-cost", "committed_factors"), setField("#plan-target", "0.75"),
	}
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Click(css("#tab-plan"))); err != nil {
		t.Fatal(err)
	}
	rec := ""
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end) && !strings.HasPrefix(rec, want); time.Sleep(20 * time.Millisecond) {
		rec = liveText(ctx, t, "#plan-rec")
	}
	if !strings.HasPrefix(rec, want) {
		t.Fatalf("the plan tab on %s: %q, want %q", file, rec, want)
	}
	status := liveText(ctx, t, "#status-text")
	t.Logf("one-hex plan: %v from the tab's click to the recommendation (%s)", time.Since(start).Round(time.Millisecond), status)
}
