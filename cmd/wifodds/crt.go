package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/reports"
)

func crtCommand() *cli.Command {
	return &cli.Command{
		Name:  "crt",
		Usage: "show, check or export combat results tables",
		Subcommands: []*cli.Command{
			command("show", "print a table with the provenance of every row", "NAME|FILE", "", nil, crtShow),
			command("validate", "check a CRT data file; errors name the file, line, table, row and column", "FILE", "", nil, crtValidate),
			command("export", "print a built-in table's data file, a starting point for your own", "NAME", "", nil, crtExport),
			crtWeightsCommand(),
			crtDesignCommand(),
		},
	}
}

func crtShow(c *cli.Context) error {
	ref, err := oneArg(c, "a table name (standard, 2d6) or a CRT file")
	if err != nil {
		return err
	}
	t, err := crt.Open(ref, "")
	if err != nil {
		return err
	}
	return reports.WriteCRT(c.App.Writer, t)
}

func crtValidate(c *cli.Context) error {
	path, err := oneArg(c, "a CRT file")
	if err == nil {
		var t *crt.Table
		if t, err = crt.Load(path); err == nil {
			_, err = fmt.Fprintf(c.App.Writer, "%s: ok: table %q, %dd6, %d odds levels, rows %d..%d\n", path, t.Name, t.Dice, len(t.Levels), t.MinRow, t.MaxRow)
		}
	}
	return err
}

func crtExport(c *cli.Context) error {
	name, err := oneArg(c, "a built-in table name (standard, 2d6)")
	if err == nil {
		var src []byte
		if src, err = crt.BuiltinSource(name); err == nil {
			_, err = c.App.Writer.Write(src)
		}
	}
	return err
}

func oneArg(c *cli.Context, what string) (string, error) {
	if c.NArg() != 1 {
		return "", usagef("%s takes one argument: %s", c.Command.FullName(), what)
	}
	return c.Args().First(), nil
}
