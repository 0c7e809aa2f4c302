// Package crt holds the land combat results tables of World in Flames as
// validated data: result codes, odds levels, the die-roll modifier schedule
// and the provenance of every row.
//
// Tables are data, not code. The two tables the tool ships (standard, the
// WiF5-style one-die table, and 2d6, the Africa Aflame alternate table) are
// YAML files embedded in the binary; a user who owns the printed game can
// load the official values from a file of the same format with Load. A Table
// is built and checked once and is immutable afterwards, so lookups on the
// hot path do no validation.
//
// Odds follow docs/rules.md §1: Totals rounds a side's total the way the
// table says, LevelFor finds the odds level, and Fractional implements the
// optional fractional-odds rule of Asia Aflame 3.15.
package crt
