// Package browser is the browser build's calling convention over the
// front door (package answer): one call is the JSON text
//
//	{"command": "run"|"compare"|"sweep"|"plan"|"parse"|"stack"|"schema",
//	 "params": {"method": ["exact"], ...},   // the server's query parameters
//	 "scenario": "...", "crt": "...", "air_tables": "..."}  // file contents
//
// and its answer the HTTP status the server would give and the JSON bytes
// it would send. cmd/wifodds-wasm exposes Respond to the page's Web
// Worker; this package has no syscall/js in it, so its tests and fuzz
// target run everywhere. It reads the parameters with the server's own
// reader (package answer/query): the same names, bounds and refusals,
// since a link can carry any request.
package browser
