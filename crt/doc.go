// Package crt holds the tables of World in Flames as validated data: the
// land combat results tables (result codes, odds levels, the die-roll
// modifier schedule and the provenance of every row), and the air tables
// of a strategic bombardment (the AA chart, the AA dice tables and the
// Strategic Bombardment Table) with the AA-fire procedure that reads them,
// Shoot, written once for raids and for AA fire at ground support.
//
// Tables are data, not code. The two tables the tool ships (standard, the
// WiF5-style one-die table, and 2d6, the Africa Aflame alternate table) are
// YAML files embedded in the binary; a user who owns the printed game can
// load the official values from a file of the same format with Load (or
// LoadAir). A Table
// is built and checked once and is immutable afterwards, so lookups on the
// hot path do no validation.
//
// Odds follow docs/rules.md §1: Totals rounds a side's total the way the
// table says, LevelFor finds the odds level, and Fractional implements the
// optional fractional-odds rule of Asia Aflame 3.15.
package crt
