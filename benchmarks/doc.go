// Package benchmarks measures simulator throughput. Workloads are shared by
// the Go benchmarks in this package (go test -bench) and by `wifodds bench`,
// which runs them in-process. A workload is measured in short slices, each
// beside a slice of its limit kernel (limit.go, exactlimit.go): the fastest
// exact method we know for the same work, free of the engine's obligations
// (a seed's stream, the Model interface, the pool); the median of the
// pairs' ratios is how much of the machine's speed for that work the engine
// delivers. An answer workload (exact answers, plans, a battery) without a
// kernel is measured against its target time. Gate checks the medians
// against committed thresholds, pooling a second measurement for a workload
// that falls short; ratios rather than absolute times are gated because
// machines vary (docs/performance.md).
package benchmarks
