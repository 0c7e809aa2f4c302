package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fileio"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
)

// sweepOptions are a sweep's validated flags.
type sweepOptions struct {
	file, format string
	axis         analysis.Axis
	spec         string // the range as given
	totals       analysis.Range
	mods         []int
	budget       int
	target       float64 // 0: none
}

func parseSweep(c *cli.Context) (*sweepOptions, error) {
	file, err := oneFile(c)
	if err != nil {
		return nil, err
	}
	o := &sweepOptions{file: file, axis: analysis.Attack, spec: c.String("attack")}
	if o.budget, err = parseBudget(c); err != nil {
		return nil, err
	}
	if o.format, err = parseFormat(c, "text", "json", "csv", "markdown"); err != nil {
		return nil, err
	}
	if c.IsSet("defence") {
		if c.IsSet("attack") {
			return nil, usagef("sweep one total: --attack or --defence")
		}
		o.axis, o.spec = analysis.Defence, c.String("defence")
	}
	if o.spec == "" {
		return nil, usagef("give --attack LO..HI or --defence LO..HI")
	}
	if o.totals, err = parseRange(string(o.axis), o.spec); err != nil {
		return nil, err
	}
	if r := o.totals; r.Lo < 0 || r.Hi > analysis.MaxSweepTotal || r.Hi-r.Lo >= analysis.MaxSweepSteps {
		return nil, usagef("--%s %s: totals from 0 to %d, at most %d steps", o.axis, o.spec, analysis.MaxSweepTotal, analysis.MaxSweepSteps)
	}
	if m := c.String("modifier"); m != "" {
		mr, err := parseRange("modifier", m)
		if err != nil {
			return nil, err
		}
		if mr.Lo < -crt.MaxModifier || mr.Hi > crt.MaxModifier {
			return nil, usagef("--modifier %s: within -%d..%d", m, crt.MaxModifier, crt.MaxModifier)
		}
		for x := mr.Lo; x <= mr.Hi; x++ {
			o.mods = append(o.mods, x)
		}
	}
	if c.IsSet("target") {
		if o.target = c.Float64("target"); !(o.target > 0 && o.target <= 1) {
			return nil, usagef("--target %v: want a probability above 0 and at most 1, e.g. 0.75", o.target)
		}
	}
	if c.String("heatmap") != "" && len(o.mods) < 2 {
		return nil, usagef("--heatmap needs --modifier LO..HI with more than one value")
	}
	return o, nil
}

func parseRange(flag, s string) (analysis.Range, error) {
	r, err := analysis.ParseRange(s)
	if err != nil {
		return r, usagef("--%s %q: %v", flag, s, err)
	}
	return r, nil
}

func sweepAction(c *cli.Context) error {
	o, err := parseSweep(c)
	if err != nil {
		return err
	}
	s, err := loadScenario(o.file, "sweep")
	if err != nil {
		return err
	}
	var names []string
	if v := c.String("crt"); v != "" {
		names = strings.Split(v, ",")
		for i := range names {
			names[i] = strings.TrimSpace(names[i])
			if slices.Contains(names[:i], names[i]) {
				return usagef("--crt %q: %s is named twice", v, names[i])
			}
		}
	}
	out, err := prepareOutputs(c, inputFiles(o.file, s, names...), "output", "html", "chart", "heatmap")
	if err != nil {
		return err
	}
	bar := newProgress(c.App.ErrWriter, c.Bool("quiet"), "steps")
	sw, err := answer.Sweep(c.Context, input(s, ""), answer.SweepFlags{Axis: o.axis, Totals: o.totals, Modifiers: o.mods, CRTs: names, Cells: c.StringSlice("cell"),
		Budget: o.budget, Target: o.target, Progress: bar.update})
	bar.finish()
	var none *answer.NoStepError
	var cell *answer.CellEditError
	switch {
	case err != nil && c.Context.Err() != nil:
		return stopped(err)
	case errors.As(err, &none):
		return fmt.Errorf("%s: no step of %s is at or above what the units already bring: %s", o.file, o.spec, strings.Join(none.Notes, "; "))
	case errors.As(err, &cell):
		return usagef("--cell: %v", cell.Err)
	case err != nil:
		return err
	}
	return writeSweep(c, out, o.format, s, sw)
}

// writeSweep renders the report, the charts and the HTML page and writes
// them all or none.
func writeSweep(c *cli.Context, out *fileio.Batch, format string, s *scenario.Scenario, sw *analysis.Sweep) error {
	curve, err := reports.OddsCurveChart(sw)
	if err != nil {
		return err
	}
	charts := map[string]reports.Chart{"chart": curve}
	page := []reports.Chart{curve}
	if len(sw.Modifiers) > 1 {
		h, err := reports.HeatMapChart(sw)
		if err != nil {
			return err
		}
		charts["heatmap"] = h
		page = append(page, h)
	}
	return writeTables(c, out, format, sw, tableWriters{
		text:     func(w io.Writer) error { return reports.WriteSweepText(w, sw) },
		csv:      func(w io.Writer) error { return reports.WriteSweepCSV(w, sw) },
		markdown: func(w io.Writer) error { return reports.WriteSweepMarkdown(w, sw) },
		html:     func(w io.Writer) error { return reports.WriteSweepHTML(w, sw, string(s.Source), page) },
	}, charts)
}

func sweepCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "attack", Usage: "sweep the attack total over `LO..HI`"},
		&cli.StringFlag{Name: "defence", Aliases: []string{"defense"}, Usage: "sweep the defence total over `LO..HI`"},
		&cli.StringFlag{Name: "modifier", Usage: "also sweep the die-roll modifier over `LO..HI` (for the heat map)"},
		&cli.StringFlag{Name: "crt", Usage: "comma-separated tables, each once, e.g. standard,2d6 (default: the scenario's)"},
		&cli.StringSliceFlag{Name: "cell", Usage: "also sweep each table with its cell `TABLE/ODDS/ROLL:RESULT` edited (repeat; docs/crtlab.md)"},
		budgetFlag("most dice paths exact enumeration may walk per step"),
		&cli.StringFlag{Name: "chart", Usage: "write the P(hex taken) curve chart to `FILE` (.png or .svg)"},
		&cli.StringFlag{Name: "heatmap", Usage: "write the P(hex taken) heat map over total and modifier (a panel per CRT) to `FILE` (.png or .svg)"},
		&cli.Float64Flag{Name: "target", Usage: "report the smallest total at which P(hex taken) reaches `P` (0 < P <= 1) under each CRT"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
	}
	return command("sweep", "vary the attack (or defence) total and the modifier, and see where the odds break", "FILE",
		"Sets the attacking (or defending) side's total to each value of the range by adjusting its ground support,\n"+
			"computes every step exactly under each --crt, and marks where the odds level changes.\n\n"+
			"Examples:\n"+
			"   wifodds sweep examples/port-moresby-invasion.yaml --attack 8..40 --crt standard,2d6 --chart curve.png\n"+
			"   wifodds sweep examples/wild-results-3to1.yaml --attack 8..20 --modifier -2..2 --heatmap heat.png\n\n"+
			"The scenario format: docs/scenario-format.md; the rules: docs/rules.md.",
		append(flags, reportFlags()...), sweepAction)
}
