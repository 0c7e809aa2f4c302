package web

import (
	"errors"

	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/scenario"
)

// answer is the front door's input for a request: the scenario as sent,
// naming no server file, its tables built-in or uploaded (answer.Supplied,
// as the browser build's).
func (in *input) answer() answer.Input {
	a := answer.Input{Name: in.name, Text: in.text, Options: scenario.ParseOptions{NoFiles: true},
		Tables: answer.Supplied{CRTTable: in.crt, AirTables: in.air}}
	if in.crt != nil {
		a.CRT = "uploaded"
	}
	if in.air != nil {
		a.Air = "uploaded"
	}
	return a
}

// where words a scenario sent to the wrong endpoint with the right one.
// Any other error in the request is given whole, with what it was
// wrapped in (the variant whose table is missing).
func where(err error) string {
	switch {
	case errors.Is(err, answer.ErrIsPlan):
		return err.Error() + ": POST it to /api/plan"
	case errors.Is(err, answer.ErrBombardment):
		return "compare, sweep and plan take land combats, invasions and paradrops; POST a bombardment to /api/run"
	}
	return err.Error()
}
