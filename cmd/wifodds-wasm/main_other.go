//go:build !(js && wasm)

package main

// main outside a browser: the engine is only of use loaded by the static
// site's worker (wifodds site builds it with GOOS=js GOARCH=wasm). This
// file lets go build ./... and go vet ./... pass over the package on every
// platform; its calls are answer/browser, tested everywhere.
func main() {
	panic("wifodds-wasm runs in a browser: build it with GOOS=js GOARCH=wasm, as wifodds site does")
}
