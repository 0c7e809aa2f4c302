package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

func planCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "target", Usage: "the P(hex taken) wanted, in (0, 1] (a front: the expected hexes taken); overrides plan.target"},
		&cli.StringFlag{Name: "max-forces", Value: "2M", Usage: "most distinct states of forces (one hex) or assignments (a front) to search, checked against memory before any is made"},
		&cli.StringFlag{Name: "chart", Usage: "write the frontier chart to `FILE` (.png or .svg)"},
		&cli.BoolFlag{Name: "all", Usage: "text: the whole frontier and what one more unit buys after the recommendation (JSON, CSV and Markdown always hold everything)"},
	}
	return command("plan", "which units to send: the cheapest force for the odds you want, on one hex or a whole front", "FILE",
		"A plan file is a scenario whose attacker lists the units it may add under available (and support under\n"+
			"support_available), with a plan block: cost, target, max_units, crts. Every force is weighed exactly\n"+
			"(Monte Carlo only for a combat over --budget). The text answer is short: the cheapest force reaching the\n"+
			"target and its figures; --all adds the frontier of P(hex taken) against cost and what adding or dropping\n"+
			"one unit does (JSON, CSV and Markdown always hold everything).\n"+
			"A front lists targets, each unit the targets it can_attack and each support item (aircraft, ships, HQs)\n"+
			"the targets it can_support: each goes to one target. A defender's plan (plan: {side: defender})\n"+
			"lists reserves under defender.available: the answer is the cheapest reserves holding the hex with the\n"+
			"target chance against the attacker's best response from attacker.available (or its fixed attacker.units).\n\n"+
			"Examples:\n"+
			"   wifodds plan examples/plan-one-hex.yaml\n"+
			"   wifodds plan examples/plan-front.yaml --all\n"+
			"   wifodds plan examples/plan-front.yaml --format json\n"+
			"   wifodds plan examples/plan-one-hex.yaml --target 0.9 --chart frontier.png --html plan.html\n"+
			"   wifodds plan examples/hold-smolensk.yaml\n\n"+
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
	if c.Bool("all") && format != "text" {
		return usagef("--all: for the text answer only; --format %s always holds everything", format)
	}
	smp, err := parseSampling(c)
	if err != nil {
		return err
	}
	maxForces, err := sim.ParseCount(c.String("max-forces"), "forces")
	if err != nil {
		return usagef("--max-forces: %v", err)
	}
	s, err := scenario.Load(file)
	if err != nil {
		return err
	}
	if !s.IsPlan() {
		return fmt.Errorf("%s: nothing to plan: list the units the attack may add under attacker.available (docs/scenario-format.md, Plans); to weigh one force, run wifodds run %s", file, file)
	}
	target, err := planTarget(c, s)
	if err != nil {
		return err
	}
	if s.Plan.Side == scenario.DefenderSide {
		return defendAction(c, file, s, format, smp, target, float64(maxForces))
	}
	out, err := prepareOutputs(c, inputFiles(file, s, tableFiles(s)...), "output", "html", "chart")
	if err != nil {
		return err
	}
	res, err := askPlan(c, s, smp, "forces", answer.PlanFlags{Target: target, MaxForces: float64(maxForces)}, answer.Plan)
	if err != nil {
		return err
	}
	ch, err := reports.PlanChart(res.TablePlan)
	if err != nil {
		return err
	}
	return writeTables(c, out, format, res, tableWriters{
		text: func(w io.Writer) error {
			if c.Bool("all") {
				return reports.WritePlanText(w, s.Name, res)
			}
			return reports.WritePlanShort(w, s.Name, res)
		},
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

// planTarget reads --target (0 when not given): a chance in (0, 1], or on
// a front with the expected objective the expected hexes taken, at most
// its number of targets.
func planTarget(c *cli.Context, s *scenario.Scenario) (float64, error) {
	t := c.String("target")
	if t == "" {
		return 0, nil
	}
	// NaN passes every comparison's negation: ask for what is wanted.
	target, err := strconv.ParseFloat(t, 64)
	n := len(s.Targets)
	switch {
	case err != nil || !(target > 0 && target <= 1000):
		return 0, usagef("--target %q: want a chance in (0, 1], e.g. 0.75 (a front: expected hexes taken)", t)
	case target > 1 && (n == 0 || s.Plan.IsChance()):
		return 0, usagef("--target %v: a chance is at most 1", target)
	case target > float64(n) && n > 0:
		return 0, usagef("--target %v: the front has %d targets, so at most %d hexes can be taken", target, n, n)
	}
	return target, nil
}

// defendAction answers a defender's plan: the cheapest reserves holding
// the hex against the attacker's best response.
func defendAction(c *cli.Context, file string, s *scenario.Scenario, format string, smp sampling, target, maxForces float64) error {
	if c.IsSet("chart") {
		return usagef("--chart: a defender's plan has no chart yet; its frontier is in the report (--format json, csv or markdown)")
	}
	out, err := prepareOutputs(c, inputFiles(file, s, tableFiles(s)...), "output", "html")
	if err != nil {
		return err
	}
	res, err := askPlan(c, s, smp, "reserve sets", answer.PlanFlags{Target: target, MaxForces: maxForces}, answer.Defend)
	if err != nil {
		return err
	}
	return writeTables(c, out, format, res, tableWriters{
		text:     func(w io.Writer) error { return reports.WriteDefenceText(w, s.Name, res, c.Bool("all")) },
		csv:      func(w io.Writer) error { return reports.WriteDefenceCSV(w, res) },
		markdown: func(w io.Writer) error { return reports.WriteDefenceMarkdown(w, s.Name, res) },
		html:     func(w io.Writer) error { return reports.WriteDefenceHTML(w, s.Name, res, string(s.Source)) },
	}, nil)
}

// askPlan asks the front door for a plan's answer (the attacker's or the
// defender's), with the sampling flags and a progress bar counting what.
func askPlan[T any](c *cli.Context, s *scenario.Scenario, smp sampling, what string, f answer.PlanFlags,
	ask func(context.Context, answer.Input, answer.PlanFlags) (T, error)) (T, error) {
	bar := newProgress(c.App.ErrWriter, smp.quiet, what)
	req, done := smp.request(c, 0)
	f.Budget, f.Sample, f.Progress = smp.budget, req.Sample, bar.update
	// --workers: the planner weighs (and checks its bound) on as many.
	f.Workers = req.Sample.Workers
	res, err := ask(c.Context, input(s, ""), f)
	bar.finish()
	done()
	if err != nil && c.Context.Err() != nil {
		err = stopped(err)
	}
	return res, err
}
