package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/internal/yamlx"
	"github.com/wifodds/wifodds/reports"
)

// Exit statuses.
const (
	exitOK          = 0
	exitError       = 1   // bad input or a failed run
	exitUsage       = 2   // a wrong flag or argument
	exitInterrupted = 130 // stopped by a signal; partial results were reported
)

// usageError marks errors in how the command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// errInterrupted marks a run cut short by a signal.
var errInterrupted = errors.New("interrupted")

// stopped words an exact computation cut short by a signal: unlike Monte
// Carlo it has no partial answer to report.
func stopped(err error) error {
	return fmt.Errorf("%w (%v); nothing to report", errInterrupted, err)
}

// run is the whole command, testable in-process: it never calls os.Exit.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	args, err := interspersed(app, args)
	if err == nil {
		err = app.RunContext(ctx, args)
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(stderr, "wifodds:", reports.Sanitise(err.Error()))
		return exitInterrupted
	}
	// Messages quote what the user gave (names, keys, values): shown
	// escaped, a control sequence in a scenario cannot reach the terminal.
	fmt.Fprintln(stderr, "wifodds:", reports.Sanitise(strings.TrimSpace(err.Error())))
	var u usageError
	if errors.As(err, &u) {
		fmt.Fprintln(stderr, "run 'wifodds help' or 'wifodds help COMMAND' for usage")
		return exitUsage
	}
	return exitError
}

func newApp(stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:      "wifodds",
		Usage:     "World in Flames combat odds: what a combat will do before the dice roll",
		Writer:    stdout,
		ErrWriter: stderr,
		// Errors are printed once, by run, with the right exit status.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return usageError{err}
		},
		Version:              version(),
		EnableBashCompletion: true,
		Commands:             []*cli.Command{runCommand(), compareCommand(), sweepCommand(), planCommand(), batteryCommand(), mergeCommand(), serveCommand(), siteCommand(), crtCommand(), benchCommand(), completionCommand()},
		// Variants are comma-separated overrides: a --variant is one value.
		DisableSliceFlagSeparator: true,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("unknown command %q (commands: run, compare, sweep, plan, battery, merge, serve, site, crt, bench, completion)", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
	}
}

// onUsageError turns a command's flag parsing errors into usage errors,
// suggesting the flag a typo was probably meant to be.
func onUsageError(c *cli.Context, err error, _ bool) error {
	const undefined = "flag provided but not defined: -"
	if msg := err.Error(); strings.HasPrefix(msg, undefined) && c.Command != nil {
		var names []string
		for _, f := range c.Command.Flags {
			names = append(names, f.Names()...)
		}
		if s := yamlx.Closest(strings.TrimPrefix(msg, undefined), names); s != "" {
			return usageError{fmt.Errorf("%s (did you mean --%s?)", msg, s)}
		}
	}
	return usageError{err}
}

// interspersed moves a command's flags before its arguments, so
// "wifodds run FILE --exact" works as well as "wifodds run --exact FILE"
// (urfave/cli stops reading flags at the first argument).
func interspersed(app *cli.App, args []string) ([]string, error) {
	if len(args) > 0 && args[len(args)-1] == "--generate-bash-completion" {
		return args, nil // shell completion: urfave/cli reads the last argument
	}
	cmd, i := findCommand(app, args)
	if cmd == nil || len(cmd.Subcommands) > 0 {
		return args, nil
	}
	takesValue, single, numeric := flagKinds(cmd)
	out := append([]string{}, args[:i]...)
	var positional []string
	given := map[string]string{} // a single-valued flag already given: how
	for j := i; j < len(args); j++ {
		a := args[j]
		switch {
		case a == "--":
			positional = append(positional, args[j+1:]...)
			j = len(args)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			out = append(out, a)
			name, value, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			as := a
			if !strings.Contains(a, "=") && takesValue[name] && j+1 < len(args) {
				as += " " + args[j+1]
				value = args[j+1]
				out = append(out, args[j+1])
				j++
			}
			if numeric[name] && !isDecimal(value) {
				return nil, usagef("%s: write numbers in decimal (as the scenario's numbers and --seed are read)", as)
			}
			// A flag that keeps one value, given twice, would silently
			// drop the first (sweep --attack 12..13 --attack 20..21
			// swept 20..21 only).
			if first, ok := single[name]; ok {
				if prev, twice := given[first]; twice {
					return nil, usagef("--%s is given twice (%s, then %s); give it once", first, prev, as)
				}
				given[first] = as
			}
		default:
			positional = append(positional, a)
		}
	}
	out = append(out, "--")
	return append(out, positional...), nil
}

// flagKinds sorts a command's flags, by each of their names: those that
// take a value (all but booleans); those that keep one value (neither
// boolean nor a slice), mapped to their first name; and those Go's flag
// package reads as a number.
func flagKinds(cmd *cli.Command) (takesValue map[string]bool, single map[string]string, numeric map[string]bool) {
	takesValue, single, numeric = map[string]bool{}, map[string]string{}, map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		sf, isSlice := f.(cli.DocGenerationSliceFlag)
		var isNumber bool
		switch f.(type) {
		case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag, *cli.Float64Flag:
			isNumber = true
		}
		for _, n := range f.Names() {
			takesValue[n], numeric[n] = !isBool, isNumber
			if !isBool && !(isSlice && sf.IsSliceFlag()) {
				single[n] = f.Names()[0]
			}
		}
	}
	return takesValue, single, numeric
}

// isDecimal reports whether a number flag's value is written in decimal.
// Go's flag package reads 0x10, 0o10 and 010 (as 8) for a whole number and
// 0x1p-1 (0.5) for a fraction, none of which a player means.
func isDecimal(v string) bool {
	digits := strings.TrimLeft(strings.TrimSpace(v), "+-")
	if strings.ContainsAny(digits, "xXoObBpP_") {
		return false
	}
	// A leading zero before another digit is octal to the flag package.
	return !(len(digits) > 1 && digits[0] == '0' && digits[1] >= '0' && digits[1] <= '9')
}

// findCommand finds the (sub)command args name after the program name,
// and where its own arguments start.
func findCommand(app *cli.App, args []string) (*cli.Command, int) {
	cmds := app.Commands
	var cmd *cli.Command
	i := 1
	for ; i < len(args); i++ {
		var next *cli.Command
		for _, c := range cmds {
			if c.HasName(args[i]) {
				next = c
			}
		}
		if next == nil {
			break
		}
		cmd, cmds = next, next.Subcommands
	}
	return cmd, i
}

// command builds a subcommand whose flag errors are usage errors with a
// suggestion.
func command(name, usage, args, description string, flags []cli.Flag, action cli.ActionFunc) *cli.Command {
	return &cli.Command{Name: name, Usage: usage, ArgsUsage: args, Description: description,
		OnUsageError: onUsageError, Flags: flags, Action: action}
}
