package browser

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// Bounds on what one call may ask, as the server's defaults: the page
// runs in the player's browser, but a link can carry any request.
const (
	maxRequest   = 1 << 20
	maxTrials    = 100_000_000
	maxVariants  = 12
	maxDice      = 64
	defaultTrial = 1_000_000
	defaultForce = 2_000_000
)

// request is one call from the page.
type request struct {
	Command   string              `json:"command"`
	Params    map[string][]string `json:"params"`
	Scenario  string              `json:"scenario"`
	CRT       *string             `json:"crt"`
	AirTables *string             `json:"air_tables"`
	progress  func(done, planned uint64)
}

// Inputf is an error in the request, a 400.
func Inputf(format string, args ...any) error {
	return &answer.InputError{Err: fmt.Errorf(format, args...)}
}

// get is a parameter's first value, or "".
func (r *request) get(key string) string {
	if v := r.Params[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// answer runs the command through the front door.
func (r *request) answer(ctx context.Context) (any, error) {
	switch r.Command {
	case "schema":
		return answer.Schema(), nil
	case "stack":
		return answer.Stack(r.get("text"))
	}
	in, err := r.input()
	if err != nil {
		return nil, err
	}
	switch r.Command {
	case "parse":
		return answer.Document(in)
	case "run":
		return r.run(ctx, in)
	case "compare":
		return r.compare(ctx, in)
	case "sweep":
		return r.sweep(ctx, in)
	case "plan":
		return r.plan(ctx, in)
	case "weights":
		if c := r.get("crt"); c != "" {
			in.CRT = c
		}
		return answer.Weights(ctx, in, answer.WeightsFlags{Cells: r.Params["cell"]})
	}
	return nil, Inputf("command %q: want run, compare, sweep, plan, parse, weights, stack or schema", r.Command)
}

// input is the scenario as sent, naming no file, with its uploaded tables.
func (r *request) input() (answer.Input, error) {
	in := answer.Input{Name: "request.yaml", Text: []byte(r.Scenario), Options: scenario.ParseOptions{NoFiles: true}}
	var up answer.Supplied
	if r.CRT != nil {
		t, err := crt.Parse("crt.yaml", []byte(*r.CRT))
		if err != nil {
			return in, Inputf("the uploaded crt: %v", err)
		}
		up.CRTTable, in.CRT = t, "uploaded"
	}
	if r.AirTables != nil {
		t, err := crt.ParseAir("air_tables.yaml", []byte(*r.AirTables))
		if err != nil {
			return in, Inputf("the uploaded air_tables: %v", err)
		}
		up.AirTables, in.Air = t, "uploaded"
	}
	in.Tables = up
	return in, nil
}

func (r *request) run(ctx context.Context, in answer.Input) (any, error) {
	req, err := r.request()
	if err != nil {
		return nil, err
	}
	f := answer.RunFlags{Request: req, Explain: r.get("explain") == "true", Cells: r.Params["cell"]}
	// 0 when not asked: raids apply only to bombardments.
	if f.Raids, err = r.intIn("raids", 0, 1, 1000); err != nil {
		return nil, err
	}
	if d := r.get("dice"); d != "" {
		if f.Dice, err = sim.ParseRolls(d); err != nil || len(f.Dice) > maxDice {
			return nil, Inputf("dice=%s: want at most %d rolls separated by commas (%v)", d, maxDice, err)
		}
	}
	if c := r.get("crt"); c != "" {
		in.CRT = c
	}
	a, err := answer.Run(ctx, in, f)
	var re *analysis.ReplayError
	if errors.As(err, &re) {
		return nil, Inputf("dice: %v", err)
	}
	if errors.Is(err, answer.ErrRaidsNotBombardment) {
		return nil, Inputf("raids=%s: %v", r.get("raids"), err)
	}
	if errors.Is(err, answer.ErrCellsBombardment) {
		return nil, Inputf("cell=%s: %v", r.get("cell"), err)
	}
	if err != nil {
		return nil, err
	}
	return a.Value(), nil
}

func (r *request) compare(ctx context.Context, in answer.Input) (any, error) {
	req, err := r.request()
	if err != nil {
		return nil, err
	}
	specs := r.Params["variant"]
	if len(specs) > maxVariants {
		return nil, Inputf("at most %d variants", maxVariants)
	}
	return answer.Compare(ctx, in, answer.CompareFlags{Request: req, Variants: specs, Independent: r.get("independent") == "true"})
}

func (r *request) sweep(ctx context.Context, in answer.Input) (any, error) {
	f := answer.SweepFlags{Axis: analysis.Attack, Progress: r.progress}
	spec := r.get("attack")
	if d := r.get("defence"); d != "" {
		f.Axis, spec = analysis.Defence, d
	}
	var err error
	if f.Totals, err = analysis.ParseRange(spec); err != nil {
		return nil, Inputf("%s=%s: %v", f.Axis, spec, err)
	}
	if m := r.get("modifier"); m != "" {
		mr, err := analysis.ParseRange(m)
		if err != nil || mr.Lo < -crt.MaxModifier || mr.Hi > crt.MaxModifier {
			return nil, Inputf("modifier=%s: a range within -%d..%d", m, crt.MaxModifier, crt.MaxModifier)
		}
		for x := mr.Lo; x <= mr.Hi; x++ {
			f.Modifiers = append(f.Modifiers, x)
		}
	}
	if v := r.get("crt"); v != "" {
		f.CRTs = strings.Split(v, ",")
	}
	if f.Budget, err = r.budget(); err != nil {
		return nil, err
	}
	if t := r.get("target"); t != "" {
		if f.Target, err = strconv.ParseFloat(t, 64); err != nil || !(f.Target > 0 && f.Target <= 1) {
			return nil, Inputf("target=%s: want a number above 0 and at most 1", t)
		}
	}
	return answer.Sweep(ctx, in, f)
}

func (r *request) plan(ctx context.Context, in answer.Input) (any, error) {
	req, err := r.request()
	if err != nil {
		return nil, err
	}
	f := answer.PlanFlags{MaxForces: defaultForce, Budget: req.Budget, Sample: req.Sample, Workers: 1, Progress: r.progress}
	if t := r.get("target"); t != "" {
		if f.Target, err = strconv.ParseFloat(t, 64); err != nil || !(f.Target > 0 && f.Target <= 1000) {
			return nil, Inputf("target=%s: want a number above 0", t)
		}
	}
	return answer.PlanSide(ctx, in, f)
}

// request reads method, trials, seed and budget.
func (r *request) request() (analysis.Request, error) {
	req := analysis.Request{Engine: analysis.Auto, ExactProgress: r.progress, Sample: sim.Config{Trials: defaultTrial, Seed: 1, Workers: 1, Progress: r.progress}}
	switch m := r.get("method"); m {
	case "", "auto":
	case "exact":
		req.Engine = analysis.Exact
	case "mc":
		req.Engine = analysis.MonteCarlo
	default:
		return req, Inputf("method=%s: want exact, mc or auto", m)
	}
	var err error
	if v := r.get("trials"); v != "" {
		if req.Sample.Trials, err = sim.ParseCount(v, "trials"); err != nil || req.Sample.Trials > maxTrials {
			return req, Inputf("trials=%s: want 1 to %d", v, maxTrials)
		}
	}
	if v := r.get("seed"); v != "" {
		if req.Sample.Seed, err = sim.ParseSeed(v); err != nil {
			return req, Inputf("seed=%v", err)
		}
	}
	req.Budget, err = r.budget()
	return req, err
}

// budget reads budget as the CLI reads --budget.
func (r *request) budget() (int, error) {
	v := r.get("budget")
	if v == "" {
		return sim.DefaultPathBudget, nil
	}
	n, err := sim.ParseCount(v, "paths")
	if err != nil || n > sim.MaxPathBudget {
		return 0, Inputf("budget=%s: want 1 to %d paths", v, sim.MaxPathBudget)
	}
	return int(n), nil
}

func (r *request) intIn(key string, def, lo, hi int) (int, error) {
	v := r.get(key)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo || n > hi {
		return 0, Inputf("%s=%s: want a whole number from %d to %d", key, v, lo, hi)
	}
	return n, nil
}
