package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/wifodds/wifodds/web"
)

// startWeb serves the web app on a test listener, with the CLI's worker
// count so the answers' run records match.
func startWeb(t *testing.T, workers int) *httptest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	s, err := web.New(ts.Listener.Addr().String(), web.Config{Workers: workers, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = s
	ts.Start()
	t.Cleanup(ts.Close)
	return ts
}

// Each endpoint answers with exactly the CLI's JSON for the same scenario
// and flags, timings aside.
func TestWebAnswersAsTheCLI(t *testing.T) {
	ts := startWeb(t, 2)
	cases := []struct {
		file, path string
		cli        []string
	}{
		{"../../examples/wild-results-3to1.yaml", "/api/run?method=exact", []string{"run", "--exact", "-f", "json"}},
		{"../../examples/wild-results-3to1.yaml", "/api/run?method=exact&explain=true&dice=6,6", []string{"run", "--exact", "--explain", "--dice", "6,6", "-f", "json"}},
		{"../../examples/fractional-odds-16to3.yaml", "/api/run?method=mc&trials=200000&seed=7", []string{"run", "--mc", "-n", "200000", "--seed", "7", "-w", "2", "-f", "json"}},
		{"../../examples/port-moresby-invasion.yaml", "/api/run", []string{"run", "-f", "json"}},
		{"../../examples/dusseldorf-bombardment.yaml", "/api/run?method=exact", []string{"run", "--exact", "-f", "json"}},
		{"../../examples/night-raid-campaign.yaml", "/api/run?raids=3&trials=100000", []string{"run", "--raids", "3", "-n", "100000", "-w", "2", "-f", "json"}},
		{"../../examples/wild-results-3to1.yaml", "/api/compare?variant=std=crt=standard&variant=alt=crt=2d6", []string{"compare", "-v", "std=crt=standard", "-v", "alt=crt=2d6", "-f", "json"}},
		{"../../examples/fractional-odds-16to3.yaml", "/api/compare?variant=plus1=modifier=1&method=mc&trials=100000", []string{"compare", "-v", "plus1=modifier=1", "--mc", "-n", "100000", "-w", "2", "-f", "json"}},
		{"../../examples/port-moresby-invasion.yaml", "/api/sweep?attack=8..30&crt=standard,2d6&modifier=-1..1&target=0.75", []string{"sweep", "--attack", "8..30", "--crt", "standard,2d6", "--modifier", "-1..1", "--target", "0.75", "-f", "json"}},
		{"../../examples/plan-one-hex.yaml", "/api/plan", []string{"plan", "-q", "-f", "json"}},
		{"../../examples/plan-front.yaml", "/api/plan?target=1.5", []string{"plan", "-q", "--target", "1.5", "-f", "json"}},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			body, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			res, err := http.Post(ts.URL+c.path, "application/yaml", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				t.Fatalf("%d %s", res.StatusCode, got)
			}
			want, errs, code := wifodds(t, append(c.cli, c.file)...)
			if code != 0 {
				t.Fatal(errs)
			}
			if g, w := normalise(string(got)), normalise(want); g != w {
				t.Errorf("the API and the CLI differ:\nAPI: %s\nCLI: %s", g, w)
			}
		})
	}
}

// wifodds serve prints its URL, answers there, and stops cleanly when its
// context ends (Ctrl-C).
func TestServeStartsAndStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var errb bytes.Buffer
	go func() {
		done <- run(ctx, []string{"wifodds", "serve", "--listen", "127.0.0.1:0", "-q"}, pw, &errb)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`serving on (http://127\.0\.0\.1:\d+/)`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("no URL in %q", line)
	}
	res, err := http.Get(m[1] + "api/schema")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("status %d", res.StatusCode)
	}
	go io.Copy(io.Discard, pr)
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d: %s", code, errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
	}
}
