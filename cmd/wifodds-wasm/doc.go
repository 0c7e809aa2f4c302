// Command wifodds-wasm is the browser build: the front door (package
// answer) behind one JavaScript function, so the static site computes in
// the page's Web Worker what `wifodds serve` computes on the server. It is
// built with GOOS=js GOARCH=wasm by `wifodds site`, and imports neither
// gonum/plot nor net/http (the page draws its own charts).
//
// wifoddsAnswer(request) takes a call's JSON text (package answer/browser
// says what it holds) and returns {status, body}: the HTTP status the
// server would give and the JSON text it would send, the same bytes.
// While a computation runs it posts {progress: {done, planned}} to the
// page, except in a warm-up replay, wifoddsAnswer(request, true), which
// the worker makes while idle so the browser optimises the engine's code
// (web/static/worker.js).
package main
