package query

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/sim"
)

// DefaultMaxTrials is the most Monte Carlo trials a request may ask for
// unless the server is told otherwise; the browser build takes it too.
const DefaultMaxTrials = 100_000_000

// MaxSweepCombats is the most combats one sweep request computes (totals x
// modifiers x tables): a page's sweep is a few hundred, and the largest
// ranges the parameters allow (501 totals x 61 modifiers x 2 tables, about
// 120 MB of a server's memory and a 22 MB answer) are a command-line job.
const MaxSweepCombats = 20_000

// Limits are what the surface sets and a request cannot: the bounds on
// what it may ask and how it runs.
type Limits struct {
	MaxTrials uint64                     // most Monte Carlo trials a request may ask for
	Workers   int                        // goroutines one run uses
	Progress  func(done, planned uint64) // sees trials, dice paths or forces done; nil for none
}

func bad(format string, args ...any) error {
	return &answer.InputError{Err: fmt.Errorf(format, args...)}
}

// reader reads a request's parameters, with errors that name the
// parameter and the value given.
type reader struct{ v url.Values }

func (q reader) count(key string, def, hi uint64) (uint64, error) {
	v := q.v.Get(key)
	if v == "" {
		return def, nil
	}
	n, err := sim.ParseCount(v, key)
	if err != nil {
		return 0, bad("%s=%s: %v", key, v, err)
	}
	if n > hi {
		return 0, bad("%s=%s: over this server's cap of %d", key, v, hi)
	}
	return n, nil
}

func (q reader) intIn(key string, def, lo, hi int) (int, error) {
	v := q.v.Get(key)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo || n > hi {
		return 0, bad("%s=%s: want a whole number from %d to %d", key, v, lo, hi)
	}
	return n, nil
}

func (q reader) boolean(key string) (bool, error) {
	switch v := q.v.Get(key); v {
	case "", "false", "0":
		return false, nil
	case "true", "1":
		return true, nil
	default:
		return false, bad("%s=%s: want true or false", key, v)
	}
}

// float reads a number in (lo, hi]; 0 when not given.
func (q reader) float(key string, lo, hi float64) (float64, error) {
	v := q.v.Get(key)
	if v == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	// Decimal only, as the CLI reads --target: ParseFloat takes 0x1p-1.
	if err != nil || strings.ContainsAny(v, "xXpP") || !(f > lo && f <= hi) {
		return 0, bad("%s=%s: want a number above %g and at most %g", key, v, lo, hi)
	}
	return f, nil
}

func (q reader) rangeOf(key, v string) (analysis.Range, error) {
	r, err := analysis.ParseRange(v)
	if err != nil {
		return r, bad("%s=%s: %v", key, v, err)
	}
	return r, nil
}

// engine reads method=exact|mc|auto.
func (q reader) engine() (analysis.Engine, error) {
	switch m := q.v.Get("method"); m {
	case "", "auto":
		return analysis.Auto, nil
	case "exact":
		return analysis.Exact, nil
	case "mc":
		return analysis.MonteCarlo, nil
	default:
		return 0, bad("method=%s: want exact, mc or auto", m)
	}
}

// sampling reads trials, seed and budget.
func (q reader) sampling(lim Limits) (sim.Config, int, error) {
	trials, err := q.count("trials", 1_000_000, lim.MaxTrials)
	if err != nil {
		return sim.Config{}, 0, err
	}
	seed := uint64(1)
	if v := q.v.Get("seed"); v != "" {
		// Read as the CLI reads --seed: decimal, 010 is 10.
		if seed, err = sim.ParseSeed(v); err != nil {
			return sim.Config{}, 0, bad("seed=%v", err)
		}
	}
	// Read as the CLI reads --budget: 2097152, 2_097_152, 2e6 or 2M.
	budget, err := q.count("budget", sim.DefaultPathBudget, sim.MaxPathBudget)
	if err != nil {
		return sim.Config{}, 0, err
	}
	return sim.Config{Trials: trials, Seed: seed, Workers: lim.Workers, Progress: lim.Progress}, int(budget), nil
}

// request reads method, trials, seed and budget.
func (q reader) request(lim Limits) (analysis.Request, error) {
	eng, err := q.engine()
	if err != nil {
		return analysis.Request{}, err
	}
	smp, budget, err := q.sampling(lim)
	if err != nil {
		return analysis.Request{}, err
	}
	return analysis.Request{Engine: eng, Budget: budget, Sample: smp, ExactProgress: lim.Progress}, nil
}
