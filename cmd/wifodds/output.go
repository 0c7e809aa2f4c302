package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fileio"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
)

// prepareOutputs checks a command's output flags before any work (chart
// flags end in .png or .svg; every output's folder exists; none is a
// folder, an input or another output; a pipe has a reader) and returns the
// batch that writes them all or none. --output - is standard output, as
// no --output is.
func prepareOutputs(c *cli.Context, inputs []string, flags ...string) (*fileio.Batch, error) {
	var targets []fileio.Target
	for _, f := range flags {
		p := c.String(f)
		if p == "" || f == "output" && p == stdoutPath {
			continue
		}
		if p == stdoutPath {
			return nil, usagef("--%s -: standard output takes the report; give --%s a file (or a pipe such as /dev/fd/N)", f, f)
		}
		if isChartFlag(f) && chartFormat(p) == "" {
			return nil, usagef("--%s %q: the file must end in .png or .svg", f, p)
		}
		targets = append(targets, fileio.Target{Name: f, Path: p})
	}
	b, err := fileio.NewBatch(inputs, targets...)
	if err != nil {
		return nil, usageError{err}
	}
	return b, nil
}

// stdoutPath is the --output that means standard output.
const stdoutPath = "-"

func isChartFlag(f string) bool { return strings.Contains(f, "chart") || f == "heatmap" }

// inputFiles lists the files a scenario reads: the scenario itself and any
// table files it names, and table files named on the command line.
func inputFiles(file string, s *scenario.Scenario, crts ...string) []string {
	in := []string{file}
	if s != nil {
		if _, builtin := crt.BuiltinName(s.CRT); s.CRT != "" && !builtin {
			in = append(in, scenario.ResolvePath(file, s.CRT))
		}
		if p, ok := s.AirTablesFile(); ok {
			in = append(in, p)
		}
	}
	for _, c := range crts {
		if _, builtin := crt.BuiltinName(c); c != "" && !builtin {
			in = append(in, c)
		}
	}
	return in
}

// setChart renders a chart into the batch under its flag, when asked for.
func setChart(b *fileio.Batch, c *cli.Context, flag string, ch reports.Chart) error {
	if !b.Has(flag) {
		return nil
	}
	var buf bytes.Buffer
	if err := ch.Save(&buf, chartFormat(c.String(flag))); err != nil {
		return err
	}
	b.Set(flag, buf.Bytes())
	return nil
}

// finish writes the report to --output with every other output of the
// batch, all or none, or else writes the other outputs and then the report
// to standard output.
func finish(c *cli.Context, b *fileio.Batch, report []byte) error {
	// A signal while the outputs are written stops a write to a pipe that
	// nothing reads. One that came before wound a run down to report what
	// it had: that report is written, and the next signal, which the
	// process no longer catches (main), ends it.
	ctx := c.Context
	if ctx.Err() != nil {
		ctx = context.Background()
	}
	var err error
	if b.Has("output") {
		b.Set("output", report)
		err = b.Commit(ctx)
	} else if err = b.Commit(ctx); err == nil {
		err = writeStdout(ctx, c.App.Writer, report)
	}
	if errors.Is(err, fileio.ErrStopped) {
		// Stopped by the signal: the command was interrupted (exit 130).
		return fmt.Errorf("%w: %w", errInterrupted, err)
	}
	return err
}

// writeStdout writes the report to standard output until ctx is cancelled.
// A pipe whose reader does not read (wifodds run | sleep 1000) blocks the
// write in the kernel, where no deadline reaches it; on a signal the
// command gives up waiting, and the write is dropped with the process.
func writeStdout(ctx context.Context, w io.Writer, report []byte) error {
	if ctx.Done() == nil {
		_, err := w.Write(report)
		return err
	}
	done := make(chan error, 1)
	go func() {
		_, err := w.Write(report)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		select {
		case err := <-done: // written as the signal came
			return err
		default:
			return fmt.Errorf("standard output: %w: nothing was reading it (%v)", fileio.ErrStopped, context.Cause(ctx))
		}
	}
}

// openAir loads the air tables a scenario names: the built-in strategic
// tables, or its file.
func openAir(s *scenario.Scenario) (*crt.AirTables, error) {
	p, ok := s.AirTablesFile()
	if !ok {
		return crt.BuiltinAir("strategic")
	}
	t, err := crt.LoadAir(p)
	if err != nil {
		return nil, fmt.Errorf("%s: air_tables: %w", s.AirTablesPos, err)
	}
	return t, nil
}

// openCRT opens a table by name or path. The scenario's own table is
// taken from the scenario's folder and its errors name the scenario line;
// one from the command line (--crt, a variant, a sweep's list) is taken
// from the working folder, and with flag set its errors name --crt.
func openCRT(s *scenario.Scenario, ref string, flag bool) (*crt.Table, error) {
	dir, where := "", ""
	switch {
	case flag:
		where = "--crt: "
	case ref == s.CRT:
		dir, where = filepath.Dir(s.File), s.CRTPos+": crt: "
	}
	t, err := crt.Open(strings.TrimSpace(ref), dir)
	if err != nil {
		return nil, fmt.Errorf("%s%w", where, err)
	}
	return t, nil
}

// tableWriters write one report (a comparison or a sweep) in each format.
type tableWriters struct{ text, csv, markdown, html func(io.Writer) error }

// writeTables renders v's report in its format (JSON directly), the charts
// asked for (by flag) and the HTML page, and writes them all or none.
func writeTables(c *cli.Context, out *fileio.Batch, format string, v any, w tableWriters, charts map[string]reports.Chart) error {
	var buf bytes.Buffer
	var err error
	switch format {
	case "json":
		err = reports.WriteJSON(&buf, v)
	case "csv":
		err = w.csv(&buf)
	case "markdown":
		err = w.markdown(&buf)
	default:
		err = w.text(&buf)
	}
	if err != nil {
		return err
	}
	for flag, ch := range charts {
		if err := setChart(out, c, flag, ch); err != nil {
			return err
		}
	}
	if out.Has("html") {
		var page bytes.Buffer
		if err := w.html(&page); err != nil {
			return err
		}
		out.Set("html", page.Bytes())
	}
	return finish(c, out, buf.Bytes())
}

// chartFormat is a chart file's format by its extension, or "".
func chartFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return "png"
	case ".svg":
		return "svg"
	}
	return ""
}

// emit writes the report: the working first with --explain, then the text
// or JSON, to standard output or atomically to --output.
func emit(c *cli.Context, o *runOptions, out *fileio.Batch, rep *runReport) error {
	var buf bytes.Buffer
	if o.explain && o.format == "text" && rep.steps != nil { // an operation writes each combat's working itself
		if err := reports.WriteExplain(&buf, rep.steps); err != nil {
			return err
		}
	}
	var err error
	if o.format == "json" {
		err = reports.WriteJSON(&buf, rep.summary)
	} else {
		err = rep.text(&buf)
	}
	if err != nil {
		return err
	}
	if err := finish(c, out, buf.Bytes()); err != nil {
		return err
	}
	if rep.run.Partial {
		return fmt.Errorf("%w after %s trials; the partial results were reported", errInterrupted, reports.Thousands(rep.run.Trials))
	}
	return nil
}
