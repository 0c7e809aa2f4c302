package plan

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/wifodds/wifodds/scenario"
)

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
		done := make(chan error, 1)
		go func() {
			_, err := Plan(ctx, s, c)
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("run %d (%d workers, delay %v, progress %v at %d): %v", i, c.Workers, delay, byProgress, stopAt, err)
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("run %d (%d workers, delay %v, progress %v at %d): hangs", i, c.Workers, delay, byProgress, stopAt)
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
