package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"
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

// serve runs wifodds serve with listen until stop is called, and returns
// the first line it printed, its standard error once stopped, and stop,
// which checks that it exits 0 when its context ends (Ctrl-C).
func serve(t *testing.T, listen string) (line string, stop func() string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var errb bytes.Buffer
	go func() {
		done <- run(ctx, []string{"wifodds", "serve", "--listen", listen, "-q"}, pw, &errb)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	return line, func() string {
		t.Helper()
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("exit %d: %s", code, errb.String())
			}
		case <-time.After(20 * time.Second):
			t.Fatal("serve did not stop")
		}
		return errb.String()
	}
}

// wifodds serve prints its URL, answers there, and stops cleanly when its
// context ends (Ctrl-C).
func TestServeStartsAndStops(t *testing.T) {
	line, stop := serve(t, "127.0.0.1:0")
	defer stop()
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
}

// An empty or host-less --listen is an error, not every interface; an
// explicit address that is not loopback serves, with a loud warning
// (issue 23 item 17; docs/web.md "Safe by default"). An empty port
// (127.0.0.1:) listened on a random one (red-team finding F9): refused.
func TestServeListen(t *testing.T) {
	for _, listen := range []string{"", ":0", ":8080", "localhost", "127.0.0.1", "127.0.0.1:", "[::1]:"} {
		_, errs, code := wifodds(t, "serve", "--listen", listen)
		if code != exitUsage || !strings.Contains(errs, "--listen") || !strings.Contains(errs, "127.0.0.1:8080 serves this machine only") {
			t.Errorf("--listen %q: exit %d, %s", listen, code, errs)
		}
	}
	line, stop := serve(t, "0.0.0.0:0")
	errs := stop()
	if !strings.Contains(line, "serving on http://") || strings.Count(errs, "WARNING") < 2 || !strings.Contains(errs, "not a loopback address") {
		t.Errorf("a non-loopback address: %q, stderr %q", line, errs)
	}
	if _, stop := serve(t, "127.0.0.1:0"); strings.Contains(stop(), "WARNING") {
		t.Error("a loopback address warns")
	}
}

// --host names what browsers elsewhere type for this machine (red-team
// finding F9); a name no Host header could match is a usage error naming
// the flag, not a server that refuses everyone.
func TestServeHostFlag(t *testing.T) {
	for _, h := range []string{"mybox.lan:8080", "http://mybox.lan", "a b", ""} {
		_, errs, code := wifodds(t, "serve", "--listen", "127.0.0.1:0", "--host", h)
		if code != exitUsage || !strings.Contains(errs, "--host") || !strings.Contains(errs, "without the port") {
			t.Errorf("--host %q: exit %d, %s", h, code, errs)
		}
	}
}

// Each --host reaches the server's configuration, whose Host check
// admits it (web's TestHostOnTheNetwork).
func TestServeConfigHosts(t *testing.T) {
	set := flag.NewFlagSet("serve", flag.ContinueOnError)
	for _, f := range serveCommand().Flags {
		if err := f.Apply(set); err != nil {
			t.Fatal(err)
		}
	}
	if err := set.Parse([]string{"--host", "mybox.lan", "--host", "other.lan"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := serveConfig(cli.NewContext(cli.NewApp(), set, nil))
	if err != nil || !slices.Equal(cfg.Hosts, []string{"mybox.lan", "other.lan"}) {
		t.Errorf("hosts %q, %v", cfg.Hosts, err)
	}
}

// The API reads seed and raids as the CLI reads --seed and --raids: the
// same answers, the same refusals (issue 23 item 8).
func TestWebReadsSeedAndRaidsAsTheCLI(t *testing.T) {
	ts := startWeb(t, 2)
	const file = "../../examples/wild-results-3to1.yaml"
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	api := func(query string) (int, string) {
		res, err := http.Post(ts.URL+"/api/run?"+query, "application/yaml", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	// 010 is ten in both, not eight.
	code, got := api("method=mc&trials=20000&seed=010")
	want, errs, exit := wifodds(t, "run", "--mc", "-n", "20000", "--seed", "010", "-w", "2", "-f", "json", file)
	ten, _, _ := wifodds(t, "run", "--mc", "-n", "20000", "--seed", "10", "-w", "2", "-f", "json", file)
	if code != 200 || exit != 0 || normalise(got) != normalise(want) || normalise(want) != normalise(ten) || !strings.Contains(want, `"seed": 10`) {
		t.Errorf("seed 010: API %d, CLI %d %s\nAPI: %s\nCLI: %s\n--seed 10: %s", code, exit, errs, got, want, ten)
	}
	for _, c := range []struct{ query, flag, value, msg string }{
		{"method=mc&seed=0x10", "--seed", "0x10", "a seed is a decimal whole number"},
		{"method=mc&seed=-1", "--seed", "-1", "a seed is a decimal whole number"},
		{"raids=0", "--raids", "0", "want"},
		{"raids=21", "--raids", "21", "want"},
		{"raids=3", "--raids", "3", "raids applies only to bombardments"},
	} {
		code, got := api(c.query)
		_, errs, exit := wifodds(t, "run", c.flag, c.value, "-f", "json", file)
		if code != 400 || exit != exitUsage || !strings.Contains(got, c.msg) || !strings.Contains(errs, c.msg) {
			t.Errorf("%s: API %d %s; CLI %s %s: exit %d %s", c.query, code, got, c.flag, c.value, exit, errs)
		}
	}
}

// --queue and --queue-wait out of range are usage errors naming the flag
// (docs/web.md "Safe by default").
func TestServeQueueFlags(t *testing.T) {
	for _, args := range [][]string{{"--queue", "-1"}, {"--queue", "5000"}, {"--queue-wait", "0s"}, {"--queue-wait", "2m"}} {
		_, errs, code := wifodds(t, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
		if code != exitUsage || !strings.Contains(errs, args[0]+" ") {
			t.Errorf("%v: exit %d, %s", args, code, errs)
		}
	}
}
