package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fileio"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

func defaultWorkers() int { return runtime.NumCPU() }

// DefaultSeed is the seed a run uses when none is given; it is printed so
// any run can be repeated.
const DefaultSeed = 1

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "compute the outcome distribution of a scenario",
		ArgsUsage: "FILE",
		Description: "Without --exact or --auto the combat is sampled (Monte Carlo). --exact enumerates every dice path;\n" +
			"--auto enumerates when the dice tree is within the path budget and samples otherwise.",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "exact", Usage: "enumerate every dice path (exact probabilities)"},
			&cli.BoolFlag{Name: "auto", Usage: "exact when the dice tree is within --budget paths, else Monte Carlo"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "text or json"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE` (atomically) instead of standard output"},
			&cli.StringFlag{Name: "trials", Aliases: []string{"n"}, Value: "1000000", Usage: "Monte Carlo trials (1_000_000, 1e6 and 1M also work)"},
			&cli.StringFlag{Name: "seed", Value: strconv.Itoa(DefaultSeed), Usage: "seed of the random stream; the same seed and trials give the same answer"},
			&cli.IntFlag{Name: "workers", Aliases: []string{"w"}, Value: defaultWorkers(), Usage: "worker goroutines (the result does not depend on it)"},
			&cli.Float64Flag{Name: "precision", Usage: "sample until every headline 95% interval's half-width is below `E` (0 < E < 1)"},
			&cli.StringFlag{Name: "max-trials", Value: "1000000000", Usage: "with --precision, the most trials to run"},
			&cli.IntFlag{Name: "budget", Value: sim.DefaultPathBudget, Usage: "most dice paths exact enumeration may walk"},
			&cli.StringFlag{Name: "dice", Usage: "replay these rolls (e.g. 5,1) instead of the scenario's dice list"},
			&cli.StringFlag{Name: "crt", Usage: "use this table (standard, 2d6 or a file) instead of the scenario's"},
			&cli.BoolFlag{Name: "explain", Usage: "show how totals, odds, modifiers and table choice were reached"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
			&cli.IntFlag{Name: "raids", Value: 1, Usage: fmt.Sprintf("bombardment: fly `K` raids (1-%d), carrying losses forward, and report the campaign's totals (Monte Carlo)", combat.MaxRaids)},
		},
		Action: runAction,
	}
}

type runOptions struct {
	file      string
	format    string
	output    string
	exact     bool
	auto      bool
	trials    uint64
	maxTrials uint64
	seed      uint64
	workers   int
	precision float64
	budget    int
	dice      []int
	diceSet   bool
	crt       string
	explain   bool
	quiet     bool
	raids     int
}

func parseRunOptions(c *cli.Context) (*runOptions, error) {
	if c.NArg() != 1 {
		return nil, usagef("run takes one scenario file, got %d arguments", c.NArg())
	}
	o := &runOptions{file: c.Args().First(), format: c.String("format"), output: c.String("output"),
		exact: c.Bool("exact"), auto: c.Bool("auto"), workers: c.Int("workers"), precision: c.Float64("precision"),
		budget: c.Int("budget"), crt: c.String("crt"), explain: c.Bool("explain"), quiet: c.Bool("quiet"), raids: c.Int("raids")}
	var err error
	if o.format != "text" && o.format != "json" {
		return nil, usagef("--format %q: want text or json", o.format)
	}
	if o.exact && o.auto {
		return nil, usagef("choose one of --exact and --auto")
	}
	if o.trials, err = parseCount(c.String("trials")); err != nil {
		return nil, usagef("--trials: %v", err)
	}
	if o.maxTrials, err = parseCount(c.String("max-trials")); err != nil {
		return nil, usagef("--max-trials: %v", err)
	}
	if o.seed, err = strconv.ParseUint(strings.ReplaceAll(c.String("seed"), "_", ""), 0, 64); err != nil {
		return nil, usagef("--seed %q: want a whole number from 0 to %d", c.String("seed"), uint64(math.MaxUint64))
	}
	if o.workers < 1 || o.workers > 1024 {
		return nil, usagef("--workers %d: want 1 to 1024", o.workers)
	}
	if c.IsSet("precision") && (o.precision <= 0 || o.precision >= 1 || math.IsNaN(o.precision)) {
		return nil, usagef("--precision %v: want a half-width between 0 and 1, e.g. 0.001", o.precision)
	}
	if o.raids < 1 || o.raids > combat.MaxRaids {
		return nil, usagef("--raids %d: want 1 to %d", o.raids, combat.MaxRaids)
	}
	if o.budget < 1 || o.budget > sim.MaxPathBudget {
		return nil, usagef("--budget %d: want 1 to %d paths", o.budget, sim.MaxPathBudget)
	}
	if o.exact && c.IsSet("precision") {
		return nil, usagef("--precision sets how long Monte Carlo samples; --exact needs no precision (drop one of them)")
	}
	if c.IsSet("dice") {
		o.diceSet = true
		for _, f := range strings.Split(c.String("dice"), ",") {
			v, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || v < 1 || v > 10 {
				return nil, usagef("--dice %q: want rolls 1 to 10 separated by commas, e.g. 5,1", c.String("dice"))
			}
			o.dice = append(o.dice, v)
		}
	}
	return o, nil
}

// parseCount reads a positive trial count: 1000000, 1_000_000, 1e6 or 1M.
func parseCount(s string) (uint64, error) {
	t := strings.ReplaceAll(strings.TrimSpace(s), "_", "")
	mult := 1.0
	switch {
	case strings.HasSuffix(t, "k") || strings.HasSuffix(t, "K"):
		mult, t = 1e3, t[:len(t)-1]
	case strings.HasSuffix(t, "M"):
		mult, t = 1e6, t[:len(t)-1]
	case strings.HasSuffix(t, "G"):
		mult, t = 1e9, t[:len(t)-1]
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is not a number of trials", s)
	}
	v *= mult
	if v < 1 || v != math.Trunc(v) {
		return 0, fmt.Errorf("%q: want a whole number of trials, at least 1", s)
	}
	if v > float64(sim.MaxTrials) {
		return 0, fmt.Errorf("%q: at most %d trials", s, sim.MaxTrials)
	}
	return uint64(v), nil
}

func runAction(c *cli.Context) error {
	o, err := parseRunOptions(c)
	if err != nil {
		return err
	}
	s, err := scenario.Load(o.file)
	if err != nil {
		return err
	}
	out, err := prepareOutputs(c, inputFiles(o.file, s, o.crt), "output")
	if err != nil {
		return err
	}
	if s.Kind == scenario.Bombardment {
		return runRaid(c, o, s, out)
	}
	if c.IsSet("raids") {
		return usagef("--raids applies only to bombardments")
	}
	ref, dir, where := s.CRT, filepath.Dir(o.file), s.CRTPos+": crt"
	if o.crt != "" {
		ref, dir, where = o.crt, "", "--crt"
		s.CRT = o.crt
	}
	table, err := crt.Open(ref, dir)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	air, err := openAir(s)
	if err != nil {
		return err
	}
	cb, err := combat.Compile(s, table, air)
	if err != nil {
		return err
	}
	req, finish := o.request(c, s)
	sum, err := analysis.RunCombat(c.Context, cb, req)
	finish()
	if err != nil {
		return o.runError(c, s, err)
	}
	if o.explain {
		sum.Working = working(cb.Steps)
	}
	return emit(c, o, out, cb.Steps, sum, func(buf *bytes.Buffer) error { return reports.WriteText(buf, sum) }, sum.Partial, sum.Trials)
}

// request is the analysis request the options make, with progress bars on
// a terminal; finish clears them.
func (o *runOptions) request(c *cli.Context, s *scenario.Scenario) (analysis.Request, func()) {
	req := analysis.Request{Engine: analysis.MonteCarlo, Budget: o.budget, Replay: o.replayRolls(s),
		Sample: sim.Config{Trials: o.trials, Seed: o.seed, Workers: o.workers}}
	switch {
	case o.exact:
		req.Engine = analysis.Exact
	case o.auto:
		req.Engine = analysis.Auto
	}
	if o.precision > 0 {
		req.Sample.Trials, req.Sample.Precision = o.maxTrials, o.precision
	}
	trials := newProgress(c.App.ErrWriter, o.quiet, "trials")
	paths := newProgress(c.App.ErrWriter, o.quiet, "paths")
	req.Sample.Progress, req.ExactProgress = trials.update, paths.update
	return req, func() { trials.finish(); paths.finish() }
}

// runError words an error of a run: an interrupted run, an exact tree over
// the budget, or a bad replayed roll with where it came from (--dice, or
// the scenario file's line).
func (o *runOptions) runError(c *cli.Context, s *scenario.Scenario, err error) error {
	var re *analysis.ReplayError
	switch {
	case errors.Is(err, analysis.ErrNoTrials):
		return fmt.Errorf("%w: %v", errInterrupted, err)
	case c.Context.Err() != nil:
		return stopped(err)
	case errors.Is(err, sim.ErrBudget):
		return fmt.Errorf("%s: %w (try without --exact, or --auto)", o.file, err)
	case !errors.As(err, &re):
		return err
	case o.diceSet:
		return fmt.Errorf("--dice: %w", err)
	}
	return fmt.Errorf("%s:%d: %w", o.file, s.DiceLine[re.Index], err)
}

// working is the --explain steps as lines, for JSON.
func working(steps []combat.Step) []string {
	out := make([]string, len(steps))
	for i, st := range steps {
		out[i] = st.String()
	}
	return out
}

// replayRolls are the rolls to replay: --dice, else the scenario's list.
func (o *runOptions) replayRolls(s *scenario.Scenario) []int {
	if o.diceSet {
		return o.dice
	}
	return s.Dice
}

// emit writes the report: the working first with --explain, then the text
// or JSON, to standard output or atomically to --output.
func emit(c *cli.Context, o *runOptions, out *fileio.Batch, steps []combat.Step, summary any, text func(*bytes.Buffer) error, partial bool, trials uint64) error {
	var buf bytes.Buffer
	if o.explain && o.format == "text" {
		if err := reports.WriteExplain(&buf, steps); err != nil {
			return err
		}
	}
	var err error
	if o.format == "json" {
		err = reports.WriteJSON(&buf, summary)
	} else {
		err = text(&buf)
	}
	if err != nil {
		return err
	}
	if err := finish(c, out, buf.Bytes()); err != nil {
		return err
	}
	if partial {
		return fmt.Errorf("%w after %d trials; the partial results were reported", errInterrupted, trials)
	}
	return nil
}
