package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
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
		&cli.StringFlag{Name: "check", Usage: "fail when a workload's ratio is below the threshold in `FILE`"},
	}
	return command("bench", "measure simulator throughput against each workload's limit kernel", "",
		"Runs every workload in-process. A sampling workload prints ns a trial beside its limit kernel's (the fastest\n"+
			"method known for the same work) measured in the same run, and the ratio limit/workload; an answer workload\n"+
			"(exact answers, plans, the battery) prints seconds an answer beside its target, and target/actual. With\n"+
			"--check FILE it fails when a ratio falls below the threshold the file sets.",
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

// writeBench prints the measurements as a table or JSON.
func writeBench(w io.Writer, format string, rep benchReport) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "workload\ttime\tlimit or target\tratio\tspeed-up vs 1 worker\t\n")
	for _, r := range rep.Workloads {
		sp := "-"
		if r.SpeedupWorkers > 0 {
			sp = fmt.Sprintf("%.2fx", r.SpeedupWorkers)
		}
		if r.SecondsPerAnswer > 0 {
			fmt.Fprintf(tw, "%s\t%s/answer\t%s\t%.2f\t%s\t\n", r.Name, seconds(r.SecondsPerAnswer), seconds(r.TargetSeconds), r.RatioToTarget, sp)
			continue
		}
		fmt.Fprintf(tw, "%s\t%.2f ns/trial\t%.2f ns/trial\t%.2f\t%s\t\n", r.Name, r.NsPerTrial, r.LimitNsPerTrial, r.RatioToLimit, sp)
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
