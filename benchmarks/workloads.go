package benchmarks

import (
	"context"
	"embed"
	"fmt"
	"path"
	"time"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

//go:embed scenarios/*.yaml
var scenarioFiles embed.FS

// Workload is one measured job: Run does trials trials on workers goroutines.
type Workload struct {
	Name string
	Run  func(ctx context.Context, trials uint64, workers int) error
}

// LimitName is the name of the floor workload the others are compared with.
const LimitName = "limit"

// Scenario parses one of the embedded benchmark scenarios.
func Scenario(name string) (*scenario.Scenario, error) {
	data, err := scenarioFiles.ReadFile(path.Join("scenarios", name+".yaml"))
	if err != nil {
		return nil, fmt.Errorf("benchmarks: no scenario %q", name)
	}
	return scenario.Parse(name+".yaml", data)
}

// Combat compiles one of the embedded benchmark scenarios.
func Combat(name string) (*combat.Combat, error) {
	s, err := Scenario(name)
	if err != nil {
		return nil, err
	}
	return compile(s)
}

func compile(s *scenario.Scenario) (*combat.Combat, error) {
	t, err := crt.Open(s.CRT, "")
	if err != nil {
		return nil, err
	}
	return combat.CompileWith(s, t, nil, combat.Options{})
}

// Raid compiles one of the embedded bombardment scenarios.
func Raid(name string) (*combat.Raid, error) {
	s, err := Scenario(name)
	if err != nil {
		return nil, err
	}
	t, err := crt.BuiltinAir(s.Raid.AirTables)
	if err != nil {
		return nil, err
	}
	return combat.CompileRaid(s, t)
}

func raidWorkload(name string) (Workload, error) {
	r, err := Raid(name)
	if err != nil {
		return Workload{}, err
	}
	return Workload{Name: name, Run: func(ctx context.Context, trials uint64, workers int) error {
		_, _, err := sim.Sample(ctx, r, sim.Config{Trials: trials, Seed: 1, Workers: workers})
		return err
	}}, nil
}

func campaignWorkload(name string, raids int) (Workload, error) {
	r, err := Raid(name)
	if err != nil {
		return Workload{}, err
	}
	return Workload{Name: fmt.Sprintf("%s-campaign-%d", name, raids), Run: func(ctx context.Context, trials uint64, workers int) error {
		_, _, err := sim.SampleKeys(ctx, r.Campaign(raids), sim.Config{Trials: trials, Seed: 1, Workers: workers})
		return err
	}}, nil
}

func sampling(name string, perTrial bool) (Workload, error) {
	c, err := Combat(name)
	if err != nil {
		return Workload{}, err
	}
	if perTrial {
		c = combat.PerTrial(c)
		name += "-per-trial"
	}
	return Workload{Name: name, Run: func(ctx context.Context, trials uint64, workers int) error {
		_, _, err := sim.Sample(ctx, c, sim.Config{Trials: trials, Seed: 1, Workers: workers})
		return err
	}}, nil
}

// Workloads lists every workload, the limit first.
func Workloads() ([]Workload, error) {
	ws := []Workload{{Name: LimitName, Run: func(ctx context.Context, trials uint64, workers int) error {
		Limit(ctx, trials, workers)
		return nil
	}}}
	for _, spec := range []struct {
		name     string
		perTrial bool
	}{
		{"plain-2d6", false},
		{"plain-standard", false},
		{"wild-fractional-2d6", false},
		{"invasion-port-moresby", false},
		{"strikes-aa", false},
		{"plain-2d6", true},
		{"wild-fractional-2d6", true},
	} {
		w, err := sampling(spec.name, spec.perTrial)
		if err != nil {
			return nil, err
		}
		ws = append(ws, w)
	}
	raid, err := raidWorkload("raid-dusseldorf")
	if err != nil {
		return nil, err
	}
	campaign, err := campaignWorkload("raid-dusseldorf", 4)
	if err != nil {
		return nil, err
	}
	return append(ws, raid, campaign), nil
}

// Result is one workload's measurement.
type Result struct {
	Name           string  `json:"name"`
	Trials         uint64  `json:"trials"`
	Seconds        float64 `json:"seconds"`
	TrialsPerSec   float64 `json:"trials_per_second"`
	RatioToLimit   float64 `json:"ratio_to_limit"`
	SpeedupWorkers float64 `json:"speedup_vs_one_worker,omitempty"`
}

// Measure runs w with growing trial counts until one run takes at least
// seconds, and returns its throughput.
func Measure(ctx context.Context, w Workload, workers int, seconds float64) (Result, error) {
	trials := uint64(sim.ChunkSize * workers)
	for {
		start := time.Now()
		if err := w.Run(ctx, trials, workers); err != nil {
			return Result{}, err
		}
		el := time.Since(start).Seconds()
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		if el >= seconds || trials >= 1<<40 {
			return Result{Name: w.Name, Trials: trials, Seconds: el, TrialsPerSec: float64(trials) / el}, nil
		}
		// Aim past the target so the next run is the last.
		grow := 2.0
		if el > 0 {
			grow = min(max(1.3*seconds/el, 2), 100)
		}
		trials = uint64(float64(trials) * grow)
	}
}
