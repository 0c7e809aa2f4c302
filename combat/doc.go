// Package combat holds the rules: it compiles a scenario into a Combat or
// a Raid that the engine (package sim) can run.
//
// Compile works out, once, everything that does not depend on the dice:
// totals, odds, die-roll modifiers, the table choice and the settled
// outcome of every row of the table read (both tables when the players
// choose between them) with losses allocated (docs/rules.md §1–§4,
// §6), and every state the pre-combat random steps (fractional odds,
// ground strikes, naval strikes, AA fire at ground support) can leave.
// Resolve is the one resolution routine: it rolls the dice a combat
// consumes, in the order docs/scenario-format.md fixes, and returns the
// index of the outcome. CompileRaid and the Raid's routine do the same for
// a strategic bombardment (§5), and Campaign flies several raids carrying
// losses forward. Both types are sim.Models: exact enumeration, replay,
// flat tables and Monte Carlo all run the same routine (a land replay by
// ResolveRoll, Resolve's dice in Resolve's order, which also gives the CRT
// roll the table read; a test holds the two equal). A Combat is also a
// sim.Tabulator: Tabulate counts, step by step, the sequences of
// pre-combat dice that reach each state (what running the routine's
// pre-combat part, preState, on every sequence gives; a test compares
// them) and weights each state's CRT cells, so exact answers need not
// walk the whole dice tree. Its flat table, or for a large tree with
// pre-combat steps its two-level table (Factored), is built on the first
// Monte Carlo run.
//
// The package does no I/O, except that a combat whose ground support
// faces AA fire loads the air tables its scenario names.
package combat
