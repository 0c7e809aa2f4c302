package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "compare variants of a scenario (CRTs, options, modifiers) side by side",
		ArgsUsage: "FILE",
		Description: "Each --variant NAME=OVERRIDES changes the scenario, e.g. --variant std='crt=standard' --variant alt='crt=2d6'\n" +
			"--variant wild='crt=2d6,options+=wild-results'. Overrides: crt=, table=, modifier=, options+=, options-=, options=a+b.\n" +
			"The first variant is the baseline every other is compared with; with a single variant, the scenario as written is.\n" +
			"Exact when every variant's dice tree is within --budget, else Monte Carlo with common random numbers.",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "variant", Aliases: []string{"v"}, Usage: "a variant: `NAME=OVERRIDES` (repeat)"},
			&cli.BoolFlag{Name: "exact", Usage: "exact enumeration only (fails if a tree is too large)"},
			&cli.BoolFlag{Name: "mc", Usage: "Monte Carlo even when exact answers are possible"},
			&cli.BoolFlag{Name: "independent", Usage: "Monte Carlo with independent streams instead of common random numbers"},
			&cli.StringFlag{Name: "trials", Aliases: []string{"n"}, Value: "1000000", Usage: "Monte Carlo trials per variant"},
			&cli.StringFlag{Name: "seed", Value: strconv.Itoa(DefaultSeed), Usage: "seed of the random streams"},
			&cli.IntFlag{Name: "workers", Aliases: []string{"w"}, Value: defaultWorkers(), Usage: "worker goroutines"},
			&cli.IntFlag{Name: "budget", Value: sim.DefaultPathBudget, Usage: "most dice paths exact enumeration may walk per variant"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "text, json, csv or markdown"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE`"},
			&cli.StringFlag{Name: "html", Usage: "also write a self-contained HTML page with the charts to `FILE`"},
			&cli.StringFlag{Name: "chart", Usage: "write the stacked result-mix chart to `FILE` (.png or .svg)"},
			&cli.StringFlag{Name: "loss-chart", Usage: "write the attacking-losses chart to `FILE` (.png or .svg)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
		},
		Action: compareAction,
	}
}

func compareAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("compare takes one scenario file, got %d arguments", c.NArg())
	}
	file := c.Args().First()
	format := c.String("format")
	if format != "text" && format != "json" && format != "csv" && format != "markdown" {
		return usagef("--format %q: want text, json, csv or markdown", format)
	}
	if c.Bool("exact") && c.Bool("mc") {
		return usagef("choose one of --exact and --mc")
	}
	trials, err := parseCount(c.String("trials"))
	if err != nil {
		return usagef("--trials: %v", err)
	}
	seed, err := strconv.ParseUint(strings.ReplaceAll(c.String("seed"), "_", ""), 0, 64)
	if err != nil {
		return usagef("--seed %q: want a whole number", c.String("seed"))
	}
	workers := c.Int("workers")
	if workers < 1 || workers > 1024 {
		return usagef("--workers %d: want 1 to 1024", workers)
	}
	if b := c.Int("budget"); b < 1 || b > sim.MaxPathBudget {
		return usagef("--budget %d: want 1 to %d paths", b, sim.MaxPathBudget)
	}
	specs := c.StringSlice("variant")
	if len(specs) == 0 {
		return usagef("give at least one --variant NAME=OVERRIDES, e.g. --variant alt='crt=2d6'")
	}
	s, err := scenario.Load(file)
	if err != nil {
		return err
	}
	if s.Kind == scenario.Bombardment {
		return fmt.Errorf("%s: compare handles land combats, invasions and paradrops; run bombardments one at a time", file)
	}
	if len(specs) == 1 {
		specs = append([]string{"scenario="}, specs...)
	}
	air, err := openAir(s)
	if err != nil {
		return err
	}
	var vs []analysis.NamedCombat
	var crts []string
	seen := map[string]bool{}
	for _, spec := range specs {
		name, over, ok := strings.Cut(spec, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return usagef("--variant %q: want NAME=OVERRIDES, e.g. alt=crt=2d6", spec)
		}
		if seen[name] {
			return usagef("--variant %q: the name %s is used twice", spec, name)
		}
		seen[name] = true
		v, err := scenario.Override(s, over)
		if err != nil {
			return usageError{fmt.Errorf("--variant %s: %w", name, err)}
		}
		dir := filepath.Dir(file)
		if v.CRT != s.CRT {
			dir = ""
		}
		t, err := crt.Open(v.CRT, dir)
		if err != nil {
			return fmt.Errorf("--variant %s: %w", name, err)
		}
		cb, err := combat.Compile(v, t, air)
		if err != nil {
			return fmt.Errorf("--variant %s: %w", name, err)
		}
		vs = append(vs, analysis.NamedCombat{Name: name, Overrides: strings.TrimSpace(over), Combat: cb})
		crts = append(crts, v.CRT)
	}
	out, err := prepareOutputs(c, inputFiles(file, s, crts...), "output", "html", "chart", "loss-chart")
	if err != nil {
		return err
	}
	budget := c.Int("budget")
	exact := !c.Bool("mc")
	if exact && !c.Bool("exact") {
		for _, v := range vs {
			n, err := sim.CountPaths(c.Context, v.Combat, budget+1)
			if err != nil {
				return stopped(err)
			}
			if n > budget {
				exact = false
			}
		}
	}
	start := time.Now()
	var cmp *analysis.Comparison
	if exact {
		cmp, err = analysis.CompareExact(c.Context, s.Name, vs, budget)
		if err != nil {
			if c.Context.Err() != nil {
				return stopped(err)
			}
			return fmt.Errorf("%s: %w (try --mc)", file, err)
		}
	} else {
		bar := newProgress(c.App.ErrWriter, c.Bool("quiet"), "trials")
		cmp, err = analysis.CompareSampled(c.Context, s.Name, vs, sim.Config{Trials: trials, Seed: seed, Workers: workers, Progress: bar.update}, !c.Bool("independent"))
		bar.finish()
		if err != nil {
			return err
		}
		if cmp.Trials == 0 {
			return fmt.Errorf("%w before the first chunk of trials finished; nothing to report", errInterrupted)
		}
	}
	cmp.Elapsed = time.Since(start).Seconds()
	buf, err := render(format, cmp,
		func(w io.Writer) error { return reports.WriteCompareText(w, cmp) },
		func(w io.Writer) error { return reports.WriteCompareCSV(w, cmp) },
		func(w io.Writer) error { return reports.WriteCompareMarkdown(w, cmp) })
	if err != nil {
		return err
	}
	mixChart, err := reports.ResultMixChart(cmp)
	if err != nil {
		return err
	}
	lossChart, err := reports.LossChart(cmp)
	if err != nil {
		return err
	}
	if err := setChart(out, c, "chart", mixChart); err != nil {
		return err
	}
	if err := setChart(out, c, "loss-chart", lossChart); err != nil {
		return err
	}
	if out.Has("html") {
		var page bytes.Buffer
		if err := reports.WriteCompareHTML(&page, cmp, string(s.Source), []reports.Chart{{Title: "Result mix", Plot: mixChart}, {Title: "Attacking units lost", Plot: lossChart}}); err != nil {
			return err
		}
		out.Set("html", page.Bytes())
	}
	if err := finish(c, out, buf.Bytes()); err != nil {
		return err
	}
	if cmp.Partial {
		return fmt.Errorf("%w after %d trials; the partial results were reported", errInterrupted, cmp.Trials)
	}
	return nil
}

// render writes a report in one of the table formats: text, json, csv or
// markdown.
func render(format string, v any, text, csv, markdown func(io.Writer) error) (*bytes.Buffer, error) {
	var buf bytes.Buffer
	var err error
	switch format {
	case "json":
		err = reports.WriteJSON(&buf, v)
	case "csv":
		err = csv(&buf)
	case "markdown":
		err = markdown(&buf)
	default:
		err = text(&buf)
	}
	return &buf, err
}

func chartFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return "png"
	case ".svg":
		return "svg"
	}
	return ""
}
