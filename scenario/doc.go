// Package scenario loads the YAML scenario files of docs/scenario-format.md: one land
// combat, invasion, paradrop or strategic bombardment, written by hand.
//
// Loading is strict. Unknown keys, wrong types and impossible values are
// errors naming the file, line and key; nothing is silently ignored, and
// every problem in a file is reported at once. A loaded Scenario has passed
// every check that does not need a CRT; the simulator checks the rest.
package scenario
