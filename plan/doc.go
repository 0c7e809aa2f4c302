// Package plan answers "which units should I send?": it weighs the forces
// a plan file allows (docs/scenario-format.md, Plans) with the compiled
// exact engine, and reports the Pareto frontier of the chance of taking
// the hex against what the force costs, the cheapest force reaching a
// target chance, and what one more unit buys. For a front of several
// hexes it searches the assignments of units, and of the shared pool of
// support (aircraft, ships at coastal hexes, HQs: pool.go), to hexes for
// the most hexes taken at each cost, or for the best chance of the plan's
// objective (every hex, at least K, a set), hexes that wait on others
// (requires) attacked only once those are taken: objective.go's scorer
// reads every figure from the exact joint distribution of the hexes taken.
//
// It searches combat states rather than subsets: a force's combat depends
// on its units only through a few sums, counts and flags (state.go), so
// the search keeps one force per state (search.go; on a front, one
// assignment per tuple of the hexes' states, front.go) and weighs each
// distinct combat once. Units with the same combat attributes
// are interchangeable: a force sending k of a class sends its k cheapest.
// docs/planner.md explains the search and its limits.
package plan
