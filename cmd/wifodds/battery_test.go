package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/wifodds/wifodds/battery"
	"github.com/wifodds/wifodds/shard"
)

// batteryArgs are the arguments of a small generated battery: exact, or
// Monte Carlo with common random numbers.
func batteryArgs(mc bool) []string {
	args := []string{"battery", "-q", "--generate", "../../examples/fractional-odds-16to3.yaml", "--axis", "attack=14..22",
		"--axis", "terrain=clear,forest", "-v", "std=crt=standard", "-v", "2d6=crt=2d6"}
	if mc {
		args = append(args, "--mc", "-n", "20000", "--seed", "3", "-w", "2")
	}
	return args
}

// One process or N shard processes merged give the same report, byte for
// byte apart from timings, for an exact battery and a sampled one, in
// every format.
// shardAndMerge runs the command args as n shards, each writing its part,
// and returns what merging the parts prints in format.
func shardAndMerge(t *testing.T, args []string, n int, format string) string {
	t.Helper()
	dir := t.TempDir()
	var parts []string
	for i := 1; i <= n; i++ {
		part := filepath.Join(dir, fmt.Sprintf("part%d.json", i))
		if _, errs, code := wifodds(t, append(slices.Clone(args), "--shard", fmt.Sprintf("%d/%d", i, n), "-o", part)...); code != 0 {
			t.Fatal(errs)
		}
		parts = append(parts, part)
	}
	merged, errs, code := wifodds(t, append([]string{"merge", "-f", format}, parts...)...)
	if code != 0 {
		t.Fatal(errs)
	}
	return merged
}

func TestBatteryShardsMergeIdentically(t *testing.T) {
	for _, mc := range []bool{false, true} {
		for _, format := range []string{"json", "text", "csv"} {
			if mc && format != "json" {
				continue
			}
			one, errs, code := wifodds(t, append(batteryArgs(mc), "-f", format)...)
			if code != 0 {
				t.Fatal(errs)
			}
			for _, n := range []int{1, 2, 3, 7} {
				merged := shardAndMerge(t, batteryArgs(mc), n, format)
				if normalise(merged) != normalise(one) {
					t.Errorf("mc=%v, %s, %d shards: the merged report differs from the one-process report", mc, format, n)
				}
			}
		}
	}
}

// A Kubernetes Indexed Job counts shards from 0.
func TestBatteryShardFromZero(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	if _, errs, code := wifodds(t, append(batteryArgs(false), "--shard", "0/2", "--shard-from-zero", "-o", a)...); code != 0 {
		t.Fatal(errs)
	}
	if _, errs, code := wifodds(t, append(batteryArgs(false), "--shard", "1/2", "-o", b)...); code != 0 {
		t.Fatal(errs)
	}
	x, _ := os.ReadFile(a)
	y, _ := os.ReadFile(b)
	if string(x) != string(y) {
		t.Error("shard 0 from zero is not shard 1")
	}
}

// Merge refuses parts that are not every shard of one battery, once each.
func TestMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	part := func(name string, extra ...string) string {
		p := filepath.Join(dir, name)
		if _, errs, code := wifodds(t, append(append(batteryArgs(false), extra...), "-o", p)...); code != 0 {
			t.Fatal(errs)
		}
		return p
	}
	p1, p2, p3 := part("p1.json", "--shard", "1/3"), part("p2.json", "--shard", "2/3"), part("p3.json", "--shard", "3/3")
	other := filepath.Join(dir, "other.json")
	if _, errs, code := wifodds(t, "battery", "-q", "--generate", "../../examples/fractional-odds-16to3.yaml", "--axis", "attack=14..22",
		"--axis", "terrain=clear,mountain", "-v", "std=crt=standard", "-v", "2d6=crt=2d6", "--shard", "2/3", "-o", other); code != 0 {
		t.Fatal(errs)
	}
	seeded := filepath.Join(dir, "seeded.json")
	if _, errs, code := wifodds(t, append(batteryArgs(false), "--seed", "9", "--shard", "2/3", "-o", seeded)...); code != 0 {
		t.Fatal(errs)
	}
	trials := filepath.Join(dir, "trials.json")
	if _, errs, code := wifodds(t, append(batteryArgs(false), "-n", "5000", "--shard", "2/3", "-o", trials)...); code != 0 {
		t.Fatal(errs)
	}
	dup := filepath.Join(dir, "dup.json")
	data, _ := os.ReadFile(p2)
	os.WriteFile(dup, data, 0o644)
	trunc := filepath.Join(dir, "trunc.json")
	os.WriteFile(trunc, data[:len(data)/2], 0o644)
	fewer := filepath.Join(dir, "fewer.json")
	os.WriteFile(fewer, []byte(strings.Replace(string(data), `"index": 1,`, `"index": 99,`, 1)), 0o644)
	for _, c := range []struct {
		name  string
		parts []string
		want  string
	}{
		{"a missing shard", []string{p1, p3}, "shard(s) [2] of 3 missing"},
		{"a duplicated shard", []string{p1, p2, dup, p3}, "shard 2 of 3 twice"},
		{"different scenarios", []string{p1, other, p3}, "different batteries"},
		{"a different seed", []string{p1, seeded, p3}, "different batteries"},
		{"different trials", []string{p1, trials, p3}, "different batteries"},
		{"a truncated part", []string{p1, trunc, p3}, "truncated or damaged"},
		{"a tampered part", []string{p1, fewer, p3}, "incomplete"},
	} {
		_, errs, code := wifodds(t, append([]string{"merge"}, c.parts...)...)
		if code != exitError || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, %q; want an error containing %q", c.name, code, errs, c.want)
		}
	}
}

// A large Monte Carlo run split into shards and merged reports what the
// one-process run reports, byte for byte apart from timings: a land combat
// with replayed dice and its working, a raid and a campaign, in JSON and
// text.
func TestRunShardsMergeIdentically(t *testing.T) {
	cases := [][]string{
		{"run", "--mc", "-n", "300000", "--seed", "4", "-w", "2", "--explain", "-q", "../../examples/wild-results-3to1.yaml"},
		{"run", "--mc", "-n", "200001", "--seed", "7", "-w", "2", "-q", "../../examples/dusseldorf-bombardment.yaml"},
		{"run", "--mc", "--raids", "3", "-n", "150000", "--seed", "2", "-w", "2", "-q", "../../examples/night-raid-campaign.yaml"},
	}
	for _, args := range cases {
		for _, format := range []string{"json", "text"} {
			one, errs, code := wifodds(t, append(args, "-f", format)...)
			if code != 0 {
				t.Fatal(errs)
			}
			for _, n := range []int{1, 2, 3, 7} {
				merged := shardAndMerge(t, args, n, format)
				if normalise(merged) != normalise(one) {
					t.Errorf("%s, %s, %d shards: the merged report differs:\n%s\nwant\n%s", args[len(args)-1], format, n, merged, one)
				}
			}
		}
	}
}

// Merge refuses run parts that are not every shard of one run.
func TestRunMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "--mc", "-n", "100000", "-q", "../../examples/fractional-odds-16to3.yaml"}
	part := func(name, seed string, extra ...string) string {
		p := filepath.Join(dir, name)
		if _, errs, code := wifodds(t, append(append(args, extra...), "--seed", seed, "-o", p)...); code != 0 {
			t.Fatal(errs)
		}
		return p
	}
	p1, p2 := part("p1.json", "4", "--shard", "1/2"), part("p2.json", "4", "--shard", "2/2")
	seeded := part("seeded.json", "5", "--shard", "2/2")
	data, _ := os.ReadFile(p2)
	edited := filepath.Join(dir, "edited.json")
	os.WriteFile(edited, []byte(strings.Replace(string(data), `"trials": 100000`, `"trials": 100001`, 1)), 0o644)
	for _, c := range []struct {
		name  string
		parts []string
		want  string
	}{
		{"a missing shard", []string{p1}, "shard(s) [2] of 2 missing"},
		{"a different seed", []string{p1, seeded}, "different runs"},
		{"an edited part", []string{p1, edited}, "edited.json: its content does not match its digest"},
	} {
		_, errs, code := wifodds(t, append([]string{"merge"}, c.parts...)...)
		if code != exitError || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, %q; want %q", c.name, code, errs, c.want)
		}
	}
	if _, errs, code := wifodds(t, "run", "-n", "1000", "--shard", "1/2", "../../examples/fractional-odds-16to3.yaml"); code != exitUsage || !strings.Contains(errs, "add --mc") {
		t.Errorf("--shard without --mc: exit %d, %s", code, errs)
	}
}

// Issue 23 items 7 and 8: a key given twice on the command line is an
// error naming it, not rows printed twice or a value silently dropped.
func TestRepeatedKeysRefused(t *testing.T) {
	checkGoldens(t, []goldenCase{
		{"err-battery-axis-twice.txt", []string{"battery", "-q", "--generate", "../../examples/wild-results-3to1.yaml",
			"--axis", "attack=13..14", "--axis", "attack=20..21", "-v", "std=crt=standard"}, exitUsage},
		{"err-sweep-crt-twice.txt", []string{"sweep", "../../examples/wild-results-3to1.yaml", "--attack", "8..12", "--crt", "standard,standard"}, exitUsage},
		{"err-compare-key-twice.txt", []string{"compare", "../../examples/wild-results-3to1.yaml", "-v", "a=crt=2d6,crt=standard"}, exitUsage},
	})
}

// Issue 23 item 2: three shards of a run, one with 100000 added to its
// first count. Merge refused nothing and panicked in stats.Wilson; now the
// edit is refused by the part's digest, and with the digest recomputed by
// the tally check, naming the file either way.
func TestMergeRefusesEditedRunCounts(t *testing.T) {
	dir := t.TempDir()
	var parts []string
	for i := 1; i <= 3; i++ {
		p := filepath.Join(dir, fmt.Sprintf("p%d.json", i))
		if _, errs, code := wifodds(t, "run", "--mc", "-n", "3e5", "-q", "--shard", fmt.Sprintf("%d/3", i), "-o", p, "../../examples/wild-results-3to1.yaml"); code != 0 {
			t.Fatal(errs)
		}
		parts = append(parts, p)
	}
	data, _ := os.ReadFile(parts[1])
	var part shard.RunPart
	if err := json.Unmarshal(data, &part); err != nil {
		t.Fatal(err)
	}
	part.Counts[0] += 100000
	edited, _ := json.MarshalIndent(&part, "", "  ")
	os.WriteFile(parts[1], edited, 0o644)
	if _, errs, code := wifodds(t, append([]string{"merge"}, parts...)...); code != exitError || !strings.Contains(errs, "p2.json: its content does not match its digest") {
		t.Errorf("an edited count: exit %d, %s", code, errs)
	}
	part.Seal()
	resealed, _ := json.MarshalIndent(&part, "", "  ")
	os.WriteFile(parts[1], resealed, 0o644)
	if _, errs, code := wifodds(t, append([]string{"merge"}, parts...)...); code != exitError || !strings.Contains(errs, "p2.json: the tally counts") {
		t.Errorf("an edited count, resealed: exit %d, %s", code, errs)
	}
	// Counts that add up, but over two outcomes where the scenario has
	// more, would index past them.
	for _, p := range parts {
		data, _ := os.ReadFile(p)
		var rp shard.RunPart
		if err := json.Unmarshal(data, &rp); err != nil {
			t.Fatal(err)
		}
		rp.Counts = []uint64{rp.ShardTrials, 0}
		rp.Seal()
		short, _ := json.MarshalIndent(&rp, "", "  ")
		os.WriteFile(p, short, 0o644)
	}
	if _, errs, code := wifodds(t, append([]string{"merge"}, parts...)...); code != exitError || !strings.Contains(errs, "the parts count 2 outcomes, but their scenario has") {
		t.Errorf("too few outcomes: exit %d, %s", code, errs)
	}
}

// Red-team finding F4: a campaign's parts, one key replaced by 2^64-1 in
// each and their digests recomputed, merged into "31 factories destroyed"
// of a target's 2 and 65,535 factors bombing. The keys are now checked
// against what the campaign can reach, and nothing is written.
func TestMergeRefusesCampaignKeysPastTheScenario(t *testing.T) {
	dir := t.TempDir()
	var parts []string
	for i := 1; i <= 2; i++ {
		p := filepath.Join(dir, fmt.Sprintf("c%d.json", i))
		if _, errs, code := wifodds(t, "run", "--mc", "-n", "2e5", "--raids", "3", "-q", "--shard", fmt.Sprintf("%d/2", i), "-o", p, "../../examples/night-raid-campaign.yaml"); code != 0 {
			t.Fatal(errs)
		}
		parts = append(parts, p)
	}
	if _, errs, code := wifodds(t, append([]string{"merge"}, parts...)...); code != 0 {
		t.Fatalf("the honest parts: exit %d, %s", code, errs)
	}
	for _, p := range parts {
		data, _ := os.ReadFile(p)
		var rp shard.RunPart
		if err := json.Unmarshal(data, &rp); err != nil {
			t.Fatal(err)
		}
		for k, v := range rp.Keys { // any one key
			delete(rp.Keys, k)
			rp.Keys["18446744073709551615"] = v
			break
		}
		rp.Seal()
		forged, _ := json.MarshalIndent(&rp, "", "  ")
		os.WriteFile(p, forged, 0o644)
	}
	out := filepath.Join(dir, "report.txt")
	if _, errs, code := wifodds(t, append([]string{"merge", "-o", out}, parts...)...); code != exitError || !strings.Contains(errs, "campaign key 18446744073709551615 holds 4095 build points lost; this campaign can reach at most") {
		t.Errorf("a forged key: exit %d, %s", code, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a report was written")
	}
}

// Issue 23 item 6: a battery part edited by hand (a figure raised or made
// negative, a scenario's name, a variant's table, the method) is refused
// with the file's name, and nothing is written.
func TestMergeRefusesEditedBatteryPart(t *testing.T) {
	dir := t.TempDir()
	p1, p2 := filepath.Join(dir, "p1.json"), filepath.Join(dir, "p2.json")
	for i, p := range []string{p1, p2} {
		if _, errs, code := wifodds(t, append(batteryArgs(false), "--shard", fmt.Sprintf("%d/2", i+1), "-o", p)...); code != 0 {
			t.Fatal(errs)
		}
	}
	data, _ := os.ReadFile(p2)
	var part battery.Part
	if err := json.Unmarshal(data, &part); err != nil {
		t.Fatal(err)
	}
	num, _ := json.Marshal(part.Results[0].Variants[0].Metrics["hex_taken"].P)
	edited := filepath.Join(dir, "edited.json")
	out := filepath.Join(dir, "report.txt")
	for _, c := range [][2]string{
		{`"p": ` + string(num), `"p": 0.9666666666666667`},
		{`"p": ` + string(num), `"p": -5`},
		{`"name": "std"`, `"name": "standard"`},
		{`"crt": "2d6"`, `"crt": "standard"`},
		{`"method": "exact"`, `"method": "monte-carlo"`},
	} {
		if !strings.Contains(string(data), c[0]) {
			t.Fatalf("%q is not in the part", c[0])
		}
		os.WriteFile(edited, []byte(strings.Replace(string(data), c[0], c[1], 1)), 0o644)
		_, errs, code := wifodds(t, "merge", p1, edited, "-o", out)
		if code != exitError || !strings.Contains(errs, "edited.json: its content does not match its digest") {
			t.Errorf("%s -> %s: exit %d, %s", c[0], c[1], code, errs)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s -> %s: a report was written", c[0], c[1])
		}
	}
}

// Issue 23 item 5: merge streams its parts and refuses one over the size
// cap before reading any of it (the cap is lowered here; it is
// battery.MaxPartSize, 256 MiB, and shard.MaxRunPartSize, 16 MiB).
func TestMergeRefusesOversizedParts(t *testing.T) {
	dir := t.TempDir()
	bp, rp := filepath.Join(dir, "battery.json"), filepath.Join(dir, "run.json")
	if _, errs, code := wifodds(t, append(batteryArgs(false), "--shard", "1/1", "-o", bp)...); code != 0 {
		t.Fatal(errs)
	}
	if _, errs, code := wifodds(t, "run", "--mc", "-n", "1e4", "-q", "--shard", "1/1", "-o", rp, "../../examples/wild-results-3to1.yaml"); code != 0 {
		t.Fatal(errs)
	}
	if _, errs, code := wifodds(t, "merge", bp, rp); code != exitError || !strings.Contains(errs, "not a battery part") {
		t.Errorf("parts of two kinds: exit %d, %s", code, errs)
	}
	defer func(b, r int64) { maxBatteryPart, maxRunPart = b, r }(maxBatteryPart, maxRunPart)
	maxBatteryPart, maxRunPart = 1000, 1000
	for _, p := range []string{bp, rp} {
		if _, errs, code := wifodds(t, "merge", p); code != exitError || !strings.Contains(errs, p+": the file is larger than 1000 bytes") {
			t.Errorf("%s: exit %d, %s", p, code, errs)
		}
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := wifodds(t, "merge", fifo); code != exitError || !strings.Contains(errs, "not a regular file (a named pipe)") {
		t.Errorf("a pipe: exit %d, %s", code, errs)
	}
}
