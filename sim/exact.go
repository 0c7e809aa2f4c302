package sim

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/wifodds/wifodds/stats"
)

// DefaultPathBudget bounds exact enumeration: a dice tree with more paths
// than this is left to Monte Carlo. It equals MaxFlat, so every combat
// compiled to a flat table has an exact answer.
const DefaultPathBudget = MaxFlat

// MaxPathBudget is the largest path budget a caller may give: far past
// what enumerates in reasonable time, and far from overflowing a count.
const MaxPathBudget = 1 << 40

// ErrBudget is returned (wrapped) when a dice tree has more paths than the
// budget allows.
var ErrBudget = errors.New("dice tree exceeds the exact-enumeration budget")

// Exact returns the exact probability of every outcome of m as a tally,
// computed by running m.Resolve over every path of the dice tree and
// weighting each path by its probability (or read from m's flat table,
// whose paths are equally likely, or counted by m itself when it is a
// Tabulator), with the run record. A walk of more than budget paths (<= 0
// means DefaultPathBudget) stops with an error wrapping ErrBudget; a
// tabulated tally walks no path, so the budget does not bound it (its
// cost is a few table cells per pre-combat state, however many paths the
// tree has).
//
// Enumeration checks ctx every CheckEvery paths and stops with an error
// wrapping ctx.Err() when it is cancelled; progress, when set, is called at
// the same points with the paths walked so far (the total is not known in
// advance, so planned is 0).
func Exact(ctx context.Context, m Model, budget int, progress func(done, planned uint64)) (*stats.Tally, Run, error) {
	start := time.Now()
	if budget <= 0 {
		budget = DefaultPathBudget
	}
	w := make([]float64, m.NumOutcomes())
	if tb, ok := m.(Tabulator); ok {
		if counts, size, ok := tb.Tabulate(); ok {
			for o, k := range counts {
				w[o] = float64(k) / float64(size)
			}
			return &stats.Tally{Weights: w}, exactRun(int(size), start), nil
		}
	}
	if f := m.Flat(); f != nil {
		if len(f.outcome) > budget {
			return nil, Run{}, fmt.Errorf("sim: %w: %d paths; use Monte Carlo", ErrBudget, len(f.outcome))
		}
		// Every path of a flat table has the same probability.
		counts := make([]int, len(w))
		for _, o := range f.outcome {
			counts[o]++
		}
		for o, k := range counts {
			w[o] = float64(k) / float64(len(f.outcome))
		}
		return &stats.Tally{Weights: w}, exactRun(len(f.outcome), start), nil
	}
	e := &enumerator{path: make([]choice, 0, 8)}
	paths := 0
	for {
		o := m.Resolve(e)
		w[o] += e.weight()
		paths++
		if !e.next() {
			break
		}
		if paths >= budget {
			return nil, Run{}, fmt.Errorf("sim: %w: more than %d paths; use Monte Carlo", ErrBudget, budget)
		}
		if paths%CheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, Run{}, fmt.Errorf("exact enumeration stopped after %d paths: %w", paths, err)
			}
			if progress != nil {
				progress(uint64(paths), 0)
			}
		}
	}
	return &stats.Tally{Weights: w}, exactRun(paths, start), nil
}

// Tabulator is a Model that can give its exact tally without walking its
// dice tree: how many indices of its flat table lead to each outcome, and
// the table's size, exactly what the flat table holds (ok false when it
// cannot). Exact and CountPaths use it first.
type Tabulator interface {
	Model
	Tabulate() (counts []uint64, size uint64, ok bool)
}

func exactRun(paths int, start time.Time) Run {
	return Run{Method: MethodExact, Paths: paths, Elapsed: time.Since(start).Seconds()}
}

// CheckEvery is how many dice paths enumeration walks between looks at its
// context: often enough to stop within a few milliseconds.
const CheckEvery = 1 << 14

// Fits reports whether Exact answers m within budget (<= 0 means
// DefaultPathBudget): a tabulated tally always does, walking none of its
// paths; otherwise its paths are counted against the budget.
func Fits(ctx context.Context, m Model, budget int) (bool, error) {
	if budget <= 0 {
		budget = DefaultPathBudget
	}
	if tb, ok := m.(Tabulator); ok {
		if _, _, ok := tb.Tabulate(); ok {
			return true, nil
		}
	}
	n, err := CountPaths(ctx, m, budget+1)
	return n <= budget, err
}

// CountPaths counts the paths of the dice tree, up to limit, without
// tallying outcomes; it tells whether Exact fits a budget. It stops with
// ctx's error when ctx is cancelled.
func CountPaths(ctx context.Context, m Model, limit int) (int, error) {
	if tb, ok := m.(Tabulator); ok {
		if _, size, ok := tb.Tabulate(); ok {
			return int(min(size, uint64(limit))), nil
		}
	}
	if f := m.Flat(); f != nil {
		return min(len(f.outcome), limit), nil
	}
	e := &enumerator{}
	n := 0
	for {
		m.Resolve(e)
		n++
		if !e.next() || n >= limit {
			return n, nil
		}
		if n%CheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return n, fmt.Errorf("counting dice paths stopped after %d: %w", n, err)
			}
		}
	}
}
