//go:build js && wasm

// Command wifodds-wasm is the browser build: the front door (package
// answer) behind one JavaScript function, so the static site computes in
// the page's Web Worker what `wifodds serve` computes on the server. It is
// built with GOOS=js GOARCH=wasm by `wifodds site`, and imports neither
// gonum/plot nor net/http (the page draws its own charts).
//
// wifoddsAnswer(request) takes the JSON text of
//
//	{"command": "run"|"compare"|"sweep"|"plan"|"parse"|"schema",
//	 "params": {"method": ["exact"], ...},   // the server's query parameters
//	 "scenario": "...", "crt": "...", "air_tables": "..."}  // file contents
//
// and returns {status, body}: the HTTP status the server would give and
// the JSON text it would send, the same bytes.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"syscall/js"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/answer"
)

func main() {
	js.Global().Set("wifoddsAnswer", js.FuncOf(func(_ js.Value, args []js.Value) any {
		status, body := respond(args)
		return map[string]any{"status": status, "body": string(body)}
	}))
	select {}
}

// respond answers one call, refusing anything but one string argument.
func respond(args []js.Value) (int, []byte) {
	if len(args) != 1 || args[0].Type() != js.TypeString {
		return failure(&answer.InputError{Err: errors.New("wifoddsAnswer takes one argument: the request's JSON text")})
	}
	text := args[0].String()
	if len(text) > maxRequest {
		return failure(inputf("the request is over %d bytes", maxRequest))
	}
	var r request
	if err := json.Unmarshal([]byte(text), &r); err != nil {
		return failure(inputf("the request is not JSON: %v", err))
	}
	v, err := r.answer(context.Background())
	if err != nil {
		return failure(err)
	}
	body, err := answer.JSON(v)
	if err != nil {
		return failure(err)
	}
	return 200, body
}

// failure is an error as the server words it: {"error": ...}, 400 for the
// request's own fault, 422 for a combat the rules or the budget refuse.
func failure(err error) (int, []byte) {
	status := 422
	var ie *answer.InputError
	if errors.As(err, &ie) {
		status = 400
	}
	if errors.Is(err, analysis.ErrNoTrials) {
		status = 422
	}
	body, _ := answer.JSON(map[string]string{"error": err.Error()})
	return status, body
}
