package main

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// DefaultSeed is the seed a run uses when none is given; it is printed so
// any run can be repeated.
const DefaultSeed = 1

// maxWorkers bounds --workers.
const maxWorkers = sim.MaxWorkers

// variantEngineFlags choose how variants are weighed (compare, battery):
// the method, and for Monte Carlo whether the variants share their random
// numbers.
func variantEngineFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "exact", Usage: "exact enumeration only (fails if a tree is too large)"},
		&cli.BoolFlag{Name: "mc", Usage: "Monte Carlo even when exact answers are possible"},
		&cli.BoolFlag{Name: "independent", Usage: "Monte Carlo with independent streams instead of common random numbers"},
	}
}

// samplingFlags are the flags of every command that samples or enumerates.
func samplingFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "trials", Aliases: []string{"n"}, Value: "1000000", Usage: "Monte Carlo trials (1_000_000, 1e6 and 1M also work)"},
		&cli.StringFlag{Name: "seed", Value: strconv.Itoa(DefaultSeed), Usage: "seed of the random stream; the same seed and trials give the same answer"},
		&cli.IntFlag{Name: "workers", Aliases: []string{"w"}, Value: runtime.NumCPU(), Usage: "worker goroutines (the result does not depend on it)"},
		budgetFlag("most dice paths exact enumeration may walk"),
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
	}
}

// sampling is the validated sampling flags.
type sampling struct {
	trials  uint64
	seed    uint64
	workers int
	budget  int
	quiet   bool
}

// parseSampling reads and checks the sampling flags, with the same
// messages in every command.
func parseSampling(c *cli.Context) (sampling, error) {
	s := sampling{workers: c.Int("workers"), quiet: c.Bool("quiet")}
	var err error
	if s.trials, err = parseCount(c.String("trials")); err != nil {
		return s, usagef("--trials: %v", err)
	}
	if s.seed, err = sim.ParseSeed(c.String("seed")); err != nil {
		return s, usagef("--seed %v", err)
	}
	if s.workers < 1 || s.workers > maxWorkers {
		return s, usagef("--workers %d: want 1 to %d", s.workers, maxWorkers)
	}
	if s.budget, err = parseBudget(c); err != nil {
		return s, err
	}
	return s, nil
}

// budgetFlag is --budget, with what it bounds in the command.
func budgetFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "budget", Value: strconv.Itoa(sim.DefaultPathBudget),
		Usage: usage + " (1e9 and 1G also work); a combat whose answer is counted rather than walked, as most land combats are, is not bound by it"}
}

// parseBudget reads --budget as -n reads trials: 2097152, 2_097_152, 2e6
// or 2M, from 1 to sim.MaxPathBudget.
func parseBudget(c *cli.Context) (int, error) {
	text := c.String("budget")
	v, err := sim.ParseCount(text, "paths")
	switch {
	case err == nil && v <= sim.MaxPathBudget:
		return int(v), nil
	case err == nil || strings.Contains(err.Error(), "at most"):
		return 0, usagef("--budget %s: want 1 to %d paths", text, sim.MaxPathBudget)
	}
	return 0, usagef("--budget: %v", err)
}

// request is the analysis request for these flags and engine, with
// progress bars on a terminal; done clears them.
func (s sampling) request(c *cli.Context, engine analysis.Engine) (req analysis.Request, done func()) {
	trials := newProgress(c.App.ErrWriter, s.quiet, "trials")
	paths := newProgress(c.App.ErrWriter, s.quiet, "paths")
	req = analysis.Request{Engine: engine, Budget: s.budget, ExactProgress: paths.update,
		Sample: sim.Config{Trials: s.trials, Seed: s.seed, Workers: s.workers, Progress: trials.update}}
	return req, func() { trials.finish(); paths.finish() }
}

// parseCount reads a positive trial count: 1000000, 1_000_000, 1e6 or 1M.
func parseCount(s string) (uint64, error) { return sim.ParseCount(s, "trials") }

// formatFlag is the -f flag for these formats, the first the default.
func formatFlag(formats ...string) cli.Flag {
	return &cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: formats[0], Usage: orList(formats)}
}

// parseFormat checks -f against the formats it may take.
func parseFormat(c *cli.Context, formats ...string) (string, error) {
	f := c.String("format")
	if !slices.Contains(formats, f) {
		return "", usagef("--format %q: want %s", f, orList(formats))
	}
	return f, nil
}

// orList words a list as "a, b or c".
func orList(xs []string) string {
	if len(xs) == 1 {
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// reportFlags are the output flags of the commands with HTML pages.
func reportFlags() []cli.Flag {
	return []cli.Flag{
		formatFlag("text", "json", "csv", "markdown"),
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE` (- is standard output)"},
		&cli.StringFlag{Name: "html", Usage: "also write a self-contained HTML page with the charts to `FILE`"},
	}
}

// oneFile is a command's one scenario file argument.
func oneFile(c *cli.Context) (string, error) {
	if c.NArg() != 1 {
		return "", usagef("%s takes one scenario file, got %d arguments", c.Command.Name, c.NArg())
	}
	return c.Args().First(), nil
}

// loadScenario loads a scenario file; a command named by landOnly takes
// land combats, invasions and paradrops only.
func loadScenario(file string, landOnly ...string) (*scenario.Scenario, error) {
	s, err := scenario.Load(file)
	if err == nil && len(landOnly) > 0 && s.Kind == scenario.Bombardment {
		err = fmt.Errorf("%s: %s handles land combats, invasions and paradrops; run bombardments one at a time", file, landOnly[0])
	}
	if err == nil && s.IsPlan() {
		err = fmt.Errorf("%s is a plan file (it lists units the attack may add): run wifodds plan %s", file, file)
	}
	return s, err
}
