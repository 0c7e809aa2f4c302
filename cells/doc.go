// Package cells is the CRT lab for designers (docs/crtlab.md): how much
// probability reaches each cell of a results table across a battery of
// combats, how much each headline figure moves if one cell read another
// result, what-if tables answered by reweighting the cells of combats
// already compiled, and a search for the fewest cell edits that meet a
// designer's goals.
//
// Everything here is exact: a combat's reads of its table are counted
// with the same integers its exact answer is tabulated from
// (combat.Reads), and every figure is such a count over the combat's
// number of dice sequences.
package cells
