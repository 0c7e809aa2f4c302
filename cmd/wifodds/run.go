package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

type runOptions struct {
	sampling
	file      string
	format    string
	engine    analysis.Engine
	maxTrials uint64
	precision float64
	dice      []int
	diceSet   bool
	crt       string
	explain   bool
	raids     int
}

func parseRunOptions(c *cli.Context) (*runOptions, error) {
	file, err := oneFile(c)
	if err != nil {
		return nil, err
	}
	o := &runOptions{file: file, precision: c.Float64("precision"), crt: c.String("crt"), explain: c.Bool("explain"), raids: c.Int("raids")}
	if o.format, err = parseFormat(c, "text", "json"); err != nil {
		return nil, err
	}
	if o.sampling, err = parseSampling(c); err != nil {
		return nil, err
	}
	if o.engine, err = engineFlags(c); err != nil {
		return nil, err
	}
	if o.maxTrials, err = parseCount(c.String("max-trials")); err != nil {
		return nil, usagef("--max-trials: %v", err)
	}
	if c.IsSet("precision") && (o.precision <= 0 || o.precision >= 1 || math.IsNaN(o.precision)) {
		return nil, usagef("--precision %v: want a half-width between 0 and 1, e.g. 0.001", o.precision)
	}
	if o.engine == analysis.Exact && c.IsSet("precision") {
		return nil, usagef("--precision sets how long Monte Carlo samples; --exact needs no precision (drop one of them)")
	}
	if o.raids < 1 || o.raids > combat.MaxRaids {
		return nil, usagef("--raids %d: want 1 to %d", o.raids, combat.MaxRaids)
	}
	if c.IsSet("dice") {
		o.diceSet = true
		if o.dice, err = parseDice(c.String("dice")); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// engineFlags reads how to compute: exact enumeration when the dice tree is
// within --budget and Monte Carlo otherwise, unless --exact or --mc forces
// one (--auto, the default, is accepted by run).
func engineFlags(c *cli.Context) (analysis.Engine, error) {
	var set []string
	for _, f := range []string{"exact", "mc", "auto"} {
		if c.Bool(f) {
			set = append(set, "--"+f)
		}
	}
	if len(set) > 1 {
		return 0, usagef("choose one of %s", orList(set))
	}
	switch {
	case c.Bool("exact"):
		return analysis.Exact, nil
	case c.Bool("mc"):
		return analysis.MonteCarlo, nil
	}
	return analysis.Auto, nil
}

// parseDice reads --dice: rolls separated by commas.
func parseDice(spec string) ([]int, error) {
	rolls, err := sim.ParseRolls(spec)
	if err != nil {
		return nil, usagef("--dice %q: %v", spec, err)
	}
	return rolls, nil
}

func runAction(c *cli.Context) error {
	o, err := parseRunOptions(c)
	if err != nil {
		return err
	}
	s, err := loadScenario(o.file)
	if err == nil {
		err = o.checkKind(c, s)
	}
	if err != nil {
		return err
	}
	if spec := c.String("shard"); spec != "" {
		sh, err := parseShard(spec, false)
		if err != nil {
			return err
		}
		if o.crt != "" {
			s.CRT = o.crt
		}
		return runShard(c, o, s, sim.Shard{Index: uint64(sh.Index), Count: uint64(sh.Count)})
	}
	out, err := prepareOutputs(c, inputFiles(o.file, s, o.crt), "output")
	if err != nil {
		return err
	}
	req, done := o.request(c)
	f := answer.RunFlags{Request: req, Explain: o.explain, Cells: c.StringSlice("cell")}
	if c.IsSet("raids") {
		f.Raids = o.raids
	}
	if o.diceSet {
		f.Dice = o.dice
	}
	ans, err := answer.Run(c.Context, input(s, o.crt), f)
	done()
	if err != nil {
		return o.runError(c, s, err)
	}
	rep := &runReport{ans.Steps, ans.Value(), func(b *bytes.Buffer) error { return reports.WriteText(b, ans.Land) }, ans.Run()}
	switch {
	case ans.Raid != nil:
		rep.text = func(b *bytes.Buffer) error { return reports.WriteRaidText(b, ans.Raid) }
	case ans.Operation != nil:
		rep.text = func(b *bytes.Buffer) error { return reports.WriteOperationText(b, ans.Operation, o.explain) }
	}
	return emit(c, o, out, rep)
}

// checkKind refuses the flags that do not apply to the scenario's kind.
func (o *runOptions) checkKind(c *cli.Context, s *scenario.Scenario) error {
	switch {
	case c.IsSet("cell") && c.IsSet("shard"):
		return usagef("--cell applies to a whole run, not a --shard: write the edited table to a file and give it by --crt")
	case s.Kind == scenario.Bombardment && c.IsSet("cell"):
		return usagef("--cell edits a CRT: a bombardment reads the air tables")
	case s.IsOperation() && (o.diceSet || c.IsSet("shard")):
		return usagef("an operation is answered as a whole: --dice and --shard apply to one combat at a time")
	case s.Kind != scenario.Bombardment && c.IsSet("raids"):
		return usagef("--raids applies only to bombardments")
	case s.Kind != scenario.Bombardment:
		return nil
	case o.crt != "":
		return usagef("--crt does not apply to a bombardment; set air_tables in the scenario")
	case o.raids > 1 && o.precision > 0:
		return usagef("--precision is not supported for a campaign; give --trials")
	}
	return nil
}

// runReport is what run writes: the summary, its text form, the working
// and how the run went.
type runReport struct {
	steps   []combat.Step
	summary any
	text    func(*bytes.Buffer) error
	run     *sim.Run
}

// compileCombat opens the tables a land scenario names (or --crt) and
// compiles it.
func compileCombat(s *scenario.Scenario, crtFlag string, explain bool) (*combat.Combat, error) {
	if crtFlag != "" {
		s.CRT = crtFlag
	}
	table, err := openCRT(s, s.CRT, crtFlag != "")
	if err != nil {
		return nil, err
	}
	air, err := openAir(s)
	if err != nil {
		return nil, err
	}
	return combat.CompileWith(s, table, air, combat.Options{Explain: explain})
}

// request is the analysis request the options make, with progress bars on
// a terminal; done clears them.
func (o *runOptions) request(c *cli.Context) (analysis.Request, func()) {
	req, done := o.sampling.request(c, o.engine)
	if o.precision > 0 {
		req.Sample.Trials, req.Sample.Precision = o.maxTrials, o.precision
	}
	return req, done
}

// runError words an error of a run: an interrupted run, an exact tree over
// the budget, or a bad replayed roll with where it came from (--dice, or
// the scenario file's line).
func (o *runOptions) runError(c *cli.Context, s *scenario.Scenario, err error) error {
	var re *analysis.ReplayError
	var cell *answer.CellEditError
	switch {
	case errors.As(err, &cell):
		return usagef("--cell: %v", cell.Err)
	case errors.Is(err, analysis.ErrNoTrials):
		return fmt.Errorf("%w: %v", errInterrupted, err)
	case c.Context.Err() != nil:
		return stopped(err)
	case errors.Is(err, sim.ErrBudget):
		return fmt.Errorf("%s: %w (drop --exact to sample it, or raise --budget)", o.file, err)
	case !errors.As(err, &re):
		return err
	case o.diceSet:
		return fmt.Errorf("--dice: %w", err)
	}
	return fmt.Errorf("%s:%d: %w", o.file, s.DiceLine[re.Index], err)
}

// replayRolls are the rolls to replay: --dice, else the scenario's list.
func (o *runOptions) replayRolls(s *scenario.Scenario) []int {
	if o.diceSet {
		return o.dice
	}
	return s.Dice
}

func runCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.BoolFlag{Name: "exact", Usage: "exact enumeration only (an error when the dice tree is over --budget)"},
		&cli.BoolFlag{Name: "mc", Usage: "Monte Carlo even when an exact answer is possible"},
		&cli.BoolFlag{Name: "auto", Usage: "the default: exact when the dice tree is within --budget paths, else Monte Carlo"},
		formatFlag("text", "json"),
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE` (atomically) instead of standard output; - is standard output"},
		&cli.Float64Flag{Name: "precision", Usage: "sample until every headline 95% interval's half-width is below `E` (0 < E < 1)"},
		&cli.StringFlag{Name: "max-trials", Value: "1000000000", Usage: "with --precision, the most trials to run"},
		&cli.StringFlag{Name: "dice", Usage: "replay these rolls (e.g. 5,1) instead of the scenario's dice list"},
		&cli.StringFlag{Name: "crt", Usage: "use this table (standard, 2d6 or a file) instead of the scenario's"},
		&cli.StringSliceFlag{Name: "cell", Usage: "edit the table's cell: `TABLE/ODDS/ROLL:RESULT`, e.g. assault/3:1/4:*/1 (repeat; docs/crtlab.md)"},
		&cli.BoolFlag{Name: "explain", Usage: "show how totals, odds, modifiers and table choice were reached"},
		&cli.StringFlag{Name: "shard", Usage: "with --mc: run shard `I/N` of the trials and write its part for wifodds merge"},
		&cli.IntFlag{Name: "raids", Value: 1, Usage: fmt.Sprintf("bombardment: fly `K` raids (1-%d), carrying losses forward, and report the campaign's totals (Monte Carlo; exact with --exact)", combat.MaxRaids)},
	}
	return command("run", "compute the outcome distribution of a scenario", "FILE",
		"The answer is exact (every dice path enumerated) when the dice tree is within --budget paths, and sampled\n"+
			"(Monte Carlo) otherwise; the report says which. --exact and --mc force one. An operation file (targets,\n"+
			"each with its attacking force) gets each combat's line and the joint figures of the hexes taken.\n\n"+
			"Examples:\n"+
			"   wifodds run examples/wild-results-3to1.yaml\n"+
			"   wifodds run --explain --dice 6,6 examples/wild-results-3to1.yaml\n"+
			"   wifodds run -f json -o result.json examples/port-moresby-invasion.yaml\n"+
			"   wifodds run examples/beachhead.yaml\n\n"+
			"The scenario format: docs/scenario-format.md; the rules: docs/rules.md.",
		append(flags, samplingFlags()...), runAction)
}
