// Package benchmarks measures simulator throughput. Workloads are shared by
// the Go benchmarks in this package (go test -bench) and by `wifodds bench`,
// which runs them in-process and reports each one's trials per second as a
// ratio to the Limit workload measured in the same run: the floor no
// simulator can beat on the machine (two dice, a table lookup and a
// histogram increment per trial). Ratios, not absolute times, are what CI
// gates on, because machines vary.
package benchmarks
