package benchmarks

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/wifodds/wifodds/sim"
)

// Result is one workload's measurement.
type Result struct {
	Name         string  `json:"name"`
	Trials       uint64  `json:"trials"`
	Seconds      float64 `json:"seconds"`
	TrialsPerSec float64 `json:"trials_per_second"`
	// A sampling workload: ns a trial, its limit kernel's in the same
	// run, and the ratio limit/workload (1 is the limit's speed).
	NsPerTrial      float64 `json:"ns_per_trial,omitempty"`
	LimitNsPerTrial float64 `json:"limit_ns_per_trial,omitempty"`
	RatioToLimit    float64 `json:"ratio_to_limit,omitempty"`
	// An answer workload: the seconds one answer takes, the most it
	// should take, and target/actual (1 or more meets the target).
	SecondsPerAnswer float64 `json:"seconds_per_answer,omitempty"`
	TargetSeconds    float64 `json:"target_seconds,omitempty"`
	RatioToTarget    float64 `json:"ratio_to_target,omitempty"`
	SpeedupWorkers   float64 `json:"speedup_vs_one_worker,omitempty"`
}

// Ratio is what the gate checks: the ratio to the limit kernel, or for an
// answer workload to its target.
func (r Result) Ratio() float64 {
	if r.SecondsPerAnswer > 0 {
		return r.RatioToTarget
	}
	return r.RatioToLimit
}

// timed runs fn with growing trial counts until one run takes at least
// seconds, and returns the trials and seconds of that run.
func timed(ctx context.Context, fn KernelFunc, workers int, seconds float64, first uint64) (uint64, float64, error) {
	trials := first
	for {
		start := time.Now()
		if err := fn(ctx, trials, workers); err != nil {
			return 0, 0, err
		}
		el := time.Since(start).Seconds()
		if ctx.Err() != nil {
			return 0, 0, ctx.Err()
		}
		if el >= seconds || trials >= 1<<40 {
			return trials, el, nil
		}
		// Aim past the target so the next run is the last.
		grow := 2.0
		if el > 0 {
			grow = min(max(1.3*seconds/el, 2), 100)
		}
		trials = uint64(float64(trials) * grow)
	}
}

// Measure runs w for about seconds, then its limit kernel for as long,
// and works out the ratio between them.
func Measure(ctx context.Context, w Workload, workers int, seconds float64) (Result, error) {
	first := uint64(sim.ChunkSize * workers)
	if w.Answer {
		first = 1
	}
	trials, el, err := timed(ctx, w.Run, workers, seconds, first)
	if err != nil {
		return Result{}, err
	}
	r := Result{Name: w.Name, Trials: trials, Seconds: el, TrialsPerSec: float64(trials) / el}
	if w.Answer {
		r.SecondsPerAnswer, r.TargetSeconds = el/float64(trials), w.TargetSeconds
		r.RatioToTarget = w.TargetSeconds / r.SecondsPerAnswer
		return r, nil
	}
	r.NsPerTrial = el / float64(trials) * 1e9
	if w.Limit == nil {
		return r, nil
	}
	lt, lel, err := timed(ctx, w.Limit, workers, seconds, first)
	if err != nil {
		return Result{}, err
	}
	r.LimitNsPerTrial = lel / float64(lt) * 1e9
	r.RatioToLimit = r.LimitNsPerTrial / r.NsPerTrial
	return r, nil
}

// Gate checks each workload the thresholds name against its minimum
// ratio (to its limit, or for an answer to its target). The host may be
// shared and noisy: a workload below its threshold is measured twice more
// at most, workload and limit side by side, and its best ratio counts.
// It returns a failure message per workload below its threshold, and
// updates rs with the re-measurements.
func Gate(ctx context.Context, ws []Workload, rs []Result, thresholds map[string]float64, workers int, seconds float64) ([]string, error) {
	names := make([]string, 0, len(thresholds))
	for n := range thresholds {
		names = append(names, n)
	}
	sort.Strings(names)
	var failures []string
	for _, n := range names {
		i := slices.IndexFunc(rs, func(r Result) bool { return r.Name == n })
		j := slices.IndexFunc(ws, func(w Workload) bool { return w.Name == n })
		if i < 0 || j < 0 {
			failures = append(failures, fmt.Sprintf("%s: no such workload", n))
			continue
		}
		for retry := 0; retry < 2 && rs[i].Ratio() < thresholds[n]; retry++ {
			again, err := Measure(ctx, ws[j], workers, seconds)
			if err != nil {
				return nil, err
			}
			if again.Ratio() > rs[i].Ratio() {
				again.SpeedupWorkers = rs[i].SpeedupWorkers
				rs[i] = again
			}
		}
		if r := rs[i]; r.Ratio() < thresholds[n] {
			what := "limit"
			if r.SecondsPerAnswer > 0 {
				what = "target"
			}
			failures = append(failures, fmt.Sprintf("%s: ratio to %s %.3f is below the threshold %.3f (best of 3)", n, what, r.Ratio(), thresholds[n]))
		}
	}
	return failures, nil
}
