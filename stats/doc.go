// Package stats turns outcome tallies into estimates: probabilities with 95%
// Wilson intervals, means with standard errors, distributions, and a
// two-sample chi-squared test of homogeneity. It works
// for both kinds of tally the simulator produces: exact probabilities (the
// interval collapses to the value) and Monte Carlo counts out of n trials.
//
// Following gonum's conventions, functions that fill a slice take the
// destination first and allocate when it is nil.
package stats
