// Package web is wifodds' local web app: an HTTP server (net/http, log/slog)
// that serves an embedded page for building a combat by pointing and
// clicking and a JSON API the page uses (POST /api/run, /api/compare,
// /api/sweep, /api/plan, /api/parse, /api/weights; GET /api/crt/{name}, /api/schema,
// /api/stack). Every rule
// stays in Go: each handler reads its query parameters through the
// reader the browser build shares (package answer/query) and calls the
// front door (package answer), as the CLI does, so the API answers with
// exactly the JSON the CLI writes for the same scenario and flags, and
// the page only draws it. Page returns the page's files for `wifodds
// site`, which runs the same page with the engine in the browser.
//
// The server is safe by default (docs/web.md): it listens on loopback,
// refuses a Host header that is not its own (DNS rebinding) and a request
// another site's page makes (Sec-Fetch-Site, Origin), reads only YAML,
// JSON and multipart bodies of at most MaxBody bytes arriving within
// BodyTimeout, before taking a computation's slot, checks a JSON body's
// nesting before decoding it, caps trials, bounds each computation by a
// deadline and cancels it when the client goes away, runs at most
// Concurrency computations at once (503 with Retry-After beyond), never
// touches the server's files on a request's behalf, puts its security
// headers on every answer, and turns a panic into a 500 and a log line.
package web
