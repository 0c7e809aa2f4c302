package web

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// hostCode is the status the server built for addr gives a request whose
// Host header is host.
func hostCode(t *testing.T, addr string, cfg Config, host string) int {
	t.Helper()
	cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := New(addr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/api/schema", nil)
	r.Host = host
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w.Code
}

// Red-team finding F9: with --listen 0.0.0.0:P (warned "other machines can
// reach this server") every browser on the network was refused, since the
// Host it sends, the machine's address, was not one the server knew. The
// machine's own addresses and the names given in Config.Hosts are served;
// any other name still is not (DNS rebinding).
func TestHostOnTheNetwork(t *testing.T) {
	old := interfaceAddrs
	t.Cleanup(func() { interfaceAddrs = old })
	interfaceAddrs = func() ([]net.Addr, error) {
		return []net.Addr{
			&net.IPNet{IP: net.ParseIP("127.0.0.1"), Mask: net.CIDRMask(8, 32)},
			&net.IPNet{IP: net.ParseIP("192.168.1.5"), Mask: net.CIDRMask(24, 32)},
			&net.IPNet{IP: net.ParseIP("fe80::1"), Mask: net.CIDRMask(64, 128)},
		}, nil
	}
	for _, c := range []struct {
		addr  string
		hosts []string
		host  string
		want  int
	}{
		{"0.0.0.0:8080", nil, "192.168.1.5:8080", 200},
		{"[::]:8080", nil, "192.168.1.5:8080", 200},
		{"[::]:8080", nil, "[fe80::1]:8080", 200},
		{"0.0.0.0:8080", nil, "192.168.1.6:8080", 403},
		{"0.0.0.0:8080", nil, "192.168.1.5:8081", 403},
		{"0.0.0.0:8080", nil, "mybox.lan:8080", 403},
		{"0.0.0.0:8080", []string{"mybox.lan"}, "mybox.lan:8080", 200},
		{"0.0.0.0:8080", []string{"MyBox.LAN"}, "mybox.lan:8080", 200},
		{"0.0.0.0:8080", []string{"mybox.lan"}, "evil.example:8080", 403},
		// Listening on one address serves that address, not the others.
		{"192.168.1.5:8080", nil, "192.168.1.5:8080", 200},
		{"127.0.0.1:8080", nil, "192.168.1.5:8080", 403},
		// A browser leaves out the scheme's default port.
		{"127.0.0.1:80", nil, "127.0.0.1", 200},
		{"127.0.0.1:80", nil, "localhost", 200},
		{"127.0.0.1:80", nil, "[::1]", 200},
		{"127.0.0.1:8080", nil, "127.0.0.1", 403},
		{"127.0.0.1:80", nil, "evil.example", 403},
	} {
		if got := hostCode(t, c.addr, Config{Hosts: c.hosts}, c.host); got != c.want {
			t.Errorf("listening on %s with hosts %q, Host %s: %d, want %d", c.addr, c.hosts, c.host, got, c.want)
		}
	}
}

// A Hosts entry no Host header could match is an error, not ignored.
func TestHostNamesChecked(t *testing.T) {
	for _, h := range []string{"", "mybox.lan:8080", "http://mybox.lan", "my box", "a/b"} {
		if _, err := New("127.0.0.1:8080", Config{Hosts: []string{h}}); err == nil || !strings.Contains(err.Error(), "without the port") {
			t.Errorf("host %q: %v, want an error asking for a name without the port", h, err)
		}
	}
	for _, h := range []string{"mybox.lan", "192.168.1.5", "::1", "[fe80::1]"} {
		if _, err := New("127.0.0.1:8080", Config{Hosts: []string{h}}); err != nil {
			t.Errorf("host %q: %v", h, err)
		}
	}
}

// Red-team finding F10: /api//run and /static/../api/run were answered
// with the router's redirect and an HTML body; they are unknown paths, a
// 404 in JSON.
func TestUncleanPathIsNotFound(t *testing.T) {
	_, ts := newServer(t, Config{})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, p := range []string{"/api//run", "//api/run", "/static/../api/run", "/./app.js", "/api/./run"} {
		req, _ := http.NewRequest("POST", ts.URL+p, strings.NewReader("kind: land"))
		req.Header.Set("Content-Type", "application/yaml")
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 404 || res.Header.Get("Content-Type") != "application/json" || !strings.Contains(string(body), "no such page or endpoint") {
			t.Errorf("POST %s: %d %s %s", p, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	}
}
