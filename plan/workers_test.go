package plan

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/wifodds/wifodds/scenario"
)

// planJSON is the answer for s on workers, as JSON.
func planJSON(t *testing.T, s *scenario.Scenario, cfg Config, workers int) string {
	t.Helper()
	cfg.Workers = workers
	res, err := Plan(context.Background(), s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The answer does not depend on the workers weighing the combats: on the
// random plans of TestStateSearchIsReference (same seeds) and on the 40-
// and 60-unit benchmark plans (the 60 not under -short), 1, 2 and 3
// workers give the same answer byte for byte in JSON. On two workers and
// more the random plans split every layer (layersplit.go; but where cost
// counts build points), the benchmark plans their layers of
// splitLayerMin states or more.
func TestPlanWorkerInvariance(t *testing.T) {
	old := splitLayerMin
	withSplitLayerMin(t, 1)
	for seed := range 60 {
		text := referencePlan(seed)
		s, cfg := parseWithTable(t, text, Config{})
		first := planJSON(t, s, cfg, 1)
		for workers := 2; workers <= 3; workers++ {
			if planJSON(t, s, cfg, workers) != first {
				t.Errorf("seed %d, %d workers: another answer\n%s", seed, workers, text)
			}
		}
	}
	splitLayerMin = old
	names := []string{"plan-hex-40", "plan-hex-60"}
	if testing.Short() {
		names = names[:1]
	}
	for _, name := range names {
		s, cfg := loadBench(t, name)
		first := planJSON(t, s, cfg, 1)
		for workers := 2; workers <= 3; workers++ {
			if planJSON(t, s, cfg, workers) != first {
				t.Errorf("%s, %d workers: another answer", name, workers)
			}
		}
	}
}
