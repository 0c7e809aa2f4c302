package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBadInputCorpus runs every file of testdata/bad (a scenario, or a
// table file checked with crt validate) and checks the audit's promises
// for bad input: exit status 1 or 2, the expected message naming the file,
// line and key, no output file, and no panic. want.tsv holds each file's
// expected first line of error.
func TestBadInputCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "bad")
	f, err := os.Open(filepath.Join(dir, "want.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, msg, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("want.tsv: bad line %q", sc.Text())
		}
		want[name] = msg
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	tables, _ := filepath.Glob(filepath.Join(dir, "tables", "*.yaml"))
	if len(files)+len(tables) < 60 {
		t.Fatalf("the corpus has %d files; it should hold at least 60", len(files)+len(tables))
	}
	positioned := regexp.MustCompile(`\.yaml:\d+(:\d+)?: `)
	t.Chdir(dir)
	for _, path := range append(files, tables...) {
		name, _ := filepath.Rel(dir, path)
		t.Run(name, func(t *testing.T) {
			msg, ok := want[name]
			if !ok {
				t.Fatalf("no expected message in want.tsv")
			}
			out := filepath.Join(t.TempDir(), "report.txt")
			args := []string{"run", "--exact", "-o", out, name}
			if strings.HasPrefix(name, "tables/") {
				args = []string{"crt", "validate", name}
			}
			stdout, stderr, code := wifodds(t, args...)
			if code != exitError && code != exitUsage {
				t.Errorf("exit %d, want 1 or 2; stderr: %s", code, stderr)
			}
			first, _, _ := strings.Cut(stderr, "\n")
			if got := strings.TrimPrefix(first, "wifodds: "); got != msg {
				t.Errorf("error\n  %s\nwant\n  %s", got, msg)
			}
			if !positioned.MatchString(first) && !strings.Contains(first, "file is empty") {
				t.Errorf("the error names no line: %s", first)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("an output file was written")
			}
			if strings.Contains(stderr+stdout, "panic") || strings.Contains(stderr+stdout, "fatal error") {
				t.Errorf("crashed: %s", stderr)
			}
		})
	}
}

// Audit item 9: devices, folders and pipes are refused at once, with exit
// status 1 and a clear message.
func TestBadInputPaths(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"/dev/zero":                   "scenario: /dev/zero: not a regular file (a device)",
		"/dev/urandom":                "scenario: /dev/urandom: not a regular file (a device)",
		dir:                           "is a folder, not a file",
		fifo:                          "not a regular file (a named pipe)",
		filepath.Join(dir, "no.yaml"): "no such file or directory",
	}
	for path, want := range cases {
		start := time.Now()
		_, stderr, code := wifodds(t, "run", path)
		if code != exitError || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, %q; want exit 1 and %q", path, code, stderr, want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: took %v", path, d)
		}
	}
}

// Issue 23 item 8: plan --target NaN was ignored silently (NaN fails both
// "<= 0" and "> 1000"); NaN, infinities, zero, negatives and chances past 1
// are refused, and on a front, more hexes than it has.
func TestPlanTargetRefused(t *testing.T) {
	const want = `: want a chance in (0, 1], e.g. 0.75 (a front: expected hexes taken)`
	for _, c := range []struct{ target, file, msg string }{
		{"NaN", "plan-one-hex.yaml", `--target "NaN"` + want},
		{"nan", "plan-front.yaml", `--target "nan"` + want},
		{"Inf", "plan-one-hex.yaml", `--target "Inf"` + want},
		{"+Inf", "plan-front.yaml", `--target "+Inf"` + want},
		{"-Inf", "plan-one-hex.yaml", `--target "-Inf"` + want},
		{"0", "plan-one-hex.yaml", `--target "0"` + want},
		{"-0.5", "plan-one-hex.yaml", `--target "-0.5"` + want},
		{"1e400", "plan-one-hex.yaml", `--target "1e400"` + want},
		{"1.5", "plan-one-hex.yaml", "--target 1.5: a chance is at most 1"},
		{"1.0000001", "plan-one-hex.yaml", "--target 1.0000001: a chance is at most 1"},
		{"99", "plan-front.yaml", "--target 99: the front has 3 targets, so at most 3 hexes can be taken"},
	} {
		_, stderr, code := wifodds(t, "plan", "--target", c.target, filepath.Join("..", "..", "examples", c.file))
		if code != exitUsage || !strings.Contains(stderr, "wifodds: "+c.msg+"\n") {
			t.Errorf("--target %s on %s: exit %d, %q; want exit 2 and %q", c.target, c.file, code, stderr, c.msg)
		}
	}
}

// Issue 23 item 9: a 1 MiB scenario of distinct unknown keys took 33 s
// (each key compared with every key before it). It is refused with the
// first errors and a count of the rest; internal/yamlx bounds the work
// (TestFastParseRepeatsAreLinear counts the comparisons).
func TestManyUnknownKeysRefused(t *testing.T) {
	var b strings.Builder
	b.WriteString("kind: land\n")
	for i := 0; b.Len() < 1<<20-len("k0000000: 1\n"); i++ {
		fmt.Fprintf(&b, "k%07d: 1\n", i)
	}
	path := filepath.Join(t.TempDir(), "keys.yaml")
	os.WriteFile(path, []byte(b.String()), 0o644)
	_, stderr, code := wifodds(t, "run", path)
	if code != exitError || !strings.Contains(stderr, path+":2:1: k0000000: unknown key") || !regexp.MustCompile(`and \d{5} more errors`).MatchString(stderr) {
		t.Errorf("exit %d, %s", code, stderr)
	}
}

// Red-team findings F7 and F8: a flag that keeps one value, given twice,
// silently took the last (sweep --attack 12..13 --attack 20..21 swept
// 20..21 only); a value twice in one list made the same scenario twice,
// and a stray comma dropped a value. Each is a usage error naming it;
// flags that gather values (--variant, --axis) still repeat.
func TestRepeatedFlagsAndValuesRefused(t *testing.T) {
	land := "../../examples/wild-results-3to1.yaml"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", land, "--attack", "12..13", "--attack", "20..21"}, "--attack is given twice (--attack 12..13, then --attack 20..21)"},
		{[]string{"run", "--mc", "--seed", "1", "--seed=2", land}, "--seed is given twice (--seed 1, then --seed=2)"},
		{[]string{"run", "--crt", "2d6", "--crt", "standard", land}, "--crt is given twice"},
		{[]string{"sweep", land, "--attack", "8..9", "--crt", "standard", "--crt", "2d6"}, "--crt is given twice"},
		{[]string{"run", "--mc", "-n", "100", land, "-n", "200"}, "--trials is given twice (-n 100, then -n 200)"},
		{[]string{"run", "--mc", "-n", "100", "--trials", "200", land}, "--trials is given twice"},
		{[]string{"battery", "--generate", land, "--axis", "terrain=clear,clear", "-v", "a=crt=2d6"}, "clear is named twice"},
		{[]string{"battery", "--generate", land, "--axis", "attack=13,13", "-v", "a=crt=2d6"}, "13 is named twice"},
		{[]string{"battery", "--generate", land, "--axis", "terrain=clear,", "-v", "a=crt=2d6"}, "an empty value (a stray comma?)"},
		{[]string{"compare", land, "-v", "a=options=wild-results+wild-results"}, "option wild-results is named twice"},
		// Go's flag package read 0x1p-1 as 0.5 and 010 as 8: numbers
		// are decimal, as in a scenario and --seed.
		{[]string{"sweep", land, "--attack", "12..13", "--target", "0x1p-1"}, "--target 0x1p-1: write numbers in decimal"},
		{[]string{"run", "-w", "010", land}, "-w 010: write numbers in decimal"},
		{[]string{"run", "--raids=0x3", land}, "--raids=0x3: write numbers in decimal"},
	} {
		stdout, stderr, code := wifodds(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%q: exit %d, %q; want exit %d and %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
	if _, stderr, code := wifodds(t, "compare", "--exact", land, "-v", "a=crt=2d6", "-v", "b=crt=standard"); code != 0 {
		t.Errorf("two variants: exit %d, %s", code, stderr)
	}
}
