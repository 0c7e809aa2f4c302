//go:build !js

package plan

// parallelBuild says whether this build may share a search's work among
// goroutines (the front bound's batched checks, a one-hex layer built in
// halves). Every answer is the same bytes on any number of workers
// (TestPlanWorkerInvariance, TestPrunedFrontWorkerInvariant,
// TestSplitLayerIsOne), so leaving those paths out changes no answer.
const parallelBuild = true
