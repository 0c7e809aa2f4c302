//go:build js && wasm

package main

import (
	"context"
	"sync"
	"syscall/js"
	"time"

	"github.com/wifodds/wifodds/answer/browser"
)

func main() {
	js.Global().Set("wifoddsAnswer", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 1 || len(args) > 2 || args[0].Type() != js.TypeString {
			status, body := browser.Failure(browser.Inputf("wifoddsAnswer takes the request's JSON text, and true for a warm-up replay"))
			return map[string]any{"status": status, "body": string(body)}
		}
		report := progress
		if len(args) == 2 && args[1].Truthy() {
			report = nil // a warm-up replay (worker.js): the page is not waiting for it
		}
		status, body := browser.Respond(context.Background(), args[0].String(), report)
		return map[string]any{"status": status, "body": string(body)}
	}))
	select {}
}

// progress posts how far a computation has got to the page, at most ten
// times a second: the worker is busy until the answer, but its messages
// reach the page as they are posted.
var progress = func() func(done, planned uint64) {
	var mu sync.Mutex
	var last time.Time
	return func(done, planned uint64) {
		mu.Lock()
		defer mu.Unlock()
		if now := time.Now(); now.Sub(last) >= 100*time.Millisecond {
			last = now
			js.Global().Call("postMessage", map[string]any{"progress": map[string]any{"done": float64(done), "planned": float64(planned)}})
		}
	}
}()
