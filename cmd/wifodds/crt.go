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
			{
				Name:         "show",
				Usage:        "print a table with the provenance of every row",
				ArgsUsage:    "NAME|FILE",
				OnUsageError: onUsageError,
				Action: func(c *cli.Context) error {
					ref, err := oneArg(c, "a table name (standard, 2d6) or a CRT file")
					if err != nil {
						return err
					}
					t, err := crt.Open(ref, "")
					if err != nil {
						return err
					}
					return reports.WriteCRT(c.App.Writer, t)
				},
			},
			{
				Name:         "validate",
				Usage:        "check a CRT data file; errors name the file, line, table, row and column",
				ArgsUsage:    "FILE",
				OnUsageError: onUsageError,
				Action: func(c *cli.Context) error {
					path, err := oneArg(c, "a CRT file")
					if err != nil {
						return err
					}
					t, err := crt.Load(path)
					if err != nil {
						return err
					}
					fmt.Fprintf(c.App.Writer, "%s: ok: table %q, %dd6, %d odds levels, rows %d..%d\n", path, t.Name, t.Dice, len(t.Levels), t.MinRow, t.MaxRow)
					return nil
				},
			},
			{
				Name:         "export",
				Usage:        "print a built-in table's data file, a starting point for your own",
				ArgsUsage:    "NAME",
				OnUsageError: onUsageError,
				Action: func(c *cli.Context) error {
					name, err := oneArg(c, "a built-in table name (standard, 2d6)")
					if err != nil {
						return err
					}
					src, err := crt.BuiltinSource(name)
					if err != nil {
						return err
					}
					_, err = c.App.Writer.Write(src)
					return err
				},
			},
		},
	}
}

func oneArg(c *cli.Context, what string) (string, error) {
	if c.NArg() != 1 {
		return "", usagef("%s takes one argument: %s", c.Command.FullName(), what)
	}
	return c.Args().First(), nil
}
