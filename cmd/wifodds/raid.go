package main

import (
	"bytes"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/internal/fileio"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
)

// runRaid runs a bombardment: one raid exactly or by sampling, or a
// campaign of raids by sampling.
func runRaid(c *cli.Context, o *runOptions, s *scenario.Scenario, out *fileio.Batch) error {
	if o.crt != "" {
		return usagef("--crt does not apply to a bombardment; set air_tables in the scenario")
	}
	if o.raids > 1 && o.exact {
		return usagef("--exact: a campaign of %d raids is sampled; drop --exact", o.raids)
	}
	if o.raids > 1 && o.precision > 0 {
		return usagef("--precision is not supported for a campaign; give --trials")
	}
	tables, err := openAir(s)
	if err != nil {
		return err
	}
	raid, err := combat.CompileRaid(s, tables)
	if err != nil {
		return err
	}
	req, finish := o.request(c, s)
	sum, err := analysis.RunRaid(c.Context, raid, req, o.raids)
	finish()
	if err != nil {
		return o.runError(c, s, err)
	}
	if o.explain {
		sum.Working = working(raid.Steps)
	}
	return emit(c, o, out, raid.Steps, sum, func(b *bytes.Buffer) error { return reports.WriteRaidText(b, sum) }, sum.Partial, sum.Trials)
}
