package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/plan"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

func planCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "target", Usage: "the P(hex taken) wanted, in (0, 1] (a front: the expected hexes taken); overrides plan.target"},
		&cli.StringFlag{Name: "max-forces", Value: "2M", Usage: "most distinct force states (one hex) or assignments (a front) to search, checked against memory before any is made"},
		&cli.StringFlag{Name: "chart", Usage: "write the frontier chart to `FILE` (.png or .svg)"},
	}
	return command("plan", "which units to send: the cheapest force for the odds you want, on one hex or a whole front", "FILE",
		"A plan file is a scenario whose attacker lists the units it may add under available (and support under\n"+
			"support_available), with a plan block: cost, target, max_units, crts. Every force is weighed exactly\n"+
			"(Monte Carlo only for a combat over --budget) and the report gives the frontier of P(hex taken) against\n"+
			"cost, the cheapest force reaching the target, and what adding or dropping one unit does.\n"+
			"A front lists targets, and each unit the targets it can_attack.\n\n"+
			"Examples:\n"+
			"   wifodds plan examples/plan-one-hex.yaml\n"+
			"   wifodds plan examples/plan-front.yaml --format json\n"+
			"   wifodds plan examples/plan-one-hex.yaml --target 0.9 --chart frontier.png --html plan.html\n\n"+
			"The scenario format: docs/scenario-format.md (Plans); how the planner searches: docs/planner.md.",
		append(append(flags, reportFlags()...), samplingFlags()...), planAction)
}

func planAction(c *cli.Context) error {
	file, err := oneFile(c)
	if err != nil {
		return err
	}
	format, err := parseFormat(c, "text", "json", "csv", "markdown")
	if err != nil {
		return err
	}
	smp, err := parseSampling(c)
	if err != nil {
		return err
	}
	maxForces, err := sim.ParseCount(c.String("max-forces"), "forces")
	if err != nil {
		return usagef("--max-forces: %v", err)
	}
	var target float64
	if t := c.String("target"); t != "" {
		if target, err = strconv.ParseFloat(t, 64); err != nil || target <= 0 || target > 1000 {
			return usagef("--target %q: want a chance in (0, 1], e.g. 0.75 (a front: expected hexes taken)", t)
		}
	}
	s, err := scenario.Load(file)
	if err != nil {
		return err
	}
	if !s.IsPlan() {
		return fmt.Errorf("%s: nothing to plan: list the units the attack may add under attacker.available (docs/scenario-format.md, Plans); to weigh one force, run wifodds run %s", file, file)
	}
	if target > 1 && len(s.Targets) == 0 {
		return usagef("--target %v: a chance is at most 1", target)
	}
	names := s.Plan.CRTs
	if len(names) == 0 {
		names = []string{s.CRT}
	}
	var tables []plan.Table
	for i, n := range names {
		var t *crt.Table
		if len(s.Plan.CRTs) == 0 {
			t, err = openCRT(s, n, false)
		} else if t, err = crt.Open(n, filepath.Dir(s.File)); err != nil {
			err = fmt.Errorf("%s: plan.crts: %w", s.Plan.CRTPos[i], err)
		}
		if err != nil {
			return err
		}
		tables = append(tables, plan.Table{Name: n, Table: t})
	}
	air, err := openAir(s)
	if err != nil {
		return err
	}
	out, err := prepareOutputs(c, inputFiles(file, s, tableFiles(s)...), "output", "html", "chart")
	if err != nil {
		return err
	}
	bar := newProgress(c.App.ErrWriter, smp.quiet, "forces")
	req, done := smp.request(c, 0)
	res, err := plan.Plan(c.Context, s, plan.Config{Tables: tables, Air: air, Budget: smp.budget, Sample: req.Sample,
		MaxForces: float64(maxForces), Target: target, Progress: bar.update})
	bar.finish()
	done()
	switch {
	case err != nil && c.Context.Err() != nil:
		return stopped(err)
	case errors.Is(err, plan.ErrTooLarge):
		return err
	case err != nil:
		return err
	}
	ch, err := reports.PlanChart(res.TablePlan)
	if err != nil {
		return err
	}
	return writeTables(c, out, format, res, tableWriters{
		text:     func(w io.Writer) error { return reports.WritePlanText(w, s.Name, res) },
		csv:      func(w io.Writer) error { return reports.WritePlanCSV(w, res) },
		markdown: func(w io.Writer) error { return reports.WritePlanMarkdown(w, s.Name, res) },
		html:     func(w io.Writer) error { return reports.WritePlanHTML(w, s.Name, res, string(s.Source), ch) },
	}, map[string]reports.Chart{"chart": ch})
}

// tableFiles are the table files a plan names in plan.crts, taken from the
// scenario's folder.
func tableFiles(s *scenario.Scenario) []string {
	var out []string
	for _, n := range s.Plan.CRTs {
		if _, builtin := crt.BuiltinName(n); !builtin {
			out = append(out, scenario.ResolvePath(s.File, n))
		}
	}
	return out
}
