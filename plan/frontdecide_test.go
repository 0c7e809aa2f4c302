package plan

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// Deciding hexes stops when its context is cancelled, in the values'
// search and in the forces' (the 4x24 front takes minutes there), and
// shows the forces found as it goes.
func TestDecidedFrontStops(t *testing.T) {
	if testing.Short() {
		t.Skip("plans the 4x24 front for a few seconds")
	}
	s, cfg := frontCut(t, 24)
	cfg.Workers = 1
	for _, after := range []time.Duration{200 * time.Millisecond, 4 * time.Second} {
		var mu sync.Mutex
		var seen []uint64
		ctx, cancel := context.WithTimeout(context.Background(), after)
		done := make(chan error, 1)
		go func() {
			cfg.Progress = func(d, n uint64) {
				mu.Lock()
				seen = append(seen, d, n)
				mu.Unlock()
			}
			_, err := Plan(ctx, s, cfg)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("cancelled after %v: %v, want the context's error", after, err)
			}
		case <-time.After(after + time.Minute):
			t.Fatalf("cancelled after %v: still planning a minute later", after)
		}
		cancel()
		mu.Lock()
		if after > time.Second && (len(seen) < 2 || seen[1] == 0) {
			t.Errorf("cancelled after %v: no progress shown (%v)", after, seen)
		}
		mu.Unlock()
	}
}
