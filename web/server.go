package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
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

// New makes the server for the address it listens on (host:port), whose
// host names it accepts in the Host header together with localhost and the
// loopback addresses.
func New(addr string, cfg Config) (*Server, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", addr, err)
	}
	s := &Server{cfg: cfg.withDefaults(), hosts: map[string]bool{}}
	for _, h := range []string{host, "localhost", "127.0.0.1", "[::1]"} {
		if h == "" {
			continue
		}
		if strings.Contains(h, ":") && !strings.HasPrefix(h, "[") {
			h = "[" + h + "]"
		}
		s.hosts[strings.ToLower(h)+":"+port] = true
	}
	s.slots = make(chan struct{}, s.cfg.Concurrency)
	s.queue = make(chan struct{}, s.cfg.QueueLength)
	s.routes()
	return s, nil
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
	s.mux.ServeHTTP(rec, r)
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
