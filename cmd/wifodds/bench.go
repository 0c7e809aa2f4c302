package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/benchmarks"
	"github.com/wifodds/wifodds/internal/fileio"
)

func benchCommand() *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "measure simulator throughput as ratios to the limit workload",
		Description: "Runs every workload in-process and prints trials/s, the ratio to the limit workload measured in the same run,\n" +
			"and the speed-up over one worker. With --check FILE it fails when a ratio falls below the threshold the file sets.",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "text or json"},
			&cli.Float64Flag{Name: "seconds", Value: 1, Usage: "target duration of each measurement"},
			&cli.IntFlag{Name: "workers", Aliases: []string{"w"}, Value: runtime.NumCPU(), Usage: "worker goroutines"},
			&cli.BoolFlag{Name: "no-speedup", Usage: "skip the one-worker measurements"},
			&cli.StringFlag{Name: "check", Usage: "fail when a workload's ratio to the limit is below the threshold in `FILE`"},
		},
		Action: benchAction,
	}
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
	format, secs, workers := c.String("format"), c.Float64("seconds"), c.Int("workers")
	if format != "text" && format != "json" {
		return usagef("--format %q: want text or json", format)
	}
	if secs <= 0 || secs > 60 {
		return usagef("--seconds %v: want more than 0 and at most 60", secs)
	}
	if workers < 1 || workers > 1024 {
		return usagef("--workers %d: want 1 to 1024", workers)
	}
	var thresholds map[string]float64
	if f := c.String("check"); f != "" {
		data, err := fileio.ReadFile(f, 1<<20)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(data, &thresholds); err != nil {
			return fmt.Errorf("%s: %w (want an object of workload name to minimum ratio)", f, err)
		}
	}
	ws, err := benchmarks.Workloads()
	if err != nil {
		return err
	}
	rep := benchReport{Workers: workers, Seconds: secs}
	for _, w := range ws {
		r, err := benchmarks.Measure(c.Context, w, workers, secs)
		if err != nil {
			return err
		}
		if !c.Bool("no-speedup") && workers > 1 {
			one, err := benchmarks.Measure(c.Context, w, 1, secs)
			if err != nil {
				return err
			}
			r.SpeedupWorkers = r.TrialsPerSec / one.TrialsPerSec
		}
		rep.Workloads = append(rep.Workloads, r)
	}
	limit := rep.Workloads[0].TrialsPerSec
	for i := range rep.Workloads {
		rep.Workloads[i].RatioToLimit = rep.Workloads[i].TrialsPerSec / limit
	}
	names := make([]string, 0, len(thresholds))
	for n := range thresholds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		found := false
		for i, r := range rep.Workloads {
			if r.Name != n {
				continue
			}
			found = true
			// The host is shared and noisy: a workload below its threshold
			// is measured again beside the limit, twice at most, and its
			// best ratio counts.
			for retry := 0; retry < 2 && rep.Workloads[i].RatioToLimit < thresholds[n]; retry++ {
				lim, err := benchmarks.Measure(c.Context, ws[0], workers, secs)
				if err != nil {
					return err
				}
				again, err := benchmarks.Measure(c.Context, ws[i], workers, secs)
				if err != nil {
					return err
				}
				if ratio := again.TrialsPerSec / lim.TrialsPerSec; ratio > rep.Workloads[i].RatioToLimit {
					again.RatioToLimit, again.SpeedupWorkers = ratio, rep.Workloads[i].SpeedupWorkers
					rep.Workloads[i] = again
				}
			}
			if r := rep.Workloads[i]; r.RatioToLimit < thresholds[n] {
				rep.Failures = append(rep.Failures, fmt.Sprintf("%s: ratio to limit %.3f is below the threshold %.3f (best of 3)", n, r.RatioToLimit, thresholds[n]))
			}
		}
		if !found {
			rep.Failures = append(rep.Failures, fmt.Sprintf("%s: no such workload", n))
		}
	}
	if format == "json" {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "workload\ttrials/s\tratio to limit\tspeed-up vs 1 worker\t\n")
		for _, r := range rep.Workloads {
			sp := "-"
			if r.SpeedupWorkers > 0 {
				sp = fmt.Sprintf("%.2fx", r.SpeedupWorkers)
			}
			fmt.Fprintf(tw, "%s\t%.1fM\t%.2f\t%s\t\n", r.Name, r.TrialsPerSec/1e6, r.RatioToLimit, sp)
		}
		tw.Flush()
		fmt.Fprintf(c.App.Writer, "%d workers, about %gs a measurement\n", workers, secs)
		for _, f := range rep.Failures {
			fmt.Fprintln(c.App.Writer, "FAIL", f)
		}
	}
	if len(rep.Failures) > 0 {
		return fmt.Errorf("throughput gate failed: %s", strings.Join(rep.Failures, "; "))
	}
	return nil
}
