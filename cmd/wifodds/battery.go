package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/battery"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fileio"
	"github.com/wifodds/wifodds/internal/yamlx"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/shard"
)

func batteryCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringSliceFlag{Name: "variant", Aliases: []string{"v"}, Usage: "a variant: `NAME=OVERRIDES` (repeat; the first is the baseline)"},
		&cli.BoolFlag{Name: "generate", Usage: "the one FILE is a template: make a scenario of every combination of the --axis values"},
		&cli.StringSliceFlag{Name: "axis", Usage: "with --generate: `KEY=VALUES`, e.g. attack=4..40, terrain=clear,forest,mountain (repeat)"},
		&cli.StringFlag{Name: "shard", Usage: "run shard `I/N` of the battery (I from 1) and write its part for wifodds merge"},
		&cli.BoolFlag{Name: "shard-from-zero", Usage: "--shard's I counts from 0 (a Kubernetes Indexed Job's JOB_COMPLETION_INDEX)"},
		&cli.StringFlag{Name: "name", Usage: "the battery's name in reports (default: the first argument's)"},
	}
	flags = append(flags, variantEngineFlags()...)
	return command("battery", "run many scenarios under several variants and report what moves", "DIR|GLOB|FILE...",
		"Runs every scenario under every --variant (the override syntax of compare), exact where the dice tree is within\n"+
			"--budget and Monte Carlo with common random numbers otherwise, and reports each metric's difference from the\n"+
			"first variant, largest first, with how many scenarios move by more than 1, 5 and 10 points.\n"+
			"--shard I/N runs one slice and writes a part; wifodds merge PARTS... writes the report (docs/battery.md).\n\n"+
			"Examples:\n"+
			"   wifodds battery --generate examples/wild-results-3to1.yaml --axis attack=4..40 --axis terrain=clear,forest,mountain \\\n"+
			"       -v std=crt=standard -v 2d6=crt=2d6 --html battery.html\n"+
			"   wifodds battery 'scenarios/*.yaml' -v std=crt=standard -v 2d6=crt=2d6 --shard 2/4 -o part2.json\n"+
			"   wifodds merge part*.json --html battery.html",
		append(append(flags, reportFlags()...), samplingFlags()...), batteryAction)
}

func mergeCommand() *cli.Command {
	return command("merge", "merge the parts of a sharded battery (or Monte Carlo run) into its report", "PARTS...",
		"Checks that the parts are every shard of one battery, once each (the same hash of every scenario, table,\n"+
			"variant, seed and trial count), that none was edited (each part's digest) and that every figure is in range,\n"+
			"and writes the report the one-process battery writes. Parts of a sharded run (wifodds run --mc --shard I/N)\n"+
			fmt.Sprintf("merge into the report wifodds run writes. A battery part is at most %d MiB, a run part %d MiB.\n\n",
				battery.MaxPartSize>>20, shard.MaxRunPartSize>>20)+
			"Examples:\n   wifodds merge part1.json part2.json part3.json --html battery.html\n"+
			"   wifodds merge run-part*.json -f json",
		reportFlags(), mergeAction)
}

func batteryAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return usagef("battery takes scenario files, folders or globs (or with --generate one template)")
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
		return usagef("give at least one --variant NAME=OVERRIDES, e.g. -v std=crt=standard -v alt=crt=2d6")
	}
	shard, err := parseShard(c.String("shard"), c.Bool("shard-from-zero"))
	if err != nil {
		return err
	}
	if shard.Count > 0 && (c.IsSet("format") || c.IsSet("html")) {
		return usagef("--shard writes a part for wifodds merge; give the formats and --html to merge")
	}
	name := batteryName(c)
	items, inputs, err := batteryItems(c)
	if err != nil {
		return err
	}
	out, err := prepareOutputs(c, inputs, "output", "html")
	if err != nil {
		return err
	}
	req, done := smp.request(c, engine)
	req.ExactProgress, req.Sample.Progress = nil, nil // the bar counts scenarios
	bar := newProgress(c.App.ErrWriter, smp.quiet, "scenarios")
	cfg := battery.Config{Variants: specs, Request: req, Independent: c.Bool("independent"), Open: batteryTable,
		Air: openAir, Progress: bar.update}
	results, hash, err := battery.Run(c.Context, items, cfg, shard)
	bar.finish()
	done()
	var ve *analysis.VariantError
	switch {
	case err != nil && c.Context.Err() != nil:
		return stopped(err)
	case errors.As(err, &ve):
		return usageError{err}
	case err != nil:
		return err
	}
	if shard.Count > 0 {
		return writePart(c, out, name, hash, cfg, shard, len(items), results)
	}
	return writeBattery(c, out, format, battery.NewReport(name, hash, results))
}

// batteryName is --name, else the first argument's name.
func batteryName(c *cli.Context) string {
	if name := c.String("name"); name != "" {
		return name
	}
	return strings.TrimSuffix(filepath.Base(c.Args().First()), filepath.Ext(c.Args().First()))
}

// writePart writes a shard's part for wifodds merge.
func writePart(c *cli.Context, out *fileio.Batch, name, hash string, cfg battery.Config, shard battery.Shard, scenarios int, results []battery.Result) error {
	part, err := battery.NewPart(name, hash, cfg, shard, scenarios, results)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := reports.WriteJSON(&buf, part); err != nil {
		return err
	}
	return finish(c, out, buf.Bytes())
}

// parseShard reads --shard I/N, I from 1 (or from 0).
func parseShard(spec string, fromZero bool) (battery.Shard, error) {
	if spec == "" {
		if fromZero {
			return battery.Shard{}, usagef("--shard-from-zero needs --shard I/N")
		}
		return battery.Shard{}, nil
	}
	a, b, ok := strings.Cut(spec, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if fromZero {
		i++
	}
	if !ok || err1 != nil || err2 != nil || n < 1 || n > battery.MaxShards || i < 1 || i > n {
		return battery.Shard{}, usagef("--shard %q: want I/N with 1 <= I <= N, e.g. 2/4", spec)
	}
	return battery.Shard{Index: i, Count: n}, nil
}

// batteryItems loads the battery's scenarios: the files, folders and globs
// given, in order (a folder's and a glob's files sorted), or the scenarios
// --generate makes from one template. It returns the files read, as inputs.
func batteryItems(c *cli.Context) ([]battery.Item, []string, error) {
	return loadBattery(c, c.Args().Slice(), c.Bool("generate"))
}

// loadBattery is batteryItems for the files args (with generate, the one
// template), so commands that take the battery by flag share it.
func loadBattery(c *cli.Context, args []string, generate bool) ([]battery.Item, []string, error) {
	if generate {
		return generatedItems(c, args)
	}
	if len(c.StringSlice("axis")) > 0 {
		return nil, nil, usagef("--axis needs --generate")
	}
	files, err := scenarioFiles(args)
	if err != nil {
		return nil, nil, err
	}
	return fileItems(files)
}

// generatedItems are the scenarios --generate makes of one template under
// the --axis values.
func generatedItems(c *cli.Context, args []string) ([]battery.Item, []string, error) {
	if len(args) != 1 {
		return nil, nil, usagef("--generate takes one template file, got %d arguments", len(args))
	}
	var axes []battery.Axis
	for _, spec := range c.StringSlice("axis") {
		a, err := battery.ParseAxis(spec)
		if err != nil {
			return nil, nil, usagef("--axis: %v", err)
		}
		for _, b := range axes {
			if b.Key == a.Key {
				return nil, nil, usagef("--axis %s: the axis %s is given twice; give each key once", spec, a.Key)
			}
		}
		axes = append(axes, a)
	}
	if len(axes) == 0 {
		return nil, nil, usagef("--generate needs at least one --axis KEY=VALUES")
	}
	file := args[0]
	t, err := loadScenario(file, "battery")
	if err != nil {
		return nil, nil, err
	}
	air, err := openAir(t)
	if err != nil {
		return nil, nil, err
	}
	items, notes, err := battery.Generate(t, axes, func(ref string) (*crt.Table, error) { return openCRT(t, ref, false) }, air)
	for _, n := range notes {
		fmt.Fprintf(c.App.ErrWriter, "wifodds: %s\n", reports.Sanitise(n))
	}
	return items, inputFiles(file, t), err
}

// scenarioFiles expands the arguments: files, folders (their .yaml
// files) and globs.
func scenarioFiles(args []string) ([]string, error) {
	var files []string
	for _, arg := range args {
		switch st, err := os.Stat(arg); {
		case err == nil && st.IsDir():
			found, _ := filepath.Glob(filepath.Join(arg, "*.yaml"))
			if len(found) == 0 {
				return nil, fmt.Errorf("%s: no .yaml files in the folder", arg)
			}
			files = append(files, found...)
		case err == nil:
			files = append(files, arg)
		default:
			found, gerr := filepath.Glob(arg)
			if gerr != nil || len(found) == 0 {
				return nil, fmt.Errorf("%s: no such file, folder or matching files", arg)
			}
			sort.Strings(found)
			files = append(files, found...)
		}
	}
	return files, nil
}

// fileItems loads the scenario files of a battery, each with its air
// tables' text in its source (the battery's hash).
func fileItems(files []string) ([]battery.Item, []string, error) {
	var items []battery.Item
	var inputs []string
	for _, f := range files {
		data, err := fileio.ReadFile(f, yamlx.MaxSize)
		if err != nil {
			return nil, nil, fmt.Errorf("scenario: %w", err)
		}
		s, err := scenario.Parse(f, data)
		if err != nil {
			return nil, nil, fmt.Errorf("scenario: %w", err)
		}
		switch {
		case s.Kind == scenario.Bombardment:
			return nil, nil, fmt.Errorf("%s: a bombardment; a battery compares land combats, invasions and paradrops (name the files, or a glob that leaves it out)", f)
		case s.IsPlan():
			return nil, nil, fmt.Errorf("%s: a plan file; a battery compares single combats (name the files, or a glob that leaves it out)", f)
		}
		src := data
		if p, ok := s.AirTablesFile(); ok {
			air, err := fileio.ReadFile(p, yamlx.MaxSize)
			if err != nil {
				return nil, nil, err
			}
			src = append(append([]byte{}, data...), air...)
		}
		items = append(items, battery.Item{Name: s.Name, Scenario: s, Source: src})
		inputs = append(inputs, inputFiles(f, s)...)
	}
	return items, inputs, nil
}

// batteryTable opens a variant's table and returns its content for the
// battery's hash.
func batteryTable(s *scenario.Scenario, ref string) (*crt.Table, []byte, error) {
	t, err := openCRT(s, ref, false)
	if err != nil {
		return nil, nil, err
	}
	if name, ok := crt.BuiltinName(ref); ok {
		src, err := crt.BuiltinSource(name)
		return t, src, err
	}
	path := ref
	if ref == s.CRT {
		path = scenario.ResolvePath(s.File, ref)
	}
	src, err := fileio.ReadFile(path, yamlx.MaxSize)
	return t, src, err
}

func mergeAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return usagef("merge takes the part files of a battery")
	}
	format, err := parseFormat(c, "text", "json", "csv", "markdown")
	if err != nil {
		return err
	}
	out, err := prepareOutputs(c, c.Args().Slice(), "output", "html")
	if err != nil {
		return err
	}
	files := c.Args().Slice()
	for i, f := range files {
		if slices.Contains(files[:i], f) {
			return usagef("%s is given twice", f)
		}
	}
	if kind, err := partFormat(files[0]); err != nil {
		return err
	} else if kind == shard.RunPartFormat {
		return mergeRuns(c, format, out, files)
	}
	parts := map[string]*battery.Part{}
	for _, f := range files {
		p, err := readPart(f, maxBatteryPart, battery.ReadPart)
		if err != nil {
			return err
		}
		parts[f] = p
	}
	r, err := battery.Merge(parts)
	if err != nil {
		return err
	}
	return writeBattery(c, out, format, r)
}

// writeBattery renders the report and the HTML page, all or none.
func writeBattery(c *cli.Context, out *fileio.Batch, format string, r *battery.Report) error {
	return writeTables(c, out, format, r, tableWriters{
		text:     func(w io.Writer) error { return reports.WriteBatteryText(w, r) },
		csv:      func(w io.Writer) error { return reports.WriteBatteryCSV(w, r) },
		markdown: func(w io.Writer) error { return reports.WriteBatteryMarkdown(w, r) },
		html:     func(w io.Writer) error { return reports.WriteBatteryHTML(w, r) },
	}, nil)
}
