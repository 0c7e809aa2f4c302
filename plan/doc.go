// Package plan answers "which units should I send?": it weighs every force
// a plan file allows (docs/scenario-format.md, Plans) with the compiled
// exact engine, and reports the Pareto frontier of the chance of taking
// the hex against what the force costs, the cheapest force reaching a
// target chance, and what one more unit buys. For a front of several
// hexes it searches the assignments of units to hexes for the most hexes
// taken at each cost.
//
// Units with the same combat attributes are interchangeable: the planner
// weighs each multiset of them once (a "distinct combat") and stands it
// for every subset it covers, taking the cheapest units of a class first.
// docs/planner.md explains the search and its limits.
package plan
