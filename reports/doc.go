// Package reports renders what the simulator computed: run summaries as
// text for a player or JSON for machines, the working behind a combat
// (--explain), and CRT tables with their provenance.
package reports
