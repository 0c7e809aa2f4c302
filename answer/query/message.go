package query

import (
	"errors"

	"github.com/wifodds/wifodds/answer"
)

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
