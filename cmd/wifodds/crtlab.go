package main

import (
	"bytes"
	"io"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/battery"
	"github.com/wifodds/wifodds/cells"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/reports"
)

// labFlags are the CRT lab's battery flags: the scenarios by --battery,
// or generated from a template by --generate and --axis.
func labFlags(formats ...string) []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "battery", Aliases: []string{"b"}, Usage: "the battery's scenarios: `DIR|GLOB|FILE` (repeat)"},
		&cli.StringFlag{Name: "generate", Usage: "make the battery from the template `FILE` and the --axis values"},
		&cli.StringSliceFlag{Name: "axis", Usage: "with --generate: `KEY=VALUES`, e.g. attack=4..40, terrain=clear,forest,mountain (repeat)"},
		formatFlag(formats...),
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE`"},
	}
}

func crtWeightsCommand() *cli.Command {
	flags := append(labFlags("text", "json", "csv"), &cli.StringFlag{Name: "heatmap", Usage: "also draw the weights over the grid to `FILE` (.png or .svg)"})
	return command("weights", "how often a battery's rolls read each cell of a table, and what editing a cell changes", "TABLE",
		"Compiles every scenario of the battery on TABLE (a built-in name or a CRT file; the scenarios' own crt is\n"+
			"replaced) and reports, for every cell, the share of rolls that read it and the exact change of each\n"+
			"headline figure if that cell alone read another result the table uses, per scenario and summed\n"+
			"(docs/crtlab.md).\n\n"+
			"Examples:\n"+
			"   wifodds crt weights standard --battery examples/wild-results-3to1.yaml --heatmap weights.png\n"+
			"   wifodds crt weights 2d6 --generate examples/wild-results-3to1.yaml --axis attack=4..40 \\\n"+
			"       --axis terrain=clear,forest,mountain -f csv -o weights.csv",
		flags, crtWeights)
}

// labBattery opens the table and compiles the battery's scenarios on it.
func labBattery(c *cli.Context) (*crt.Table, []*cells.Scenario, []string, error) {
	ref, err := oneArg(c, "a table name (standard, 2d6) or a CRT file")
	if err != nil {
		return nil, nil, nil, err
	}
	var items []battery.Item
	var inputs []string
	switch gen, files := c.String("generate"), c.StringSlice("battery"); {
	case gen != "" && len(files) > 0:
		return nil, nil, nil, usagef("give the battery by --battery or by --generate, not both")
	case gen != "":
		items, inputs, err = loadBattery(c, []string{gen}, true)
	case len(files) > 0:
		if len(c.StringSlice("axis")) > 0 {
			return nil, nil, nil, usagef("--axis needs --generate")
		}
		items, inputs, err = loadBattery(c, files, false)
	default:
		return nil, nil, nil, usagef("give the battery: --battery DIR|GLOB|FILE or --generate FILE --axis KEY=VALUES")
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if len(items) > cells.MaxScenarios {
		return nil, nil, nil, usagef("the battery has %d scenarios: the CRT lab takes at most %d (fewer axis values, or a smaller folder)", len(items), cells.MaxScenarios)
	}
	t, err := crt.Open(ref, "")
	if err != nil {
		return nil, nil, nil, err
	}
	if _, builtin := crt.BuiltinName(ref); !builtin {
		inputs = append(inputs, ref)
	}
	var scs []*cells.Scenario
	for _, it := range items {
		air, err := openAir(it.Scenario)
		if err != nil {
			return nil, nil, nil, err
		}
		cb, err := combat.CompileWith(it.Scenario, t, air, combat.Options{})
		if err != nil {
			return nil, nil, nil, err
		}
		s, err := cells.NewScenario(it.Name, cb)
		if err != nil {
			return nil, nil, nil, err
		}
		scs = append(scs, s)
	}
	return t, scs, inputs, nil
}

func crtWeights(c *cli.Context) error {
	format, err := parseFormat(c, "text", "json", "csv")
	if err != nil {
		return err
	}
	t, scs, inputs, err := labBattery(c)
	if err != nil {
		return err
	}
	out, err := prepareOutputs(c, inputs, "output", "heatmap")
	if err != nil {
		return err
	}
	w, err := cells.Weigh(c.Context, t, scs)
	if err != nil {
		return err
	}
	charts := map[string]reports.Chart{}
	if out.Has("heatmap") {
		ch, err := reports.CellWeightsChart(w)
		if err != nil {
			return err
		}
		charts["heatmap"] = ch
	}
	return writeTables(c, out, format, w, tableWriters{
		text: func(wr io.Writer) error { return reports.WriteCellWeightsText(wr, w) },
		csv:  func(wr io.Writer) error { return reports.WriteCellWeightsCSV(wr, w) },
	}, charts)
}

func crtDesignCommand() *cli.Command {
	flags := append(labFlags("text", "json"),
		&cli.StringSliceFlag{Name: "goal", Aliases: []string{"g"}, Usage: "a target: `FIGURE[@ODDS,TERRAIN,WEATHER](>=|<=)VALUE`, e.g. hex_taken@3:1,clear>=0.75 (repeat)"},
		&cli.BoolFlag{Name: "keep-monotone", Usage: "only edits after which no edited cell is worse for the attacker than one at lower odds or a lower roll"},
		&cli.IntFlag{Name: "max-edits", Value: 4, Usage: "try at most `N` edits"},
		&cli.IntFlag{Name: "beam", Value: 16, Usage: "past two edits, extend the `N` closest sets of each size"},
	)
	return command("design", "search for the fewest cell edits of a table that meet a battery's goals", "TABLE",
		"Weighs every candidate edit of TABLE (a cell some scenario reads, set to a result the table already uses)\n"+
			"exactly over the battery, and reports the fewest edits that meet every --goal, or the closest set found and\n"+
			"by how much it falls short. No edit, every single edit and every pair are searched whole, so an answer of up\n"+
			"to two edits is the fewest; past two a beam search extends the closest sets, and fewer edits may exist.\n"+
			"Figures: hex_taken, breakthrough, attacker_face_up, attacker_units_lost, defender_units_lost (means over the\n"+
			"scenarios selected) and att_losses_per_hex; selectors: the table's odds levels, terrains, weathers\n"+
			"(docs/crtlab.md).\n\n"+
			"Examples:\n"+
			"   wifodds crt design standard --generate examples/wild-results-3to1.yaml --axis attack=8..20 \\\n"+
			"       --axis terrain=clear,forest --goal 'hex_taken@3:1,clear>=0.75' --goal 'att_losses_per_hex<=1.2' --keep-monotone",
		flags, crtDesign)
}

func crtDesign(c *cli.Context) error {
	format, err := parseFormat(c, "text", "json")
	if err != nil {
		return err
	}
	specs := c.StringSlice("goal")
	if len(specs) == 0 {
		return usagef("give at least one --goal, e.g. --goal 'hex_taken@3:1,clear>=0.75'")
	}
	if n := c.Int("max-edits"); n < 1 || n > crt.MaxEdits {
		return usagef("--max-edits %d: want 1 to %d", n, crt.MaxEdits)
	}
	if n := c.Int("beam"); n < 1 || n > 1024 {
		return usagef("--beam %d: want 1 to 1024", n)
	}
	t, scs, inputs, err := labBattery(c)
	if err != nil {
		return err
	}
	var goals []cells.Goal
	for _, spec := range specs {
		g, err := cells.ParseGoal(spec, t, scs)
		if err != nil {
			return usageError{err}
		}
		goals = append(goals, g)
	}
	out, err := prepareOutputs(c, inputs, "output")
	if err != nil {
		return err
	}
	d, err := cells.Search(c.Context, t, scs, goals, cells.DesignOptions{KeepMonotone: c.Bool("keep-monotone"),
		MaxEdits: c.Int("max-edits"), Beam: c.Int("beam")})
	if err != nil {
		if c.Context.Err() != nil {
			return stopped(err)
		}
		return err
	}
	var buf bytes.Buffer
	if format == "json" {
		err = reports.WriteJSON(&buf, d)
	} else {
		err = reports.WriteDesignText(&buf, d, c.Args().First(), len(scs))
	}
	if err != nil {
		return err
	}
	return finish(c, out, buf.Bytes())
}
