package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/benchmarks"
	"github.com/wifodds/wifodds/internal/fileio"
)

func benchCommand() *cli.Command {
	flags := []cli.Flag{
		formatFlag("text", "json", "gobench"),
		&cli.Float64Flag{Name: "seconds", Value: 1, Usage: "target duration of each measurement"},
		&cli.IntFlag{Name: "workers", Aliases: []string{"w"}, Value: runtime.NumCPU(), Usage: "worker goroutines"},
		&cli.BoolFlag{Name: "no-speedup", Usage: "skip the one-worker measurements"},
		&cli.StringFlag{Name: "check", Usage: "fail when a workload's ratio is below the threshold in `FILE`"},
		&cli.StringSliceFlag{Name: "skip", Usage: "leave out the workload `NAME` (repeat; its threshold too)"},
	}
	return command("bench", "measure simulator throughput against each workload's limit kernel", "",
		"Runs every workload in-process, in short slices, each beside a slice of its limit kernel (the fastest method\n"+
			"known for the same work). A sampling workload prints the median ns a trial beside its limit kernel's, and the\n"+
			"median of the pairs' ratios limit/workload with its quartiles; an answer workload (exact answers, plans, the\n"+
			"battery) prints the median seconds an answer beside its limit kernel's or its target, and limit/actual or\n"+
			"target/actual. With --check FILE it fails when a median ratio falls below the threshold the file sets.\n"+
			"-f gobench prints a Go benchmark line a pair, for benchstat.",
		flags, benchAction)
}

// benchReport is the JSON of `wifodds bench`.
type benchReport struct {
	Workers   int                 `json:"workers"`
	Seconds   float64             `json:"seconds"`
	Workloads []benchmarks.Result `json:"workloads"`
	Failures  []string            `json:"failures,omitempty"`
}

func benchAction(c *cli.Context) error {
	if c.NArg() != 0 {
		return usagef("bench takes no arguments")
	}
	format, err := parseFormat(c, "text", "json", "gobench")
	if err != nil {
		return err
	}
	secs, workers := c.Float64("seconds"), c.Int("workers")
	if secs <= 0 || secs > 60 {
		return usagef("--seconds %v: want more than 0 and at most 60", secs)
	}
	if workers < 1 || workers > maxWorkers {
		return usagef("--workers %d: want 1 to %d", workers, maxWorkers)
	}
	thresholds, err := readThresholds(c.String("check"))
	if err != nil {
		return err
	}
	ws, err := benchmarks.Workloads()
	if err != nil {
		return err
	}
	if ws, err = skipWorkloads(ws, c.StringSlice("skip"), thresholds); err != nil {
		return err
	}
	rep := benchReport{Workers: workers, Seconds: secs}
	if rep.Workloads, err = measureAll(c, ws, workers, secs); err != nil {
		return err
	}
	if rep.Failures, err = benchmarks.Gate(c.Context, ws, rep.Workloads, thresholds, workers, secs); err != nil {
		return err
	}
	if err := writeBench(c.App.Writer, format, rep); err != nil {
		return err
	}
	if len(rep.Failures) > 0 {
		return fmt.Errorf("throughput gate failed: %s", strings.Join(rep.Failures, "; "))
	}
	return nil
}

// readThresholds reads --check: an object of workload name to minimum
// ratio (to the limit kernel, or for an answer workload to its target).
func readThresholds(file string) (map[string]float64, error) {
	if file == "" {
		return nil, nil
	}
	data, err := fileio.ReadFile(file, 1<<20)
	if err != nil {
		return nil, err
	}
	var t map[string]float64
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("%s: %w (want an object of workload name to minimum ratio)", file, err)
	}
	return t, nil
}

// skipWorkloads is ws without the workloads named in skip, whose
// thresholds are dropped too; a name no workload has is a usage error.
func skipWorkloads(ws []benchmarks.Workload, skip []string, thresholds map[string]float64) ([]benchmarks.Workload, error) {
	for _, n := range skip {
		i := slices.IndexFunc(ws, func(w benchmarks.Workload) bool { return w.Name == n })
		if i < 0 {
			names := make([]string, len(ws))
			for j, w := range ws {
				names[j] = w.Name
			}
			return nil, usagef("--skip %q: no such workload (want one of %s)", n, strings.Join(names, ", "))
		}
		ws = slices.Delete(ws, i, i+1)
		delete(thresholds, n)
	}
	return ws, nil
}

// measureAll measures every workload, with its speed-up over one worker.
func measureAll(c *cli.Context, ws []benchmarks.Workload, workers int, secs float64) ([]benchmarks.Result, error) {
	var rs []benchmarks.Result
	for _, w := range ws {
		r, err := benchmarks.Measure(c.Context, w, workers, secs)
		if err != nil {
			return nil, err
		}
		if !c.Bool("no-speedup") && workers > 1 && !w.Answer {
			one, err := benchmarks.Measure(c.Context, w, 1, secs)
			if err != nil {
				return nil, err
			}
			r.SpeedupWorkers = r.TrialsPerSec / one.TrialsPerSec
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// writeBench prints the measurements as a table, JSON or Go benchmark
// lines.
func writeBench(w io.Writer, format string, rep benchReport) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	case "gobench":
		return writeGoBench(w, rep)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "workload\ttime\tlimit or target\tratio\tquartiles\tpairs\tspeed-up vs 1 worker\t\n")
	for _, r := range rep.Workloads {
		sp := "-"
		if r.SpeedupWorkers > 0 {
			sp = fmt.Sprintf("%.2fx", r.SpeedupWorkers)
		}
		spread := fmt.Sprintf("%.2f–%.2f", r.RatioQ1, r.RatioQ3)
		switch {
		case r.SecondsPerAnswer > 0 && r.LimitSecondsPerAnswer > 0:
			fmt.Fprintf(tw, "%s\t%s/answer\t%s/answer (target %s)\t%.2f\t%s\t%d\t%s\t\n", r.Name, seconds(r.SecondsPerAnswer),
				seconds(r.LimitSecondsPerAnswer), seconds(r.TargetSeconds), r.RatioToLimit, spread, r.Pairs, sp)
		case r.SecondsPerAnswer > 0:
			fmt.Fprintf(tw, "%s\t%s/answer\t%s\t%.2f\t%s\t%d\t%s\t\n", r.Name, seconds(r.SecondsPerAnswer), seconds(r.TargetSeconds), r.RatioToTarget, spread, r.Pairs, sp)
		default:
			fmt.Fprintf(tw, "%s\t%.2f ns/trial\t%.2f ns/trial\t%.2f\t%s\t%d\t%s\t\n", r.Name, r.NsPerTrial, r.LimitNsPerTrial, r.RatioToLimit, spread, r.Pairs, sp)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d workers, about %gs a measurement; ratios are medians of paired slices\n", rep.Workers, rep.Seconds)
	for _, f := range rep.Failures {
		fmt.Fprintln(w, "FAIL", f)
	}
	return nil
}

// writeGoBench prints a line in the Go benchmark format per pair of
// slices, so benchstat can compare runs: ns/op is ns a trial (or an
// answer), limit-ns/op its limit kernel's, and ratio the pair's ratio to
// the limit (or target). The name ends in -workers, as go test's ends in
// -GOMAXPROCS, so a workload named like plan-16 keeps its number.
func writeGoBench(w io.Writer, rep benchReport) error {
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: github.com/wifodds/wifodds/benchmarks\n", runtime.GOOS, runtime.GOARCH)
	for _, r := range rep.Workloads {
		for _, s := range r.Samples {
			line := fmt.Sprintf("BenchmarkBench/%s-%d\t%d\t%.4g ns/op", r.Name, rep.Workers, max(1, r.Trials/uint64(max(1, r.Pairs))), s.Ns)
			ratio := r.TargetSeconds * 1e9 / s.Ns
			if s.LimitNs > 0 {
				line += fmt.Sprintf("\t%.4g limit-ns/op", s.LimitNs)
				ratio = s.LimitNs / s.Ns
			}
			if _, err := fmt.Fprintf(w, "%s\t%.4g ratio\n", line, ratio); err != nil {
				return err
			}
		}
	}
	return nil
}

// seconds prints a duration in seconds with a unit that suits it.
func seconds(s float64) string {
	switch {
	case s < 1e-3:
		return fmt.Sprintf("%.1f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.1f ms", s*1e3)
	}
	return fmt.Sprintf("%.2f s", s)
}
