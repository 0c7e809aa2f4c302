package query

import (
	"errors"

	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/sim"
)

// Refusal is the status and message the server and the browser build
// answer an error with, the deadline and the server's own guards aside:
// 400 for an error in the request (Message), 422 for a combat the rules
// or the budget refuse (the budget with what to change).
func Refusal(err error) (status int, msg string) {
	var ie *answer.InputError
	switch {
	case errors.As(err, &ie):
		return 400, Message(err)
	case errors.Is(err, sim.ErrBudget):
		return 422, err.Error() + " (use method=mc or method=auto, or raise budget)"
	}
	// Rules refusing the combat (compile errors), a plan too large or a
	// run with no trials are the client's too.
	return 422, err.Error()
}

// Message is how the server and the browser build word an error in the
// request (an *answer.InputError, a 400): a scenario sent to the wrong
// endpoint is told the right one; any other is given whole, with what it
// was wrapped in (the variant whose table is missing).
func Message(err error) string {
	switch {
	case errors.Is(err, answer.ErrIsPlan):
		return err.Error() + ": POST it to /api/plan"
	case errors.Is(err, answer.ErrBombardment):
		return "compare, sweep and plan take land combats, invasions and paradrops; POST a bombardment to /api/run"
	}
	return err.Error()
}
