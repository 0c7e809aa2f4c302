// Package answer is wifodds' one front door: a request in (the scenario
// file's bytes, the tables it names, the command's flags as a typed
// struct), the finished answer out, for run, compare, sweep and plan (Plan
// the attacker's, Defend the defender's, PlanSide whichever the file is),
// and the page's helpers: Document, Schema, Stack, the quick-entry
// line, and Weights, the Table tab's grid of cell weights. JSON and AppendJSON write an answer as every surface writes it. It
// parses, opens tables through the caller, compiles and computes, and
// does no file system, network or printing: the CLI (flags and files), the
// web server (HTTP) and the browser build (JavaScript values) each keep
// only their own I/O around it, so the three give the same JSON for the
// same request. Package answer/query reads the server's query parameters
// into these calls, for the server and the browser build alike.
//
// The browser build imports this package, so it must not import reports
// (gonum/plot) or net/http; `go list -deps ./cmd/wifodds-wasm` shows what it
// pulls in.
package answer
