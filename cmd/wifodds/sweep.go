package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

func sweepCommand() *cli.Command {
	return &cli.Command{
		Name:      "sweep",
		Usage:     "vary the attack (or defence) total and the modifier, and see where the odds break",
		ArgsUsage: "FILE",
		Description: "Sets the attacking (or defending) side's total to each value of the range by adjusting its ground support,\n" +
			"computes every step exactly under each --crt, and marks where the odds level changes.",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "attack", Usage: "sweep the attack total over `LO..HI`"},
			&cli.StringFlag{Name: "defence", Aliases: []string{"defense"}, Usage: "sweep the defence total over `LO..HI`"},
			&cli.StringFlag{Name: "modifier", Usage: "also sweep the die-roll modifier over `LO..HI` (for the heat map)"},
			&cli.StringFlag{Name: "crt", Usage: "comma-separated tables, e.g. standard,2d6 (default: the scenario's)"},
			&cli.IntFlag{Name: "budget", Value: sim.DefaultPathBudget, Usage: "most dice paths exact enumeration may walk per step"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "text, json, csv or markdown"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE`"},
			&cli.StringFlag{Name: "html", Usage: "also write a self-contained HTML page with the charts to `FILE`"},
			&cli.StringFlag{Name: "chart", Usage: "write the P(hex taken) curve chart to `FILE` (.png or .svg)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
			&cli.StringFlag{Name: "heatmap", Usage: "write the P(hex taken) heat map over total and modifier (first CRT) to `FILE` (.png or .svg)"},
		},
		Action: sweepAction,
	}
}

func parseRange(flag, s string) (analysis.Range, error) {
	a, b, ok := strings.Cut(s, "..")
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || hi < lo {
		return analysis.Range{}, usagef("--%s %q: want LO..HI with whole numbers, e.g. 2..40", flag, s)
	}
	return analysis.Range{Lo: lo, Hi: hi}, nil
}

func sweepAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("sweep takes one scenario file, got %d arguments", c.NArg())
	}
	file := c.Args().First()
	format := c.String("format")
	if format != "text" && format != "json" && format != "csv" && format != "markdown" {
		return usagef("--format %q: want text, json, csv or markdown", format)
	}
	axis, spec := "attack", c.String("attack")
	if c.IsSet("defence") {
		if c.IsSet("attack") {
			return usagef("sweep one total: --attack or --defence")
		}
		axis, spec = "defence", c.String("defence")
	}
	if spec == "" {
		return usagef("give --attack LO..HI or --defence LO..HI")
	}
	r, err := parseRange(axis, spec)
	if err != nil {
		return err
	}
	if r.Lo < 0 || r.Hi > analysis.MaxSweepTotal || r.Hi-r.Lo >= analysis.MaxSweepSteps {
		return usagef("--%s %s: totals from 0 to %d, at most %d steps", axis, spec, analysis.MaxSweepTotal, analysis.MaxSweepSteps)
	}
	if b := c.Int("budget"); b < 1 || b > sim.MaxPathBudget {
		return usagef("--budget %d: want 1 to %d paths", b, sim.MaxPathBudget)
	}
	var mods []int
	if m := c.String("modifier"); m != "" {
		mr, err := parseRange("modifier", m)
		if err != nil {
			return err
		}
		if mr.Lo < -30 || mr.Hi > 30 {
			return usagef("--modifier %s: within -30..30", m)
		}
		for x := mr.Lo; x <= mr.Hi; x++ {
			mods = append(mods, x)
		}
	}
	if c.String("heatmap") != "" && len(mods) < 2 {
		return usagef("--heatmap needs --modifier LO..HI with more than one value")
	}
	s, err := scenario.Load(file)
	if err != nil {
		return err
	}
	if s.Kind == scenario.Bombardment {
		return fmt.Errorf("%s: sweep handles land combats, invasions and paradrops", file)
	}
	names := []string{s.CRT}
	if v := c.String("crt"); v != "" {
		names = strings.Split(v, ",")
	}
	out, err := prepareOutputs(c, inputFiles(file, s, names...), "output", "html", "chart", "heatmap")
	if err != nil {
		return err
	}
	air, err := openAir(s)
	if err != nil {
		return err
	}
	var tables []*crt.Table
	for _, n := range names {
		dir := filepath.Dir(file)
		if n != s.CRT {
			dir = ""
		}
		t, err := crt.Open(strings.TrimSpace(n), dir)
		if err != nil {
			return err
		}
		tables = append(tables, t)
	}
	bar := newProgress(c.App.ErrWriter, c.Bool("quiet"), "steps")
	sw, err := analysis.RunSweep(c.Context, s, tables, air, axis, r, mods, c.Int("budget"), bar.update)
	bar.finish()
	if err != nil && c.Context.Err() != nil {
		return stopped(err)
	}
	if err != nil {
		return err
	}
	if len(sw.Steps) == 0 {
		return fmt.Errorf("%s: no step of %s is at or above what the units already bring: %s", file, spec, strings.Join(sw.Notes, "; "))
	}
	buf, err := render(format, sw,
		func(w io.Writer) error { return reports.WriteSweepText(w, sw) },
		func(w io.Writer) error { return reports.WriteSweepCSV(w, sw) },
		func(w io.Writer) error { return reports.WriteSweepMarkdown(w, sw) })
	if err != nil {
		return err
	}
	curve, err := reports.OddsCurveChart(sw)
	if err != nil {
		return err
	}
	var heat *reports.Chart
	if len(sw.Modifiers) > 1 {
		h, err := reports.HeatMapChart(sw, sw.CRTs[0])
		if err != nil {
			return err
		}
		heat = &reports.Chart{Title: "P(hex taken) over total and modifier", Plot: h}
	}
	if err := setChart(out, c, "chart", curve); err != nil {
		return err
	}
	if heat != nil {
		if err := setChart(out, c, "heatmap", heat.Plot); err != nil {
			return err
		}
	}
	if out.Has("html") {
		charts := []reports.Chart{{Title: "P(hex taken) by total", Plot: curve}}
		if heat != nil {
			charts = append(charts, *heat)
		}
		var page bytes.Buffer
		if err := reports.WriteSweepHTML(&page, sw, string(s.Source), charts); err != nil {
			return err
		}
		out.Set("html", page.Bytes())
	}
	return finish(c, out, buf.Bytes())
}
