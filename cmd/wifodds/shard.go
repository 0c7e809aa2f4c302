package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/battery"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fileio"
	"github.com/wifodds/wifodds/internal/yamlx"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/shard"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// runShard runs shard I/N of a Monte Carlo run and writes its part: the
// raw tally and what the merge needs to finish the one-process summary.
func runShard(c *cli.Context, o *runOptions, s *scenario.Scenario, shard sim.Shard) error {
	switch {
	case o.engine != analysis.MonteCarlo:
		return usagef("--shard splits a Monte Carlo run: add --mc (an exact answer needs no sharding)")
	case o.precision > 0:
		return usagef("--precision decides when a whole run stops; it cannot be sharded")
	case c.IsSet("format"):
		return usagef("--shard writes a part for wifodds merge; give the format to merge")
	}
	out, err := prepareOutputs(c, inputFiles(o.file, s, o.crt), "output")
	if err != nil {
		return err
	}
	p, err := newRunPart(o, s, shard)
	if err != nil {
		return err
	}
	bar := newProgress(c.App.ErrWriter, o.quiet, "trials")
	cfg := sim.Config{Trials: o.trials, Seed: o.seed, Workers: o.workers, Shard: shard, Progress: bar.update}
	var run sim.Run
	if s.Kind == scenario.Bombardment {
		run, err = sampleRaidShard(c, o, s, p, cfg)
	} else {
		run, err = sampleLandShard(c, o, s, p, cfg)
	}
	if err != nil {
		return err
	}
	bar.finish()
	if run.Partial {
		return fmt.Errorf("%w: a part must be whole; nothing was written", errInterrupted)
	}
	p.ShardTrials, p.Elapsed = run.Trials, run.Elapsed
	p.Seal()
	var buf bytes.Buffer
	if err := reports.WriteJSON(&buf, p); err != nil {
		return err
	}
	return finish(c, out, buf.Bytes())
}

// newRunPart is a part's header: the run it belongs to, with the
// scenario's and its air tables' text, so the merge needs no file.
func newRunPart(o *runOptions, s *scenario.Scenario, sh sim.Shard) (*shard.RunPart, error) {
	p := &shard.RunPart{Format: shard.RunPartFormat, Shard: int(sh.Index), Shards: int(sh.Count), File: o.file,
		Scenario: string(s.Source), Trials: o.trials, Seed: o.seed, Raids: o.raids, Workers: o.workers, Explain: o.explain, Replay: o.replayRolls(s)}
	if path, ok := s.AirTablesFile(); ok {
		src, err := fileio.ReadFile(path, yamlx.MaxSize)
		if err != nil {
			return nil, err
		}
		p.AirSource = string(src)
	}
	return p, nil
}

// sampleRaidShard samples a bombardment's shard into the part: a raid's
// counts, or a campaign's keyed states.
func sampleRaidShard(c *cli.Context, o *runOptions, s *scenario.Scenario, p *shard.RunPart, cfg sim.Config) (sim.Run, error) {
	air, err := openAir(s)
	if err != nil {
		return sim.Run{}, err
	}
	r, err := combat.CompileRaid(s, air)
	if err != nil {
		return sim.Run{}, err
	}
	if o.raids > 1 {
		keys, run, err := sim.SampleKeys(c.Context, r.Campaign(o.raids), cfg)
		p.Keys = map[string]uint64{}
		for k, v := range keys {
			p.Keys[strconv.FormatUint(k, 10)] = v
		}
		return run, err
	}
	t, run, err := sim.Sample(c.Context, r, cfg)
	if err == nil {
		p.Counts = t.Counts
	}
	return run, err
}

// sampleLandShard samples a land combat's shard into the part, with its
// table's text when the table is a file.
func sampleLandShard(c *cli.Context, o *runOptions, s *scenario.Scenario, p *shard.RunPart, cfg sim.Config) (sim.Run, error) {
	cb, err := compileCombat(s, o.crt, false)
	if err != nil {
		return sim.Run{}, err
	}
	p.CRT = s.CRT
	if _, builtin := crt.BuiltinName(s.CRT); !builtin {
		path := s.CRT
		if o.crt == "" {
			path = scenario.ResolvePath(s.File, s.CRT)
		}
		src, err := fileio.ReadFile(path, yamlx.MaxSize)
		if err != nil {
			return sim.Run{}, err
		}
		p.CRTSource = string(src)
	}
	t, run, err := sim.Sample(c.Context, cb, cfg)
	if err != nil {
		return sim.Run{}, err
	}
	p.Counts = t.Counts
	return run, nil
}

// The largest part files merge reads (variables, so tests can lower them).
var (
	maxBatteryPart int64 = battery.MaxPartSize
	maxRunPart     int64 = shard.MaxRunPartSize
)

// partFormat is a part file's format field, read from its start (a part
// begins with it); "" when it does not begin so, for the reader to explain.
func partFormat(path string) (string, error) {
	f, err := fileio.Open(path, maxBatteryPart)
	if err != nil {
		return "", err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	var format string
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", nil
	}
	if t, err := dec.Token(); err != nil || t != "format" {
		return "", nil
	}
	dec.Decode(&format)
	return format, nil
}

// readPart streams the part file at path, at most limit bytes, through read.
func readPart[P any](path string, limit int64, read func(name string, r io.Reader) (P, error)) (P, error) {
	f, err := fileio.Open(path, limit)
	if err != nil {
		var none P
		return none, err
	}
	defer f.Close()
	return read(path, f)
}

// mergeRuns merges the parts of a sharded run and writes the run's report,
// as `wifodds run` would have.
func mergeRuns(c *cli.Context, format string, out *fileio.Batch, files []string) error {
	if format != "text" && format != "json" {
		return usagef("--format %s: a run's report is text or json", format)
	}
	if out.Has("html") {
		return usagef("--html: a run has no HTML page")
	}
	parts := map[string]*shard.RunPart{}
	for _, f := range files {
		p, err := readPart(f, maxRunPart, shard.ReadRunPart)
		if err != nil {
			return err
		}
		parts[f] = p
	}
	first, counts, keys, run, err := shard.MergeRuns(parts)
	if err != nil {
		return err
	}
	s, err := scenario.ParseWith(first.File, []byte(first.Scenario), scenario.ParseOptions{TablesGiven: true})
	if err != nil {
		return err
	}
	air, err := crt.BuiltinAir("strategic")
	if first.AirSource != "" {
		air, err = crt.ParseAir(filepath.Base(s.AirTables), []byte(first.AirSource))
	}
	if err != nil {
		return err
	}
	req := analysis.Request{Replay: first.Replay, Sample: sim.Config{Seed: first.Seed}}
	o := &runOptions{format: format, explain: first.Explain}
	var rep *runReport
	if s.Kind == scenario.Bombardment {
		rep, err = mergedRaid(s, air, first, files, counts, keys, run, req)
	} else {
		rep, err = mergedLand(s, air, first, files, counts, run, req)
	}
	if err != nil {
		return err
	}
	return emit(c, o, out, rep)
}

// mergedRaid finishes a bombardment's merged parts as one run's report.
func mergedRaid(s *scenario.Scenario, air *crt.AirTables, first *shard.RunPart, files []string, counts []uint64, keys map[uint64]uint64, run sim.Run, req analysis.Request) (*runReport, error) {
	r, err := combat.CompileRaid(s, air)
	if err != nil {
		return nil, err
	}
	if first.Raids == 1 && len(counts) != r.NumOutcomes() {
		return nil, tallyMismatch(files, len(counts), r.NumOutcomes())
	}
	var sum *analysis.RaidSummary
	if first.Raids > 1 {
		if err := shard.CheckCampaignKeys(r, keys, first.Raids); err != nil {
			return nil, fmt.Errorf("merge: %s: %w; the parts are damaged", strings.Join(files, ", "), err)
		}
		sum = analysis.FinishCampaign(r, keys, run, req, first.Raids)
	} else if sum, err = analysis.FinishRaid(r, &stats.Tally{Counts: counts, N: run.Trials}, run, req); err != nil {
		return nil, err
	}
	if first.Explain {
		sum.Working = combat.Lines(r.Steps)
	}
	return &runReport{r.Steps, sum, func(b *bytes.Buffer) error { return reports.WriteRaidText(b, sum) }, &sum.Run}, nil
}

// mergedLand finishes a land combat's merged parts as one run's report,
// under the table the parts carry.
func mergedLand(s *scenario.Scenario, air *crt.AirTables, first *shard.RunPart, files []string, counts []uint64, run sim.Run, req analysis.Request) (*runReport, error) {
	s.CRT = first.CRT
	table, err := crt.Builtin(first.CRT)
	if first.CRTSource != "" {
		table, err = crt.Parse(filepath.Base(first.CRT), []byte(first.CRTSource))
	}
	if err != nil {
		return nil, err
	}
	cb, err := combat.CompileWith(s, table, air, combat.Options{Explain: first.Explain})
	if err != nil {
		return nil, err
	}
	if len(counts) != cb.NumOutcomes() {
		return nil, tallyMismatch(files, len(counts), cb.NumOutcomes())
	}
	sum, err := analysis.FinishCombat(cb, &stats.Tally{Counts: counts, N: run.Trials}, run, req, nil)
	if err != nil {
		return nil, err
	}
	if first.Explain {
		sum.Working = combat.Lines(cb.Steps)
	}
	return &runReport{cb.Steps, sum, func(b *bytes.Buffer) error { return reports.WriteText(b, sum) }, &sum.Run}, nil
}

// tallyMismatch is a run's parts counting outcomes the scenario they carry
// does not have.
func tallyMismatch(files []string, got, want int) error {
	return fmt.Errorf("merge: %s: the parts count %d outcomes, but their scenario has %d; they are damaged", strings.Join(files, ", "), got, want)
}
