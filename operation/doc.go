// Package operation answers a fixed operation: several combats, each with
// its given force, some attacked only once others are taken. Each combat
// is run as `wifodds run` runs one (package analysis); the joint
// distribution of the hexes taken (Joint) follows exactly, since combats
// on different hexes are independent once their forces are fixed and a
// combat that requires others is conditioned on them. Objectives score a
// joint distribution, for the planner to optimise (docs/operations.md).
package operation
