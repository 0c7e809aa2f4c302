package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fileio"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// runRaid runs a bombardment: one raid exactly or by sampling, or a
// campaign of raids by sampling.
func runRaid(c *cli.Context, o *runOptions, s *scenario.Scenario, out *fileio.Batch) error {
	if o.crt != "" {
		return usagef("--crt does not apply to a bombardment; set air_tables in the scenario")
	}
	var tables *crt.AirTables
	var err error
	if s.Raid.AirTables == "strategic" {
		tables, err = crt.BuiltinAir("strategic")
	} else {
		p := s.Raid.AirTables
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(o.file), p)
		}
		tables, err = crt.LoadAir(p)
	}
	if err != nil {
		return fmt.Errorf("%s: air_tables: %w", s.AirTablesPos, err)
	}
	raid, err := sim.CompileRaid(s, tables)
	if err != nil {
		return err
	}
	start := time.Now()
	if o.raids > 1 {
		if o.exact {
			return usagef("--exact: a campaign of %d raids is sampled; drop --exact", o.raids)
		}
		if o.precision > 0 {
			return usagef("--precision is not supported for a campaign; give --trials")
		}
		bar := newProgress(c.App.ErrWriter, o.quiet, "trials")
		keys, res, err := sim.SampleKeys(c.Context, raid.Campaign(o.raids), sim.Config{Trials: o.trials, Seed: o.seed, Workers: o.workers, Progress: bar.update})
		bar.finish()
		if err != nil {
			return err
		}
		if res.Trials == 0 {
			return fmt.Errorf("%w before the first chunk of trials finished; nothing to report", errInterrupted)
		}
		sum := sim.SummarizeCampaign(raid, keys, res.Trials, o.raids)
		sum.Sampled(o.seed, res)
		sum.Elapsed = time.Since(start).Seconds()
		if len(s.Dice) > 0 || o.diceSet {
			sum.Warnings = append(sum.Warnings, "dice are replayed for a single raid only; ignored for a campaign")
		}
		return emit(c, o, out, raid.Steps, sum, func(b *bytes.Buffer) error { return reports.WriteRaidText(b, sum) }, sum.Partial, sum.Trials)
	}
	var tally *stats.Tally
	var sampled *sim.Sampled
	paths := 0
	if o.exact || o.auto {
		w := sim.ExactRaid(raid)
		tally, paths = &stats.Tally{Weights: w}, sim.RaidPaths(raid)
	} else {
		if tally, sampled, err = sample(c, o, raid); err != nil {
			return err
		}
	}
	sum := sim.SummarizeRaid(raid, tally)
	sum.Elapsed, sum.Paths = time.Since(start).Seconds(), paths
	if sampled != nil {
		sum.Sampled(o.seed, sampled)
	} else if o.auto {
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("--auto chose exact enumeration (%d dice paths)", paths))
	}
	if rolls := o.replayRolls(s); len(rolls) > 0 {
		rp, err := sim.ReplayRaid(raid, rolls, replayStream(o))
		if err != nil {
			return replayError(o, s, err)
		}
		rp.Audit(raid, tally)
		sum.Replay = rp
	}
	if o.explain {
		sum.Working = working(raid.Steps)
	}
	return emit(c, o, out, raid.Steps, sum, func(b *bytes.Buffer) error { return reports.WriteRaidText(b, sum) }, sum.Partial, sum.Trials)
}
