// Package battery runs a designer's battery: many scenarios, each under the
// same variants (CRTs, options, modifiers), compared with the first variant
// (analysis.Compare: exact where the dice tree fits the budget, Monte Carlo
// with common random numbers otherwise), and reported as one table of what
// moves and by how much. Generate makes a battery from one template and
// axes (ParseAxis: attack, defence, modifier, terrain, weather), every
// combination of their values. Variants that only edit their table's cells
// are answered, when exact, by reweighting one compile's cells (package
// cells) instead of compiling each edited table.
//
// A battery can be split into shards that run anywhere (one process, xargs,
// a Kubernetes Indexed Job, a Slurm array): shard I of N computes the
// scenarios whose index is I-1 modulo N and writes a part, sealed with a
// digest of its whole content; ReadPart streams a part and refuses one
// whose digest does not match or whose figures no comparison gives; Merge
// checks that the parts belong to one battery (the same hash of every
// scenario, table and setting, every shard once) and assembles the report,
// which is the same, byte for byte apart from timings, as the one-process
// run's.
// docs/battery.md explains how to run it.
package battery
