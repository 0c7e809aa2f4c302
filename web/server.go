package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path"
	"runtime"
	"strings"
	"time"

	"github.com/wifodds/wifodds/answer/query"
)

// Config is how the server runs. The zero value of each field takes the
// default the comment gives.
type Config struct {
	MaxBody     int64         // largest request body in bytes (256 KiB)
	BodyTimeout time.Duration // deadline for a request's body to arrive, before it waits for a slot (5 s)
	MaxTrials   uint64        // most Monte Carlo trials a request may ask for (1e8)
	Timeout     time.Duration // deadline of one computation, its wait for a slot included (10 s)
	Concurrency int           // computations at once (the number of CPUs)
	QueueLength int           // requests that may wait for a computation's slot when all are busy (4 per slot; negative: none, 503 at once)
	QueueWait   time.Duration // longest a request waits for a slot before 503 busy (2 s)
	Workers     int           // goroutines one Monte Carlo run uses (1: requests run side by side)
	Log         *slog.Logger  // access and error log (slog.Default())
	// Hosts are more names the Host header may give for this server (a
	// host name or an address, without the port): what a browser on
	// another machine types, e.g. "mybox.lan". Each is checked by New.
	Hosts []string
}

func (c Config) withDefaults() Config {
	if c.MaxBody <= 0 {
		c.MaxBody = 256 << 10
	}
	if c.MaxTrials == 0 {
		c.MaxTrials = query.DefaultMaxTrials
	}
	if c.BodyTimeout <= 0 {
		c.BodyTimeout = 5 * time.Second
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	if c.Concurrency <= 0 {
		c.Concurrency = runtime.NumCPU()
	}
	switch {
	case c.QueueLength == 0:
		c.QueueLength = 4 * c.Concurrency
	case c.QueueLength < 0:
		c.QueueLength = 0
	}
	if c.QueueWait <= 0 {
		c.QueueWait = 2 * time.Second
	}
	if c.Workers <= 0 {
		c.Workers = 1
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	return c
}

// Server is the web app: an http.Handler for one listening address.
type Server struct {
	cfg   Config
	hosts map[string]bool // Host header values this server answers
	slots chan struct{}   // one per computation running
	queue chan struct{}   // one per request waiting for a slot
	mux   *http.ServeMux
}

// New makes the server for the address it listens on (host:port). The
// Host header must name this server: the listening host, localhost or a
// loopback address, each cfg.Hosts name, and, when it listens on every
// interface (0.0.0.0 or ::), each address of the machine's interfaces;
// with or without the port when the port is 80. Any other name is refused
// (ServeHTTP), so a page elsewhere cannot reach the server through a name
// it controls (DNS rebinding); the machine's own addresses are no such
// name.
func New(addr string, cfg Config) (*Server, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", addr, err)
	}
	s := &Server{cfg: cfg.withDefaults(), hosts: map[string]bool{}}
	names := []string{host, "localhost", "127.0.0.1", "::1"}
	for _, h := range cfg.Hosts {
		if err := CheckHostName(h); err != nil {
			return nil, err
		}
		names = append(names, h)
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		addrs, err := interfaceAddrs()
		if err != nil {
			return nil, fmt.Errorf("listen address %s: reading this machine's addresses: %w", addr, err)
		}
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				names = append(names, n.IP.String())
			}
		}
	}
	for _, h := range names {
		if h == "" {
			continue
		}
		h = strings.ToLower(strings.Trim(h, "[]"))
		s.hosts[net.JoinHostPort(h, port)] = true
		if port == "80" {
			if strings.Contains(h, ":") {
				h = "[" + h + "]"
			}
			s.hosts[h] = true
		}
	}
	s.slots = make(chan struct{}, s.cfg.Concurrency)
	s.queue = make(chan struct{}, s.cfg.QueueLength)
	s.routes()
	return s, nil
}

// interfaceAddrs lists the machine's addresses; a variable so a test can
// give a machine on a network.
var interfaceAddrs = net.InterfaceAddrs

// CheckHostName refuses a Config.Hosts entry that no Host header could match:
// empty, with a port or a path, or with characters no host name has.
func CheckHostName(h string) error {
	if ip := net.ParseIP(strings.Trim(h, "[]")); ip != nil {
		return nil
	}
	if h == "" || len(h) > 253 {
		return fmt.Errorf("host %q: give a host name or an address, without the port", h)
	}
	for _, r := range h {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return fmt.Errorf("host %q: %q is not a host name's character; give a host name or an address, without the port", h, r)
		}
	}
	return nil
}

// securityHeaders are on every answer, refusals included: the page runs
// only its own scripts, is never framed, never sniffed as another type and
// sends no referrer.
var securityHeaders = [][2]string{
	{"X-Content-Type-Options", "nosniff"},
	{"Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"},
	{"Referrer-Policy", "no-referrer"},
}

// ServeHTTP applies the guards every request passes, then routes it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		if p := recover(); p != nil {
			s.cfg.Log.Error("panic serving a request", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p))
			if !rec.wrote {
				writeError(rec, http.StatusInternalServerError, "internal error: the server logged it")
			}
		}
		s.cfg.Log.Info("request", "method", r.Method, "path", r.URL.Path, "status", rec.status,
			"bytes", rec.bytes, "duration_ms", float64(time.Since(start).Microseconds())/1000)
	}()
	for _, h := range securityHeaders {
		rec.Header().Set(h[0], h[1])
	}
	if !s.hosts[strings.ToLower(r.Host)] {
		writeError(rec, http.StatusForbidden, fmt.Sprintf("Host %.80q is not this server's address; open the URL the server printed", r.Host))
		return
	}
	if why := crossSite(r); why != "" {
		writeError(rec, http.StatusForbidden, fmt.Sprintf("%s: this server answers only its own page, not a request another site's page makes", why))
		return
	}
	// The router would answer a path such as /api//run or /static/../x
	// with a redirect to its clean form and an HTML body; no link of the
	// page makes one, so it is a 404 in JSON like any other unknown path.
	if p := r.URL.Path; p != cleanPath(p) {
		writeError(rec, http.StatusNotFound, fmt.Sprintf("%.10s %.80q: no such page or endpoint (a path with // or a . or .. segment; the page is /, the API under /api/)", r.Method, p))
		return
	}
	s.mux.ServeHTTP(rec, r)
}

// cleanPath is p with repeated slashes and . and .. segments resolved,
// keeping a final slash, as the router cleans it.
func cleanPath(p string) string {
	if p == "" || p == "*" {
		return p // the router's own cases (a bare host, OPTIONS *)
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// recorder notes what a handler wrote, for the access log and the panic
// handler.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int
	wrote  bool
}

// Unwrap lets http.ResponseController reach the connection (the body's
// read deadline).
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
		r.ResponseWriter.WriteHeader(code)
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// Serve serves on ln until ctx is done, then shuts down gracefully,
// letting requests under way finish (within the computation deadline).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: s.cfg.Timeout + 30*time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10,
		ErrorLog: slog.NewLogLogger(s.cfg.Log.Handler(), slog.LevelWarn)}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.Timeout+5*time.Second)
	defer cancel()
	err := hs.Shutdown(sctx)
	if e := <-done; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}
