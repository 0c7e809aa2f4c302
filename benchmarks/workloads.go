package benchmarks

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"path"

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

// Workload is one measured job: Run does trials trials on workers
// goroutines, and Limit the same work by the fastest method we know (nil
// for answer workloads).
type Workload struct {
	Name  string
	Run   KernelFunc
	Limit KernelFunc
	// Answer marks a workload whose unit is a whole answer (an exact
	// answer, a plan, a battery), not a trial; TargetSeconds is the most
	// one answer should take.
	Answer        bool
	TargetSeconds float64
}

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
	limit, err := flatLimit(r.Flat())
	if err != nil {
		return Workload{}, fmt.Errorf("%s: %w", name, err)
	}
	return Workload{Name: name, Limit: limit, Run: func(ctx context.Context, trials uint64, workers int) error {
		_, _, err := sim.Sample(ctx, r, sim.Config{Trials: trials, Seed: 1, Workers: workers})
		return err
	}}, nil
}

func campaignWorkload(name string, raids int) (Workload, error) {
	r, err := Raid(name)
	if err != nil {
		return Workload{}, err
	}
	chain := r.Chain(raids)
	if chain == nil {
		return Workload{}, fmt.Errorf("%s: no Markov chain for %d raids", name, raids)
	}
	return Workload{Name: fmt.Sprintf("%s-campaign-%d", name, raids), Limit: markovKernel(chain, raids), Run: func(ctx context.Context, trials uint64, workers int) error {
		_, _, err := sim.SampleKeys(ctx, r.Campaign(raids), sim.Config{Trials: trials, Seed: 1, Workers: workers})
		return err
	}}, nil
}

// sampling is a Monte Carlo workload of a benchmark combat and its limit
// kernel: the flat kernel for a combat the engine samples from one table,
// the factored kernel for one it samples in two levels, and with perTrial
// the engine resolving every trial against the kernel rolling the same
// dice one at a time.
func sampling(name string, perTrial bool) (Workload, error) {
	c, err := Combat(name)
	if err != nil {
		return Workload{}, err
	}
	var limit KernelFunc
	switch f, ff := c.Flat(), c.Factored(); {
	case perTrial && f != nil:
		limit = perTrialKernel(f)
		c = combat.PerTrial(c)
		name += "-per-trial"
	case f != nil:
		limit, err = flatLimit(f)
	case ff != nil:
		limit, err = factoredKernel(ff)
	default:
		err = errors.New("no table to compare with")
	}
	if err != nil {
		return Workload{}, fmt.Errorf("%s: %w", name, err)
	}
	return Workload{Name: name, Limit: limit, Run: func(ctx context.Context, trials uint64, workers int) error {
		_, _, err := sim.Sample(ctx, c, sim.Config{Trials: trials, Seed: 1, Workers: workers})
		return err
	}}, nil
}

// Workloads lists every workload: sampling workloads, each with its limit
// kernel, then answer workloads with their targets.
func Workloads() ([]Workload, error) {
	var ws []Workload
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
	}{{"plan-16", 1}, {"plan-24", 10}, {"plan-front-3x12", 10}, {"plan-hex-24", 0.1}, {"plan-hex-40", 1}, {"plan-hex-60", 5}, {"plan-front-4x16", 2}, {"plan-front-4x24", 2}} {
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
	ws = append(ws, b)
	for _, e := range []struct {
		name   string
		target float64
	}{{"plain-2d6", 5e-6}, {"wild-fractional-2d6", 100e-6}, {"strikes-3", 0.05}} {
		w, err := exactWorkload(e.name, e.target)
		if err != nil {
			return nil, err
		}
		ws = append(ws, w)
	}
	campaign3, err := exactCampaignWorkload("night-raid-campaign", 3, 1.5e-3)
	if err != nil {
		return nil, err
	}
	return append(ws, campaign3, parseWorkload()), nil
}

// exactCampaignWorkload is a campaign's exact answer, as `wifodds run
// --exact --raids N` works it out once the file is read: the raid
// compiled, its chain built, the dynamic programme run and the totals
// summarised.
func exactCampaignWorkload(name string, raids int, target float64) (Workload, error) {
	if _, err := Raid(name); err != nil {
		return Workload{}, err
	}
	return Workload{Name: fmt.Sprintf("exact-campaign-%d", raids), Answer: true, TargetSeconds: target, Run: func(ctx context.Context, answers uint64, _ int) error {
		for range answers {
			r, err := Raid(name)
			if err != nil {
				return err
			}
			if _, err := analysis.RunRaid(ctx, r, analysis.Request{Engine: analysis.Exact}, raids); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

// exactWorkload is the exact answer for a benchmark scenario, as
// `wifodds run --exact` works it out once the file is read: compile,
// enumerate (or tabulate) and summarise, on one goroutine.
func exactWorkload(name string, target float64) (Workload, error) {
	s, err := Scenario(name)
	if err != nil {
		return Workload{}, err
	}
	w := Workload{Name: "exact-" + name, Answer: true, TargetSeconds: target, Run: func(ctx context.Context, answers uint64, _ int) error {
		for range answers {
			if err := ExactAnswer(ctx, s); err != nil {
				return err
			}
		}
		return nil
	}}
	if name == "plain-2d6" {
		// The plain example has a limit kernel: a minimal enumerator
		// giving the same summary (exactlimit.go).
		if w.Limit, err = exactLimit(s); err != nil {
			return Workload{}, fmt.Errorf("%s: %w", w.Name, err)
		}
	}
	return w, nil
}

// ExactAnswer compiles a parsed scenario and computes its exact summary.
func ExactAnswer(ctx context.Context, s *scenario.Scenario) error {
	_, err := exactSummary(ctx, s)
	return err
}

func exactSummary(ctx context.Context, s *scenario.Scenario) (*analysis.Summary, error) {
	c, err := compile(s)
	if err != nil {
		return nil, err
	}
	t, run, err := sim.Exact(ctx, c, sim.MaxPathBudget, nil)
	if err != nil {
		return nil, err
	}
	return analysis.Summarize(c, t, run), nil
}

// parseWorkload reads the plain-2d6 scenario's YAML (issue 16 target: 50
// µs).
func parseWorkload() Workload {
	return Workload{Name: "parse-plain-2d6", Answer: true, TargetSeconds: 50e-6, Run: func(ctx context.Context, answers uint64, _ int) error {
		for range answers {
			if _, err := Scenario("plain-2d6"); err != nil {
				return err
			}
		}
		return nil
	}}
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
