package plan

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// Deciding hexes stops when its context is cancelled, in the values'
// search and in the forces' (the 4x24 front takes seconds there), and
// shows the forces found as it goes.
func TestDecidedFrontStops(t *testing.T) {
	if testing.Short() {
		t.Skip("plans the 4x24 front for a few seconds")
	}
	s, cfg := frontCut(t, 24)
	// Cancelled after 200 ms (in the values' search), and once the first
	// force is found (in the forces', whatever the host's speed); on one
	// worker, and on two, where the forces are found while the values'
	// search goes on and workers search its combinations ahead.
	for _, c := range []struct {
		workers int
		forces  bool
	}{{1, false}, {1, true}, {2, false}, {2, true}} {
		cfg.Workers = c.workers
		forces := c.forces
		var mu sync.Mutex
		var seen []uint64
		ctx, cancel := context.WithCancel(context.Background())
		if !forces {
			ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
		}
		done := make(chan error, 1)
		go func() {
			cfg.Progress = func(d, n uint64) {
				mu.Lock()
				seen = append(seen, d, n)
				mu.Unlock()
				if forces && d == 1 {
					cancel()
				}
			}
			_, err := Plan(ctx, s, cfg)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("cancelled (in the forces: %v, %d workers): %v, want the context's error", forces, c.workers, err)
			}
		case <-time.After(2 * time.Minute):
			t.Fatalf("cancelled (in the forces: %v, %d workers): still planning two minutes later", forces, c.workers)
		}
		cancel()
		mu.Lock()
		// (On two workers the points are counted as the values' search
		// hands them over, so none may be left to count yet.)
		if forces && (len(seen) < 4 || seen[1] == 0 || c.workers == 1 && seen[len(seen)-2] >= seen[len(seen)-1]) {
			t.Errorf("cancelled in the forces on %d workers: progress %v, want the forces counted and some left", c.workers, seen)
		}
		mu.Unlock()
	}
}

// Deciding hexes gives the same answer, byte for byte with its counts, on
// 1, 2 and 3 workers (the forces' points shared among them): on the
// random fronts of TestFrontStateSearchIsReference it covers and on the
// 16-unit cut of the 4x24 front.
func TestDecidedFrontWorkerInvariant(t *testing.T) {
	before := decided.Load()
	for seed := range 40 {
		r := rand.New(rand.NewPCG(uint64(seed), 26))
		text := richFrontYAML(r, seed, 1+seed%3, 2+r.IntN(11))
		s, cfg := parseWithTable(t, text, Config{})
		first := planJSON(t, s, cfg, 1)
		for workers := 2; workers <= 3; workers++ {
			if planJSON(t, s, cfg, workers) != first {
				t.Errorf("seed %d, %d workers: another answer\n%s", seed, workers, text)
			}
		}
	}
	if n := decided.Load() - before; n < 15 {
		t.Errorf("deciding hexes planned %d of the 120 plans", n)
	}
	s, cfg := frontCut(t, 16)
	first := planJSON(t, s, cfg, 1)
	if planJSON(t, s, cfg, 2) != first {
		t.Error("the 4x16 cut, 2 workers: another answer")
	}
}
