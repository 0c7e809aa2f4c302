package query

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/answer"
)

// A sweep request is refused by its size before anything is computed
// (docs/web.md, API): totals x modifiers x tables over MaxSweepCombats is
// a 400 naming the count, even with its context already cancelled; at the
// bound it is computed, every combat of it.
func TestSweepIsBounded(t *testing.T) {
	in := exampleInput(t)
	lim := Limits{MaxTrials: 10_000, Workers: 1}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, q := range []string{
		"attack=0..500&modifier=-30..30&crt=standard,2d6", // the largest the parameters allow: 61,122
		"attack=1..500&modifier=-10..10&crt=standard,2d6", // 21,000
		"attack=1..500&modifier=-20..20",                  // 20,500, the scenario's table
		"defence=0..500&modifier=-20..20",
	} {
		v, err := url.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Sweep(cancelled, in, v, lim)
		var ie *answer.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), "a request computes at most 20000") {
			t.Errorf("%s: %v, want a 400 refusing its size", q, err)
		}
	}
	// 500 totals from above the 13 factors the attacking units bring (a
	// total below them is skipped) x 20 modifiers x 2 tables: 20,000.
	v, _ := url.ParseQuery("attack=20..519&modifier=-10..9&crt=standard,2d6")
	sw, err := Sweep(context.Background(), in, v, lim)
	if err != nil {
		t.Fatalf("a sweep of %d combats: %v", MaxSweepCombats, err)
	}
	if len(sw.Steps) != MaxSweepCombats {
		t.Errorf("the sweep at the bound computed %d combats, want %d", len(sw.Steps), MaxSweepCombats)
	}
}
