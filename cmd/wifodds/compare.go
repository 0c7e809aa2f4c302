package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/internal/fileio"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

func compareCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringSliceFlag{Name: "variant", Aliases: []string{"v"}, Usage: "a variant: `NAME=OVERRIDES` (repeat)"},
	}
	flags = append(flags, variantEngineFlags()...)
	flags = append(flags,
		&cli.StringFlag{Name: "chart", Usage: "write the stacked result-mix chart to `FILE` (.png or .svg)"},
		&cli.StringFlag{Name: "loss-chart", Usage: "write the attacking-losses chart to `FILE` (.png or .svg)"},
	)
	return command("compare", "compare variants of a scenario (CRTs, options, modifiers) side by side", "FILE",
		"Each --variant NAME=OVERRIDES changes the scenario, e.g. --variant std='crt=standard' --variant alt='crt=2d6'\n"+
			"--variant wild='crt=2d6,options+=wild-results'. Overrides: crt=, table=, modifier=, options+=, options-=, options=a+b.\n"+
			"The first variant is the baseline every other is compared with; with a single variant, the scenario as written is.\n"+
			"Exact when every variant's dice tree is within --budget, else Monte Carlo with common random numbers.\n\n"+
			"Examples:\n"+
			"   wifodds compare examples/wild-results-3to1.yaml --variant std=crt=standard --variant alt=crt=2d6\n"+
			"   wifodds compare examples/wild-results-3to1.yaml --variant tame='options-=wild-results' --html cmp.html\n\n"+
			"The scenario format: docs/scenario-format.md; the rules: docs/rules.md.",
		append(append(flags, reportFlags()...), samplingFlags()...), compareAction)
}

func compareAction(c *cli.Context) error {
	file, err := oneFile(c)
	if err != nil {
		return err
	}
	format, err := parseFormat(c, "text", "json", "csv", "markdown")
	if err != nil {
		return err
	}
	engine, err := engineFlags(c)
	if err != nil {
		return err
	}
	smp, err := parseSampling(c)
	if err != nil {
		return err
	}
	specs := c.StringSlice("variant")
	if len(specs) == 0 {
		return usagef("give at least one --variant NAME=OVERRIDES, e.g. --variant alt='crt=2d6'")
	}
	s, err := loadScenario(file, "compare")
	if err != nil {
		return err
	}
	out, err := prepareOutputs(c, inputFiles(file, s, variantTables(s, specs)...), "output", "html", "chart", "loss-chart")
	if err != nil {
		return err
	}
	req, done := smp.request(c, engine)
	cmp, err := answer.Compare(c.Context, input(s, ""), answer.CompareFlags{Request: req, Variants: specs, Independent: c.Bool("independent")})
	done()
	var ve *analysis.VariantError
	switch {
	case errors.As(err, &ve):
		return usageError{ve}
	case errors.Is(err, analysis.ErrNoTrials):
		return fmt.Errorf("%w: %v", errInterrupted, err)
	case err != nil && c.Context.Err() != nil:
		return stopped(err)
	case errors.Is(err, sim.ErrBudget):
		return fmt.Errorf("%s: %w (try --mc)", file, err)
	case err != nil:
		return err
	}
	if err := writeComparison(c, out, format, s, cmp); err != nil {
		return err
	}
	if cmp.Partial {
		return fmt.Errorf("%w after %s trials; the partial results were reported", errInterrupted, reports.Thousands(cmp.Trials))
	}
	return nil
}

// variantTables are the tables the variants name, so that no output
// replaces one; a variant that cannot be read names none here, and the
// front door says what is wrong with it.
func variantTables(s *scenario.Scenario, specs []string) []string {
	var refs []string
	for _, spec := range specs {
		_, over, _ := strings.Cut(spec, "=")
		if v, err := scenario.Override(s, over); err == nil {
			refs = append(refs, v.CRT)
		}
	}
	return refs
}

// writeComparison renders the report, the charts and the HTML page and
// writes them all or none.
func writeComparison(c *cli.Context, out *fileio.Batch, format string, s *scenario.Scenario, cmp *analysis.Comparison) error {
	mix, err := reports.ResultMixChart(cmp)
	if err != nil {
		return err
	}
	loss, err := reports.LossChart(cmp)
	if err != nil {
		return err
	}
	charts := []reports.Chart{mix, loss}
	return writeTables(c, out, format, cmp, tableWriters{
		text:     func(w io.Writer) error { return reports.WriteCompareText(w, cmp) },
		csv:      func(w io.Writer) error { return reports.WriteCompareCSV(w, cmp) },
		markdown: func(w io.Writer) error { return reports.WriteCompareMarkdown(w, cmp) },
		html:     func(w io.Writer) error { return reports.WriteCompareHTML(w, cmp, string(s.Source), charts) },
	}, map[string]reports.Chart{"chart": charts[0], "loss-chart": charts[1]})
}
