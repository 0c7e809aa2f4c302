package benchmarks

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/wifodds/wifodds/sim"
)

// Result is one workload's measurement: the medians of its paired slices
// (Measure).
type Result struct {
	Name         string  `json:"name"`
	Trials       uint64  `json:"trials"` // trials (or answers) of the workload, over every slice
	Seconds      float64 `json:"seconds"`
	TrialsPerSec float64 `json:"trials_per_second"`
	// Pairs is how many slices of the workload were measured, each beside
	// a slice of its limit kernel when it has one.
	Pairs int `json:"pairs"`
	// A sampling workload: the median ns a trial, its limit kernel's,
	// and the median of the pairs' ratios limit/workload (1 is the
	// limit's speed), with its quartiles.
	NsPerTrial      float64 `json:"ns_per_trial,omitempty"`
	LimitNsPerTrial float64 `json:"limit_ns_per_trial,omitempty"`
	RatioToLimit    float64 `json:"ratio_to_limit,omitempty"`
	// An answer workload: the median seconds one answer takes, the most
	// it should take, and target/actual (1 or more meets the target). An
	// answer workload with a limit kernel also has the limit's seconds an
	// answer and RatioToLimit, and the gate reads that ratio.
	SecondsPerAnswer      float64 `json:"seconds_per_answer,omitempty"`
	LimitSecondsPerAnswer float64 `json:"limit_seconds_per_answer,omitempty"`
	TargetSeconds         float64 `json:"target_seconds,omitempty"`
	RatioToTarget         float64 `json:"ratio_to_target,omitempty"`
	// RatioQ1 and RatioQ3 are the quartiles of the ratio Ratio returns,
	// over the pairs: its spread.
	RatioQ1        float64 `json:"ratio_q1,omitempty"`
	RatioQ3        float64 `json:"ratio_q3,omitempty"`
	SpeedupWorkers float64 `json:"speedup_vs_one_worker,omitempty"`

	// Samples are the slices, in the order measured: ns a trial (or an
	// answer) of the workload and of its limit (0 without one).
	Samples []Sample `json:"-"`
}

// Sample is one pair of slices: ns a unit (trial or answer) of the
// workload, and of its limit kernel measured just before or after it (0
// when the workload has none).
type Sample struct {
	Ns, LimitNs float64
}

// Ratio is what the gate checks: the median ratio to the limit kernel, or
// for an answer workload without one to its target.
func (r Result) Ratio() float64 {
	if r.RatioToLimit > 0 {
		return r.RatioToLimit
	}
	return r.RatioToTarget
}

// ratio is one pair's ratio, of the kind Ratio returns.
func (s Sample) ratio(target float64) float64 {
	if s.LimitNs > 0 {
		return s.LimitNs / s.Ns
	}
	return target * 1e9 / s.Ns
}

// timed runs fn with growing trial counts until one run takes at least
// seconds, and returns the trials and seconds of that run.
func timed(ctx context.Context, fn KernelFunc, workers int, seconds float64, first uint64) (uint64, float64, error) {
	trials := first
	for {
		el, err := once(ctx, fn, workers, trials)
		if err != nil {
			return 0, 0, err
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

// clock is what once times a run by: the wall clock, or a test's clock
// that its fake kernels advance, so the test does not depend on the host.
var clock = time.Now

// once runs fn for trials trials and returns the seconds it took.
func once(ctx context.Context, fn KernelFunc, workers int, trials uint64) (float64, error) {
	start := clock()
	if err := fn(ctx, trials, workers); err != nil {
		return 0, err
	}
	el := clock().Sub(start).Seconds()
	return el, ctx.Err()
}

// Slice timing: a measurement of seconds is cut into slices of
// seconds/slicesPerMeasure, kept within minSlice and maxSlice, and at
// least minPairs pairs are measured. A shared host's speed swings over
// seconds, so a ratio taken from two whole runs one after the other can be
// off by several times; two slices tens of milliseconds apart see the same
// host. A slice of a few milliseconds still dwarfs a kernel's fixed costs
// (the tuple kernel's histogram is 46,656 bins, turned into outcomes once
// a run).
const (
	slicesPerMeasure = 20
	minSlice         = 0.005
	maxSlice         = 0.02
	minPairs         = 3
)

// Measure measures w for about seconds in short slices, each beside a
// slice of its limit kernel when it has one (taking turns at going first,
// so a drift in the host's speed favours neither), and reports the medians
// of the slices and of the pairs' ratios, with the ratio's quartiles.
func Measure(ctx context.Context, w Workload, workers int, seconds float64) (Result, error) {
	first := uint64(sim.ChunkSize * workers)
	if w.Answer {
		first = 1
	}
	slice := min(max(seconds/slicesPerMeasure, minSlice), maxSlice)
	// Calibrate: the trials that fill a slice, for each side.
	n, _, err := timed(ctx, w.Run, workers, slice, first)
	if err != nil {
		return Result{}, err
	}
	var ln uint64
	if w.Limit != nil {
		if ln, _, err = timed(ctx, w.Limit, workers, slice, first); err != nil {
			return Result{}, err
		}
	}
	r := Result{Name: w.Name}
	for spent := 0.0; spent < seconds || len(r.Samples) < minPairs; {
		var s Sample
		var el, lel float64
		sides := []func() error{
			func() (err error) { el, err = once(ctx, w.Run, workers, n); return err },
			func() (err error) {
				if w.Limit != nil {
					lel, err = once(ctx, w.Limit, workers, ln)
				}
				return err
			},
		}
		if len(r.Samples)%2 == 1 {
			sides[0], sides[1] = sides[1], sides[0]
		}
		for _, side := range sides {
			if err := side(); err != nil {
				return Result{}, err
			}
		}
		s.Ns = el / float64(n) * 1e9
		if w.Limit != nil {
			s.LimitNs = lel / float64(ln) * 1e9
		}
		r.Samples = append(r.Samples, s)
		r.Trials += n
		r.Seconds += el
		spent += el + lel
	}
	r.summarise(w)
	return r, nil
}

// summarise works out the medians and quartiles from r.Samples.
func (r *Result) summarise(w Workload) {
	ns, lns, ratios := make([]float64, 0, len(r.Samples)), make([]float64, 0, len(r.Samples)), make([]float64, 0, len(r.Samples))
	for _, s := range r.Samples {
		ns, lns = append(ns, s.Ns), append(lns, s.LimitNs)
		ratios = append(ratios, s.ratio(w.TargetSeconds))
	}
	r.Pairs = len(r.Samples)
	r.TrialsPerSec = 1e9 / quantile(ns, 0.5)
	r.RatioQ1, r.RatioQ3 = quantile(ratios, 0.25), quantile(ratios, 0.75)
	med := quantile(ratios, 0.5)
	if w.Answer {
		r.SecondsPerAnswer, r.TargetSeconds = quantile(ns, 0.5)/1e9, w.TargetSeconds
		r.RatioToTarget = w.TargetSeconds / r.SecondsPerAnswer
		if w.Limit != nil {
			r.LimitSecondsPerAnswer = quantile(lns, 0.5) / 1e9
			r.RatioToLimit = med
		} else {
			// The median of the ratios, the same as target over the
			// median time but for an even count of slices.
			r.RatioToTarget = med
		}
		return
	}
	r.NsPerTrial = quantile(ns, 0.5)
	if w.Limit != nil {
		r.LimitNsPerTrial, r.RatioToLimit = quantile(lns, 0.5), med
	}
}

// quantile is the q-quantile of xs by linear interpolation between order
// statistics (xs is sorted in place); 0 for none.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	pos := q * float64(len(xs)-1)
	i := int(pos)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (pos-float64(i))*(xs[i+1]-xs[i])
}

// Gate checks each workload the thresholds name against its minimum
// ratio: the median of its pairs' ratios (to its limit, or for an answer
// without one to its target). A workload below its threshold is measured
// once more and the two measurements' pairs pooled, so a short noisy
// spell on a shared host weighs less; the median of the pooled pairs
// counts. It returns a failure message per workload below its threshold,
// and updates rs with the pooled measurements.
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
		if rs[i].Ratio() < thresholds[n] {
			again, err := Measure(ctx, ws[j], workers, seconds)
			if err != nil {
				return nil, err
			}
			pooled := rs[i]
			pooled.Samples = append(slices.Clip(pooled.Samples), again.Samples...)
			pooled.Trials += again.Trials
			pooled.Seconds += again.Seconds
			pooled.summarise(ws[j])
			rs[i] = pooled
		}
		if r := rs[i]; r.Ratio() < thresholds[n] {
			what := "limit"
			if r.RatioToLimit == 0 {
				what = "target"
			}
			failures = append(failures, fmt.Sprintf("%s: median ratio to %s %.3f (quartiles %.3f–%.3f, %d pairs) is below the threshold %.3f",
				n, what, r.Ratio(), r.RatioQ1, r.RatioQ3, r.Pairs, thresholds[n]))
		}
	}
	return failures, nil
}
