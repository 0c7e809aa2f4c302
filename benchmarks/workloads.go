package benchmarks

import (
	"context"
	"embed"
	"fmt"
	"path"
	"time"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/battery"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/plan"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

//go:embed scenarios/*.yaml
var scenarioFiles embed.FS

// Workload is one measured job: Run does trials trials on workers goroutines.
type Workload struct {
	Name string
	Run  func(ctx context.Context, trials uint64, workers int) error
	// Answer marks a workload whose unit is a whole answer (a plan), not a
	// trial; TargetSeconds is the most one answer should take on one core.
	Answer        bool
	TargetSeconds float64
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
		{"strikes-3", false},
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
	ws = append(ws, raid, campaign)
	for _, p := range []struct {
		name   string
		target float64
	}{{"plan-16", 1}, {"plan-24", 10}, {"plan-front-3x12", 10}} {
		w, err := planWorkload(p.name, p.target)
		if err != nil {
			return nil, err
		}
		ws = append(ws, w)
	}
	b, err := batteryWorkload()
	if err != nil {
		return nil, err
	}
	return append(ws, b), nil
}

// BatteryAxes generate the battery workload from plain-2d6: 50 attack
// totals by 5 terrains by 2 weathers, 500 scenarios.
var BatteryAxes = []string{"attack=16..65", "terrain=clear,forest,mountain,swamp,desert", "weather=clear,mud"}

// batteryWorkload is a 500-scenario generated battery of plain land
// combats under two CRTs, all exact (issue target: under 2 s on one core):
// generation, compile, enumeration and comparison, as `wifodds battery
// --generate` does once the template is read.
func batteryWorkload() (Workload, error) {
	t, err := Scenario("plain-2d6")
	if err != nil {
		return Workload{}, err
	}
	var axes []battery.Axis
	for _, spec := range BatteryAxes {
		a, err := battery.ParseAxis(spec)
		if err != nil {
			return Workload{}, err
		}
		axes = append(axes, a)
	}
	open := func(_ *scenario.Scenario, ref string) (*crt.Table, []byte, error) {
		tb, err := crt.Builtin(ref)
		if err != nil {
			return nil, nil, err
		}
		src, err := crt.BuiltinSource(ref)
		return tb, src, err
	}
	air := func(*scenario.Scenario) (*crt.AirTables, error) { return nil, nil }
	return Workload{Name: "battery-500", Answer: true, TargetSeconds: 2, Run: func(ctx context.Context, answers uint64, workers int) error {
		for range answers {
			items, _, err := battery.Generate(t, axes, func(ref string) (*crt.Table, error) { return crt.Builtin(ref) }, nil)
			if err != nil {
				return err
			}
			if len(items) != 500 {
				return fmt.Errorf("the battery workload has %d scenarios, want 500", len(items))
			}
			cfg := battery.Config{Variants: []string{"std=crt=standard", "2d6=crt=2d6"}, Request: analysis.Request{Engine: analysis.Exact},
				Open: open, Air: air}
			if _, _, err := battery.Run(ctx, items, cfg, battery.Shard{}); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

// planWorkload is a plan answered from scratch: every force weighed and
// the report's figures worked out, as `wifodds plan` does once the file
// is read.
func planWorkload(name string, target float64) (Workload, error) {
	s, err := Scenario(name)
	if err != nil {
		return Workload{}, err
	}
	t, err := crt.Builtin(s.CRT)
	if err != nil {
		return Workload{}, err
	}
	return Workload{Name: name, Answer: true, TargetSeconds: target, Run: func(ctx context.Context, answers uint64, workers int) error {
		for range answers {
			if _, err := plan.Plan(ctx, s, plan.Config{Tables: []plan.Table{{Name: s.CRT, Table: t}}, Workers: workers}); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

// Result is one workload's measurement.
type Result struct {
	Name           string  `json:"name"`
	Trials         uint64  `json:"trials"`
	Seconds        float64 `json:"seconds"`
	TrialsPerSec   float64 `json:"trials_per_second"`
	RatioToLimit   float64 `json:"ratio_to_limit"`
	SpeedupWorkers float64 `json:"speedup_vs_one_worker,omitempty"`
	// An answer workload's trials are answers: the seconds one takes, and
	// the most it should take on one core.
	SecondsPerAnswer float64 `json:"seconds_per_answer,omitempty"`
	TargetSeconds    float64 `json:"target_seconds,omitempty"`
}

// Measure runs w with growing trial counts until one run takes at least
// seconds, and returns its throughput.
func Measure(ctx context.Context, w Workload, workers int, seconds float64) (Result, error) {
	trials := uint64(sim.ChunkSize * workers)
	if w.Answer {
		trials = 1
	}
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
			r := Result{Name: w.Name, Trials: trials, Seconds: el, TrialsPerSec: float64(trials) / el}
			if w.Answer {
				r.SecondsPerAnswer, r.TargetSeconds = el/float64(trials), w.TargetSeconds
			}
			return r, nil
		}
		// Aim past the target so the next run is the last.
		grow := 2.0
		if el > 0 {
			grow = min(max(1.3*seconds/el, 2), 100)
		}
		trials = uint64(float64(trials) * grow)
	}
}

// Strikes compiles the strikes-3 combat with n ART making ground strikes
// (0 to 6) instead of three: the workloads behind the issue's "no cliff
// between 0 and 6 pre-combat strikes" (docs/performance.md).
func Strikes(n int) (*combat.Combat, error) {
	s, err := Scenario("strikes-3")
	if err != nil {
		return nil, err
	}
	var units []scenario.Unit
	var strike scenario.Unit
	for _, u := range s.Attacker.Units {
		if u.Role == scenario.RoleStrike {
			strike = u
			continue
		}
		units = append(units, u)
	}
	for i := range n {
		u := strike
		u.Name = fmt.Sprintf("strike %d", i+1)
		u.Factors = float64(3 + i%3)
		units = append(units, u)
	}
	s.Attacker.Units = units
	return compile(s)
}
