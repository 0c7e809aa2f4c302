// Package benchmarks measures simulator throughput. Workloads are shared by
// the Go benchmarks in this package (go test -bench) and by `wifodds bench`,
// which runs them in-process. A sampling workload is measured beside its
// limit kernel (limit.go): the fastest exact method we know for the same
// work, free of the engine's obligations (a seed's stream, the Model
// interface, the pool); its ratio to the limit is how much of the machine's
// speed for that work the engine delivers. An answer workload (exact
// answers, plans, a battery) is measured against its target time. Gate
// checks the ratios against committed thresholds, re-measuring a workload
// that falls short; ratios rather than absolute times are gated because
// machines vary (docs/performance.md).
package benchmarks
