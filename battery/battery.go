package battery

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/stats"
)

// Item is one scenario of a battery.
type Item struct {
	Name     string
	Scenario *scenario.Scenario
	// Source identifies the item's content for the battery's hash: the
	// scenario file's bytes, or the template's with the axis values that
	// generated it.
	Source []byte
}

// Config is how a battery runs.
type Config struct {
	Variants    []string         // NAME=OVERRIDES specs, as compare takes them; the first is the baseline
	Request     analysis.Request // exact, Monte Carlo or auto; budget, trials, seed, workers
	Independent bool             // Monte Carlo with independent streams instead of common random numbers
	// Open opens a variant's table by the name the scenario or variant gives;
	// Air are the air tables for AA fire at ground support.
	Open func(s *scenario.Scenario, ref string) (*crt.Table, []byte, error)
	Air  func(s *scenario.Scenario) (*crt.AirTables, error)
	// Progress, when set, sees the scenarios done and planned.
	Progress func(done, planned uint64)
}

// Shard is the part of a battery one process runs: shard Index (1-based)
// of Count. The zero Shard is the whole battery.
type Shard struct{ Index, Count int }

// Mine reports whether scenario i belongs to the shard.
func (s Shard) Mine(i int) bool { return s.Count <= 1 || i%s.Count == s.Index-1 }

// Result is one scenario's comparison: each variant's figures and their
// difference from the first. Every field survives a JSON round trip
// exactly, so a merged battery reports what a one-process run does.
type Result struct {
	Index    int       `json:"index"`
	Name     string    `json:"name"`
	Method   string    `json:"method"`
	Trials   uint64    `json:"trials,omitempty"`
	Variants []Variant `json:"variants"`
	Warnings []string  `json:"warnings,omitempty"`
}

// Variant is one variant's figures for one scenario.
type Variant struct {
	Name    string                    `json:"name"`
	CRT     string                    `json:"crt"`
	Metrics map[string]stats.Estimate `json:"metrics"`
	Diff    map[string]stats.Estimate `json:"difference_from_first,omitempty"`
}

// Run computes the battery's scenarios that belong to shard, in index
// order, and returns their results and the battery's hash.
func Run(ctx context.Context, items []Item, cfg Config, shard Shard) ([]Result, string, error) {
	if len(cfg.Variants) < 1 {
		return nil, "", fmt.Errorf("battery: give at least one variant")
	}
	if shard.Count > 0 && (shard.Index < 1 || shard.Index > shard.Count) {
		return nil, "", fmt.Errorf("battery: shard %d/%d: want 1..%d", shard.Index, shard.Count, shard.Count)
	}
	h := newHasher(cfg)
	var out []Result
	planned, done := uint64(0), uint64(0)
	for i := range items {
		if shard.Mine(i) {
			planned++
		}
	}
	for i, it := range items {
		h.item(it)
		// Every shard opens every table, so each hashes the same content.
		tables := map[string][]byte{}
		open := func(ref string) (*crt.Table, error) {
			t, src, err := cfg.Open(it.Scenario, ref)
			if err == nil {
				tables[ref] = src
			}
			return t, err
		}
		air, err := cfg.Air(it.Scenario)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", it.Name, err)
		}
		vs, err := compileVariants(it.Scenario, cfg.Variants, open, air)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", it.Name, err)
		}
		h.tables(tables)
		if !shard.Mine(i) {
			continue
		}
		cmp, err := vs.compare(ctx, it.Name, cfg.Request, cfg.Independent)
		if err == nil && cmp.Partial {
			err = ctx.Err()
		}
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", it.Name, err)
		}
		r := Result{Index: i, Name: it.Name, Method: cmp.Method, Trials: cmp.Trials, Warnings: cmp.Warnings}
		for _, v := range cmp.Variants {
			r.Variants = append(r.Variants, Variant{Name: v.Name, CRT: v.CRT, Metrics: v.Metrics, Diff: v.Diff})
		}
		out = append(out, r)
		done++
		if cfg.Progress != nil {
			cfg.Progress(done, planned)
		}
	}
	return out, h.sum(len(items)), nil
}

// hasher hashes everything a battery's answer depends on: the settings,
// every scenario's content and every table's.
type hasher struct{ b []byte }

func newHasher(cfg Config) *hasher {
	h := &hasher{}
	r := cfg.Request
	h.add("variants", fmt.Sprint(cfg.Variants))
	h.add("engine", strconv.Itoa(int(r.Engine)))
	h.add("budget", strconv.Itoa(r.Budget))
	h.add("trials", strconv.FormatUint(r.Sample.Trials, 10))
	h.add("seed", strconv.FormatUint(r.Sample.Seed, 10))
	h.add("independent", strconv.FormatBool(cfg.Independent))
	return h
}

func (h *hasher) add(key, v string) {
	h.b = fmt.Appendf(h.b, "%s %d %s\n", key, len(v), v)
}

func (h *hasher) item(it Item) {
	h.add("scenario", it.Name)
	sum := sha256.Sum256(it.Source)
	h.add("source", hex.EncodeToString(sum[:]))
}

func (h *hasher) tables(ts map[string][]byte) {
	names := make([]string, 0, len(ts))
	for n := range ts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		sum := sha256.Sum256(ts[n])
		h.add("table "+n, hex.EncodeToString(sum[:]))
	}
}

func (h *hasher) sum(items int) string {
	h.add("items", strconv.Itoa(items))
	s := sha256.Sum256(h.b)
	return hex.EncodeToString(s[:])
}
