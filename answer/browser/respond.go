package browser

import (
	"context"
	"encoding/json"

	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/answer/query"
)

// Respond answers one call: the request's JSON text in, the status and
// the JSON bytes the server would send out. progress, when set, sees the
// trials, dice paths or forces done so far and planned.
func Respond(ctx context.Context, text string, progress func(done, planned uint64)) (int, []byte) {
	if len(text) > maxRequest {
		return Failure(Inputf("the request is over %d bytes", maxRequest))
	}
	r := request{progress: progress}
	if err := json.Unmarshal([]byte(text), &r); err != nil {
		return Failure(Inputf("the request is not JSON: %v", err))
	}
	v, err := r.answer(ctx)
	if err != nil {
		return Failure(err)
	}
	// A plain combat's answer is about 7 kB: starting there saves growing
	// the buffer through eight copies (a third of the call's garbage).
	body, err := answer.AppendJSON(make([]byte, 0, 8<<10), v)
	if err != nil {
		return Failure(err)
	}
	return 200, body
}

// Failure is an error as the server words it: {"error": ...}, 400 for the
// request's own fault, 422 for a combat the rules or the budget refuse
// (query.Refusal).
func Failure(err error) (int, []byte) {
	status, msg := query.Refusal(err)
	body, _ := answer.JSON(map[string]string{"error": msg})
	return status, body
}
