package plan

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/wifodds/wifodds/scenario"
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
		cfg.Progress = func(d, n uint64) {
			mu.Lock()
			seen = append(seen, d, n)
			mu.Unlock()
			if forces && d == 1 {
				cancel()
			}
		}
		what := fmt.Sprintf("cancelled (in the forces: %v, %d workers)", forces, c.workers)
		if err := planWithin(t, ctx, s, cfg, 2*time.Minute, what); !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v, want the context's error", what, err)
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

// Deciding hexes stops at any moment on 2 to 4 workers (in the values'
// scan, a search ahead, the forces' tables or a point's forces): it never
// hangs and reports the context's error, or the plan when it ended first
// (fixed seeds; the 16-unit cut of the 4x24 front).
func TestDecidedFrontStopsAnywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("plans the 4x16 cut 36 times")
	}
	s, cfg := frontCut(t, 16)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 36 {
		cfg.Workers = 2 + i%3
		delay := time.Duration(r.IntN(350)) * time.Millisecond
		stopAt := uint64(r.IntN(8))
		ctx, cancel := context.WithTimeout(context.Background(), delay)
		c := cfg
		byProgress := i%2 == 1
		if byProgress {
			ctx, cancel = context.WithCancel(context.Background())
			c.Progress = func(d, n uint64) {
				if d >= stopAt {
					cancel()
				}
			}
		}
		what := fmt.Sprintf("run %d (%d workers, delay %v, progress %v at %d)", i, c.Workers, delay, byProgress, stopAt)
		if err := planWithin(t, ctx, s, c, time.Minute, what); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v", what, err)
		}
		cancel()
	}
}

// Deciding hexes gives the same answer, byte for byte with its counts, on
// more workers than points (2, 5 and 8 against 1): random fronts in its
// scope and the 10- and 14-unit cuts of the 4x24 front.
func TestDecidedFrontManyWorkers(t *testing.T) {
	levelFronts(t, 25, 300, 73, func(seed int, text string, s *scenario.Scenario, cfg Config) {
		first := planJSON(t, s, cfg, 1)
		for _, w := range []int{2, 5, 8} {
			if g := planJSON(t, s, cfg, w); g != first {
				t.Errorf("seed %d, %d workers: another answer\n%s\n%s\n%s", seed, w, g, first, text)
			}
		}
	})
	for _, k := range []int{10, 14} {
		s, cfg := frontCut(t, k)
		first := planJSON(t, s, cfg, 1)
		for _, w := range []int{3, 8} {
			if planJSON(t, s, cfg, w) != first {
				t.Errorf("4x%d cut, %d workers: another answer", k, w)
			}
		}
	}
}

// planWithin plans s under ctx and returns Plan's error, failing the test
// (what names the run) when it is still planning after limit.
func planWithin(t *testing.T, ctx context.Context, s *scenario.Scenario, cfg Config, limit time.Duration, what string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := Plan(ctx, s, cfg)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		t.Fatalf("%s: still planning %v later", what, limit)
		return nil
	}
}

// A front whose forces' plain losses bound outgrows its memory
// (errTieBoundTooLarge: the bound is built only for searches without
// cost to spare, which only fronts the join does not fit make; here the
// join is off and the bound's size lowered) is planned by the state
// search instead: the same frontier as the state search's own.
func TestTieBoundTooLarge(t *testing.T) {
	s, cfg := frontCut(t, 12)
	oldSize, oldJoin := tieBoundSize, joinForces
	tieBoundSize, joinForces = 1, false
	defer func() { tieBoundSize, joinForces = oldSize, oldJoin }()
	pls, err := planners(context.Background(), s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pls[0].frontLevels(true); !errors.Is(err, errTieBoundTooLarge) {
		t.Fatalf("deciding hexes: %v, want errTieBoundTooLarge", err)
	}
	got, err := Plan(context.Background(), s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	decideHexes = false
	want, err := Plan(context.Background(), s, cfg)
	decideHexes = true
	if err != nil {
		t.Fatal(err)
	}
	g, _ := json.Marshal(got.TablePlan.Frontier)
	w, _ := json.Marshal(want.TablePlan.Frontier)
	if !bytes.Equal(g, w) || len(want.TablePlan.Frontier) == 0 {
		t.Errorf("the frontier after the fallback differs from the state search's:\n%s\n%s", g, w)
	}
}
