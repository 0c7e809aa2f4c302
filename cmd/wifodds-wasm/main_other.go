//go:build !(js && wasm)

package main

// main outside a browser: the engine is only of use loaded by the static
// site's worker (wifodds site builds it with GOOS=js GOARCH=wasm). The
// rest of the package builds everywhere so that its tests and fuzz target
// run with the others.
func main() {
	panic("wifodds-wasm runs in a browser: build it with GOOS=js GOARCH=wasm, as wifodds site does")
}
