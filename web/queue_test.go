package web

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// waitFor polls until cond holds (five seconds at most).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// A burst over the concurrency limit but within the queue waits for a
// slot and is served; a request beyond the queue gets 503 at once with
// Retry-After.
func TestQueueServesBurst(t *testing.T) {
	s, ts := newServer(t, Config{Concurrency: 1, QueueLength: 3, QueueWait: 10 * time.Second})
	body := read(t, wild)
	s.slots <- struct{}{} // a computation is running
	codes := make(chan int, 3)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			res, err := http.Post(ts.URL+"/api/run?method=exact", "application/yaml", bytes.NewReader(body))
			if err != nil {
				t.Error(err)
				codes <- 0
				return
			}
			// Read to the end: the answer ends after the handler returns
			// its slot, and a body closed unread could leave before.
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			codes <- res.StatusCode
		})
	}
	waitFor(t, "three requests queued", func() bool { return len(s.queue) == 3 })
	start := time.Now()
	code, m, h := post(t, ts, "/api/run?method=exact", "application/yaml", body)
	wantError(t, code, m, 503, "3 waiting")
	if h.Get("Retry-After") != "1" {
		t.Errorf("beyond the queue: Retry-After %q", h.Get("Retry-After"))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("beyond the queue the answer took %s: it should not wait", d)
	}
	<-s.slots // the computation ends: the queue drains one by one
	wg.Wait()
	close(codes)
	for code := range codes {
		if code != 200 {
			t.Errorf("a queued request got %d, want 200", code)
		}
	}
	if len(s.slots) != 0 || len(s.queue) != 0 {
		t.Errorf("after the burst: %d slots and %d places in the queue still held", len(s.slots), len(s.queue))
	}
}

// A request that waits QueueWait without a slot gets 503 with
// Retry-After, and leaves the queue.
func TestQueueWaitEnds(t *testing.T) {
	s, ts := newServer(t, Config{Concurrency: 1, QueueWait: 150 * time.Millisecond})
	s.slots <- struct{}{}
	defer func() { <-s.slots }()
	start := time.Now()
	code, m, h := post(t, ts, "/api/run", "application/yaml", read(t, wild))
	wantError(t, code, m, 503, "no computation's slot freed within 150ms")
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("answered busy after %s, before the 150ms wait", d)
	}
	if h.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q", h.Get("Retry-After"))
	}
	if len(s.queue) != 0 {
		t.Errorf("%d places in the queue still held", len(s.queue))
	}
}

// The request's deadline (Timeout) counts the wait: a request still
// queued at its deadline gets the deadline's 503.
func TestQueueDeadline(t *testing.T) {
	s, ts := newServer(t, Config{Concurrency: 1, Timeout: 100 * time.Millisecond, QueueWait: 10 * time.Second})
	s.slots <- struct{}{}
	defer func() { <-s.slots }()
	start := time.Now()
	code, m, h := post(t, ts, "/api/run", "application/yaml", read(t, wild))
	wantError(t, code, m, 503, "took longer than this server's 100ms limit")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the deadline answer took %s", d)
	}
	if h.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q", h.Get("Retry-After"))
	}
}

// A client that goes away while its request waits frees its place in
// the queue.
func TestQueueClientGone(t *testing.T) {
	s, ts := newServer(t, Config{Concurrency: 1, QueueWait: 10 * time.Second})
	s.slots <- struct{}{}
	defer func() { <-s.slots }()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	body := read(t, wild)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/run", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/yaml")
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	waitFor(t, "the request queued", func() bool { return len(s.queue) == 1 })
	cancel()
	if err := <-done; err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("the cancelled request: %v", err)
	}
	waitFor(t, "the queue emptied", func() bool { return len(s.queue) == 0 })
}

// With no queue (QueueLength < 0) a busy server answers 503 at once.
func TestQueueNone(t *testing.T) {
	s, ts := newServer(t, Config{Concurrency: 1, QueueLength: -1, QueueWait: 10 * time.Second})
	s.slots <- struct{}{}
	defer func() { <-s.slots }()
	start := time.Now()
	code, m, _ := post(t, ts, "/api/run", "application/yaml", read(t, wild))
	wantError(t, code, m, 503, "0 waiting")
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s with no queue", d)
	}
}
