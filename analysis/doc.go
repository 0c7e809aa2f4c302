// Package analysis turns what the engine counted into what a player reads.
//
// RunCombat and RunRaid run a compiled combat or raid as a Request says
// (exact, Monte Carlo, or exact when the answer fits the budget: a
// tabulated combat always does, a walked tree by its paths) and
// return the finished summary: Summarize, SummarizeRaid and
// SummarizeCampaign give the probability of every result and headline
// event with intervals, the loss distributions and means (docs/rules.md
// §7), together with the engine's run record and the warnings about the
// method chosen; figures named by result, odds level, table, factor total
// or unit type are Keyed lists in key order, which encode to JSON as maps.
// Replay and ReplayRaid resolve listed rolls and audit the luck of the
// outcome. CompareExact and CompareSampled put variants side by side (the
// latter with common random numbers); RunSweep varies a side's total and
// the modifier. Package shard splits a large run across processes.
package analysis
