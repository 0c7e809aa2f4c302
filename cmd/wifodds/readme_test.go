package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// readmeCommands extracts every wifodds command shown in the README's sh
// blocks, joining continued lines and dropping comments.
func readmeCommands(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	in := false
	var cont string
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
			continue
		case strings.HasPrefix(line, "```"):
			in = false
			continue
		}
		if !in {
			continue
		}
		line = cont + strings.TrimSpace(line)
		cont = ""
		if strings.HasSuffix(line, "\\") {
			cont = strings.TrimSuffix(line, "\\") + " "
			continue
		}
		if i := strings.Index(line, "  #"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		for _, prefix := range []string{"go run ./cmd/wifodds ", "./wifodds "} {
			if strings.HasPrefix(line, prefix) {
				line = "wifodds " + strings.TrimPrefix(line, prefix)
			}
		}
		if strings.HasPrefix(line, "wifodds ") {
			cmds = append(cmds, line)
		}
	}
	return cmds
}

// splitArgs splits a command line as a shell would for these commands:
// spaces separate words, single quotes group, and "> FILE" redirects.
func splitArgs(line string) (args []string, redirect string) {
	var cur strings.Builder
	quoted, have := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, have = !quoted, true
		case r == ' ' && !quoted:
			if have {
				args = append(args, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		args = append(args, cur.String())
	}
	for i, a := range args {
		if a == ">" && i+1 < len(args) {
			return args[:i], args[i+1]
		}
	}
	return args, ""
}

// Every command the README shows runs and succeeds, so the documentation
// cannot drift from the tool.
func TestReadmeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every README command")
	}
	cmds := readmeCommands(t)
	if len(cmds) < 10 {
		t.Fatalf("found only %d commands in the README", len(cmds))
	}
	repo, _ := filepath.Abs("../..")
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(repo, "examples"), filepath.Join(dir, "examples")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(repo, "benchmarks"), filepath.Join(dir, "benchmarks")); err != nil {
		t.Fatal(err)
	}
	old, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(old)
	for _, line := range cmds {
		args, redirect := splitArgs(line)
		if len(args) > 1 && args[1] == "bench" {
			args = withFlag(args, "0.01", "--seconds")
		}
		if len(args) > 1 && args[1] == "run" && !strings.Contains(line, "--exact") && !strings.Contains(line, "--auto") {
			args = withFlag(args, "2e5", "-n", "--trials")
		}
		if len(args) > 1 && args[1] == "site" {
			args = append(args, "--source", repo) // the engine is built from this clone
		}
		ctx := context.Background()
		if len(args) > 1 && args[1] == "serve" {
			// The server runs until stopped: serve on a free port, open no
			// browser, and stop it as Ctrl-C would.
			args = append(slices.DeleteFunc(args, func(a string) bool { return a == "--open" }), "--listen", "127.0.0.1:0", "-q")
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, 300*time.Millisecond)
			defer cancel()
		}
		var out, errb bytes.Buffer
		code := run(ctx, args, &out, &errb)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", line, code, errb.String())
			continue
		}
		if redirect != "" {
			if err := os.WriteFile(redirect, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// withFlag gives a flag a value, in place of the one the README's line
// gives it if any: a flag given twice is refused.
func withFlag(args []string, value string, names ...string) []string {
	out := slices.Clone(args)
	for i, a := range out {
		for _, n := range names {
			switch {
			case a == n && i+1 < len(out):
				out[i+1] = value
				return out
			case strings.HasPrefix(a, n+"="):
				out[i] = n + "=" + value
				return out
			}
		}
	}
	return append(out, names[0], value)
}
