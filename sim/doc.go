// Package sim resolves combats under the rules of docs/rules.md and estimates
// their outcome distributions.
//
// A scenario is compiled once (Compile) into a Combat: totals, odds, die-roll
// modifiers, table choice and the settled outcome of every table row, with
// losses already allocated. Resolve is the one resolution routine: it reads
// the dice a combat consumes, in the order docs/scenario-format.md fixes, from a Dice
// and returns the index of the outcome. It is written once and serves three
// ways of rolling:
//
//   - Replay: Forced dice give the rolls a scenario lists, then random ones.
//   - Exact: Exact runs Resolve over every path of the dice tree and weighs
//     each path by its probability, so the exact engine cannot drift from
//     the simulator.
//   - Monte Carlo: Sample runs Resolve on seeded Streams, chunk by chunk on a
//     pool of workers, tallying outcome indices in integer histograms.
//
// Summarize turns either tally into the probabilities, intervals and
// distributions a report shows.
package sim
