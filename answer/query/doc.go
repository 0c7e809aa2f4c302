// Package query reads the server's query parameters for the front door:
// the names each command takes (Check refuses an unknown or repeated one,
// as the CLI refuses an unknown or repeated flag), their bounds, and the
// answer of run, compare, sweep or plan for them (Run, Compare, Sweep,
// Plan); Message and Refusal word an error and give its status. The
// server (package web) reads the parameters from a URL, the browser build
// (package answer/browser) from the page's JSON call; both read them
// here, so the two refuse the same requests with the same words. A
// parameter refused is an *answer.InputError: a 400 on either surface.
package query
