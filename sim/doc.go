// Package sim is the sampling engine, and knows nothing of the rules.
//
// A Model (a compiled combat or raid, from package combat) is a random
// process whose trials read dice from a Dice and return an outcome index.
// The engine runs it three ways:
//
//   - Exact enumerates every path of the dice tree with its probability
//     (or reads the model's flat table, or, for a Tabulator, takes the
//     counts of flat-table indices the model works out from its states),
//     so exact answers come from the very routine that is sampled; every
//     route gives the same weights to the bit where a flat table exists.
//     A budget bounds the paths a walk may take; Fits tells whether a
//     model's exact answer fits one (a tabulated answer walks none).
//   - Sample runs seeded Monte Carlo trials, chunk by chunk on a pool of
//     workers, tallying outcome indices in integer histograms; a model
//     laid out by BuildFlat is sampled by drawing uniform indices into its
//     table. SampleKeys and SampleJoint do the same for outcomes keyed in a
//     map (campaigns) and for two models on the same trials (comparisons).
//   - Forced replays listed rolls.
//
// Every run returns a stats.Tally with a Run record of how it was made.
// Results depend on the seed and the number of trials, never on the number
// of workers (docs/performance.md).
package sim
