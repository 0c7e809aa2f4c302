package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/benchmarks"
	"github.com/wifodds/wifodds/internal/fileio"
)

func benchCommand() *cli.Command {
	flags := []cli.Flag{
		formatFlag("text", "json"),
		&cli.Float64Flag{Name: "seconds", Value: 1, Usage: "target duration of each measurement"},
		&cli.IntFlag{Name: "workers", Aliases: []string{"w"}, Value: runtime.NumCPU(), Usage: "worker goroutines"},
		&cli.BoolFlag{Name: "no-speedup", Usage: "skip the one-worker measurements"},
		&cli.StringFlag{Name: "check", Usage: "fail when a workload's ratio to the limit is below the threshold in `FILE`"},
	}
	return command("bench", "measure simulator throughput as ratios to the limit workload", "",
		"Runs every workload in-process and prints trials/s, the ratio to the limit workload measured in the same run,\n"+
			"and the speed-up over one worker. With --check FILE it fails when a ratio falls below the threshold the file sets.",
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
	format, err := parseFormat(c, "text", "json")
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
	rep := benchReport{Workers: workers, Seconds: secs}
	if rep.Workloads, err = measureAll(c, ws, workers, secs); err != nil {
		return err
	}
	if rep.Failures, err = gate(c, ws, rep.Workloads, thresholds, workers, secs); err != nil {
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
// ratio to the limit.
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

// measureAll measures every workload, and its speed-up over one worker,
// and works out each ratio to the limit (the first workload).
func measureAll(c *cli.Context, ws []benchmarks.Workload, workers int, secs float64) ([]benchmarks.Result, error) {
	var rs []benchmarks.Result
	for _, w := range ws {
		r, err := benchmarks.Measure(c.Context, w, workers, secs)
		if err != nil {
			return nil, err
		}
		if !c.Bool("no-speedup") && workers > 1 {
			one, err := benchmarks.Measure(c.Context, w, 1, secs)
			if err != nil {
				return nil, err
			}
			r.SpeedupWorkers = r.TrialsPerSec / one.TrialsPerSec
		}
		rs = append(rs, r)
	}
	for i := range rs {
		rs[i].RatioToLimit = rs[i].TrialsPerSec / rs[0].TrialsPerSec
	}
	return rs, nil
}

// gate checks each thresholded workload. The host is shared and noisy: a
// workload below its threshold is measured again beside the limit, twice
// at most, and its best ratio counts.
func gate(c *cli.Context, ws []benchmarks.Workload, rs []benchmarks.Result, thresholds map[string]float64, workers int, secs float64) ([]string, error) {
	names := make([]string, 0, len(thresholds))
	for n := range thresholds {
		names = append(names, n)
	}
	sort.Strings(names)
	var failures []string
	for _, n := range names {
		i := slices.IndexFunc(rs, func(r benchmarks.Result) bool { return r.Name == n })
		if i < 0 {
			failures = append(failures, fmt.Sprintf("%s: no such workload", n))
			continue
		}
		for retry := 0; retry < 2 && rs[i].RatioToLimit < thresholds[n]; retry++ {
			lim, err := benchmarks.Measure(c.Context, ws[0], workers, secs)
			if err != nil {
				return nil, err
			}
			again, err := benchmarks.Measure(c.Context, ws[i], workers, secs)
			if err != nil {
				return nil, err
			}
			if ratio := again.TrialsPerSec / lim.TrialsPerSec; ratio > rs[i].RatioToLimit {
				again.RatioToLimit, again.SpeedupWorkers = ratio, rs[i].SpeedupWorkers
				rs[i] = again
			}
		}
		if r := rs[i]; r.RatioToLimit < thresholds[n] {
			failures = append(failures, fmt.Sprintf("%s: ratio to limit %.3f is below the threshold %.3f (best of 3)", n, r.RatioToLimit, thresholds[n]))
		}
	}
	return failures, nil
}

// writeBench prints the measurements as a table or JSON.
func writeBench(w io.Writer, format string, rep benchReport) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "workload\ttrials/s\tratio to limit\tspeed-up vs 1 worker\t\n")
	for _, r := range rep.Workloads {
		sp := "-"
		if r.SpeedupWorkers > 0 {
			sp = fmt.Sprintf("%.2fx", r.SpeedupWorkers)
		}
		if r.SecondsPerAnswer > 0 {
			fmt.Fprintf(tw, "%s\t%.3f s/answer (target %gs)\t%.3g\t%s\t\n", r.Name, r.SecondsPerAnswer, r.TargetSeconds, r.RatioToLimit, sp)
			continue
		}
		fmt.Fprintf(tw, "%s\t%.1fM\t%.2f\t%s\t\n", r.Name, r.TrialsPerSec/1e6, r.RatioToLimit, sp)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d workers, about %gs a measurement\n", rep.Workers, rep.Seconds)
	for _, f := range rep.Failures {
		fmt.Fprintln(w, "FAIL", f)
	}
	return nil
}
