package plan

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// sameLayers reports how two searches' last layers differ, or "".
func sameLayers(a, b *layer) string {
	switch {
	case a.len() != b.len():
		return fmt.Sprintf("%d states against %d", a.len(), b.len())
	case !slices.Equal(a.keys, b.keys):
		return "the states differ or come in another order"
	case !slices.Equal(a.xs, b.xs):
		return "the forces kept differ"
	case !slices.Equal(a.bps, b.bps):
		return "the build points differ"
	}
	return ""
}

// The one-hex search's shards change nothing: on the random plans of
// TestStateSearchIsReference (same seeds), 1, 2 and 3 workers give the
// same last layer (states, order, forces kept) and the same answer, byte
// for byte in JSON.
func TestSearchWorkerInvariance(t *testing.T) {
	for seed := range 60 {
		text := referencePlan(seed)
		s, cfg := parseWithTable(t, text, Config{})
		var first []byte
		var firstLayer *layer
		for workers := 1; workers <= 3; workers++ {
			ly, err := searchOf(t, s, cfg, workers, math.MaxInt32).run()
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			cfg.Workers = workers
			res, err := Plan(context.Background(), s, cfg)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			b, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			if workers == 1 {
				first, firstLayer = b, ly
				continue
			}
			if d := sameLayers(ly, firstLayer); d != "" {
				t.Errorf("seed %d, %d workers: %s\n%s", seed, workers, d, text)
			}
			if string(b) != string(first) {
				t.Errorf("seed %d, %d workers: another answer\n%s", seed, workers, text)
			}
		}
	}
}

// The same on the benchmark plans of 40 and 60 units, no two alike: the
// answer for plan-hex-40 and the last layer of both (the 60-unit plan's
// 1.17 million states; not under -short).
func TestBenchmarkPlansWorkerInvariance(t *testing.T) {
	names := []string{"plan-hex-40", "plan-hex-60"}
	if testing.Short() {
		names = names[:1]
	}
	for _, name := range names {
		s, err := scenario.Load("../benchmarks/scenarios/" + name + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		tb, err := crt.Builtin(s.CRT)
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Tables: []Table{{Name: s.CRT, Table: tb}}}
		var first *layer
		var answer []byte
		for workers := 1; workers <= 3; workers++ {
			ly, err := searchOf(t, s, cfg, workers, math.MaxInt32).run()
			if err != nil {
				t.Fatal(err)
			}
			if workers == 1 {
				first = ly
			} else if d := sameLayers(ly, first); d != "" {
				t.Errorf("%s, %d workers: %s", name, workers, d)
			}
			if name != "plan-hex-40" {
				continue
			}
			cfg.Workers = workers
			res, err := Plan(context.Background(), s, cfg)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			if workers == 1 {
				answer = b
			} else if string(b) != string(answer) {
				t.Errorf("%s, %d workers: another answer", name, workers)
			}
		}
	}
}
