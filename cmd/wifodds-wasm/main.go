//go:build js && wasm

package main

import (
	"context"
	"syscall/js"
)

func main() {
	js.Global().Set("wifoddsAnswer", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 1 || args[0].Type() != js.TypeString {
			status, body := failure(inputf("wifoddsAnswer takes one argument: the request's JSON text"))
			return map[string]any{"status": status, "body": string(body)}
		}
		status, body := respond(context.Background(), args[0].String())
		return map[string]any{"status": status, "body": string(body)}
	}))
	select {}
}
