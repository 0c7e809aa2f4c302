package web

import (
	"errors"

	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// answer is the front door's input for a request: the scenario as sent,
// naming no server file, its tables built-in or uploaded.
func (in *input) answer() answer.Input {
	a := answer.Input{Name: in.name, Text: in.text, Options: scenario.ParseOptions{NoFiles: true}, Tables: in}
	if in.crt != nil {
		a.CRT = "uploaded"
	}
	if in.air != nil {
		a.Air = "uploaded"
	}
	return a
}

// CRT opens a built-in table or the uploaded one (answer.Tables).
func (in *input) CRT(_ *scenario.Scenario, ref string) (*crt.Table, error) { return in.table(ref) }

// Air is the uploaded air tables or the built-in strategic ones
// (answer.Tables).
func (in *input) Air(*scenario.Scenario) (*crt.AirTables, error) { return in.airTables() }

// where words a scenario sent to the wrong endpoint with the right one.
func where(e *answer.InputError) string {
	switch {
	case errors.Is(e, answer.ErrIsPlan):
		return e.Error() + ": POST it to /api/plan"
	case errors.Is(e, answer.ErrBombardment):
		return "compare, sweep and plan take land combats, invasions and paradrops; POST a bombardment to /api/run"
	}
	return e.Error()
}
