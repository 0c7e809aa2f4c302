// Package shard splits a large Monte Carlo run across processes and puts
// it back together: each shard runs its share of the trials and writes a
// RunPart (its raw counts and everything the merge needs, sealed with a
// SHA-256 digest of its whole content); ReadRunPart refuses a part that is
// not whole as its shard wrote it, with every value range-checked before
// it is used; MergeRuns checks that the parts are every shard of one run,
// once each, and sums them into the counts the one-process run would have
// given (docs/battery.md, Size; README, sharding). Its own package, so
// the browser build, which never shards, does not carry the digest code.
package shard
