package web

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// BenchmarkAPIRun is one exact answer for a plain combat through the
// handler: parse, compile, enumerate, summarise and write the JSON
// (issue target: under 1 ms of server time). Besides the time it reports
// cpu-ns/op, the process's CPU time (user and system, the garbage
// collector's included) per request: on a shared machine the wall time
// counts waiting for a CPU, the CPU time does not. The harness costs
// little, so that the figures are the server's: the request is made with
// http.NewRequest (httptest.NewRequest parses a request line through a
// 4 KiB reader) and the answer goes to a writer that keeps only its
// status and length (a recorder's buffer grows to the answer's size each
// time); the first answer is checked whole.
func BenchmarkAPIRun(b *testing.B) {
	s, err := New("127.0.0.1:8080", Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	const url = "http://127.0.0.1:8080/api/run?method=exact"
	body := read(b, "../benchmarks/scenarios/plain-2d6.yaml")
	req := httptest.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/yaml")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	var answer struct {
		Method string `json:"method"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &answer); rec.Code != 200 || err != nil || answer.Method != "exact" {
		b.Fatalf("%d %v %s", rec.Code, err, rec.Body)
	}
	w := &lengthWriter{header: http.Header{}}
	cpu0, measured := cpuTime()
	for b.Loop() {
		req, err := http.NewRequest("POST", url, bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/yaml")
		w.reset()
		s.ServeHTTP(w, req)
		// The answers differ only in elapsed_seconds.
		if w.status != 200 || w.n < rec.Body.Len()-32 || w.n > rec.Body.Len()+32 {
			b.Fatalf("status %d, %d bytes; the first answer was %d bytes", w.status, w.n, rec.Body.Len())
		}
	}
	if cpu1, _ := cpuTime(); measured {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}

// lengthWriter is a ResponseWriter that keeps an answer's status and
// length only.
type lengthWriter struct {
	header    http.Header
	status, n int
}

func (w *lengthWriter) reset() {
	clear(w.header)
	w.status, w.n = 0, 0
}

func (w *lengthWriter) Header() http.Header { return w.header }

func (w *lengthWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *lengthWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.n += len(p)
	return len(p), nil
}

// BenchmarkLoad200 is a bounded load test over loopback: 200 concurrent
// clients post plain combats to /api/run for the benchmark's time (run it
// with -benchtime 10s). Every answer must be 200 or 503 busy; it reports
// the latency percentiles and the share of busy answers.
func BenchmarkLoad200(b *testing.B) {
	ts := httptest.NewUnstartedServer(nil)
	s, err := New(ts.Listener.Addr().String(), Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	ts.Config.Handler = s
	ts.Start()
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: 30 * time.Second}
	body := read(b, "../benchmarks/scenarios/plain-2d6.yaml")
	var mu sync.Mutex
	var lat []time.Duration
	busy := 0
	b.SetParallelism(100) // 200 clients on two CPUs
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		myBusy := 0
		for pb.Next() {
			start := time.Now()
			res, err := client.Post(ts.URL+"/api/run?method=exact", "application/yaml", bytes.NewReader(body))
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			switch res.StatusCode {
			case 200:
				mine = append(mine, time.Since(start))
			case 503:
				myBusy++
			default:
				b.Errorf("status %d", res.StatusCode)
				return
			}
		}
		mu.Lock()
		lat = append(lat, mine...)
		busy += myBusy
		mu.Unlock()
	})
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(q(0.5), "p50_ms")
	b.ReportMetric(q(0.99), "p99_ms")
	b.ReportMetric(float64(busy)/float64(busy+len(lat)), "busy_share")
}
