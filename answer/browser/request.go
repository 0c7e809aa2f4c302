package browser

import (
	"context"
	"fmt"
	"net/url"

	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/answer/query"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// maxRequest bounds one call's JSON text: the page runs in the player's
// browser, but a link can carry any request. The parameters' bounds are
// the server's defaults (package answer/query).
const maxRequest = 1 << 20

// request is one call from the page.
type request struct {
	Command   string     `json:"command"`
	Params    url.Values `json:"params"`
	Scenario  string     `json:"scenario"`
	CRT       *string    `json:"crt"`
	AirTables *string    `json:"air_tables"`
	progress  func(done, planned uint64)
}

// Inputf is an error in the request, a 400.
func Inputf(format string, args ...any) error {
	return &answer.InputError{Err: fmt.Errorf(format, args...)}
}

// answer runs the command through the front door.
func (r *request) answer(ctx context.Context) (any, error) {
	if err := query.Check(r.Command, r.Params); err != nil {
		return nil, err
	}
	switch r.Command {
	case "schema":
		return answer.Schema(), nil
	case "stack":
		return answer.Stack(r.Params.Get("text"))
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
		return query.Weights(ctx, in, r.Params)
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
	a, err := query.Run(ctx, in, r.Params, r.limits())
	if err != nil {
		return nil, err
	}
	return a.Value(), nil
}

func (r *request) compare(ctx context.Context, in answer.Input) (any, error) {
	return query.Compare(ctx, in, r.Params, r.limits())
}

func (r *request) sweep(ctx context.Context, in answer.Input) (any, error) {
	return query.Sweep(ctx, in, r.Params, r.limits())
}

func (r *request) plan(ctx context.Context, in answer.Input) (any, error) {
	return query.Plan(ctx, in, r.Params, r.limits())
}

// limits are the server's default bounds, with this call's progress; the
// page's calls run one at a time on one goroutine.
func (r *request) limits() query.Limits {
	return query.Limits{MaxTrials: query.DefaultMaxTrials, Workers: 1, Progress: r.progress}
}
