//go:build js

package plan

// parallelBuild is false in the browser's engine: it runs on one thread
// and asks for one worker (answer/browser), so the paths that share a
// search among goroutines would never run there, and leaving them out
// keeps the engine within its download budget (docs/performance.md). The
// answers are the same bytes on any number of workers, so the browser's
// are the native engine's.
const parallelBuild = false
