package main

import (
	"bytes"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
)

// runRaid runs a bombardment: one raid exactly or by sampling, or a
// campaign of raids by sampling.
func runRaid(c *cli.Context, o *runOptions, s *scenario.Scenario, req analysis.Request) (*runReport, error) {
	tables, err := openAir(s)
	if err != nil {
		return nil, err
	}
	raid, err := combat.CompileRaid(s, tables)
	if err != nil {
		return nil, err
	}
	sum, err := analysis.RunRaid(c.Context, raid, req, o.raids)
	if err != nil {
		return nil, err
	}
	if o.explain {
		sum.Working = combat.Lines(raid.Steps)
	}
	return &runReport{raid.Steps, sum, func(b *bytes.Buffer) error { return reports.WriteRaidText(b, sum) }, &sum.Run}, nil
}
