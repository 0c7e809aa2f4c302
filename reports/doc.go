// Package reports renders what the analysis computed; it computes nothing
// itself and writes only to the io.Writer (or the byte slice) it is given.
//
//   - A run: WriteText (a land combat, invasion or paradrop), WriteRaidText
//     (a raid or campaign), WriteJSON (any summary, the
//     machine contract; a land combat's written without reflection),
//     WriteExplain (the --explain working).
//   - A comparison: WriteCompareText, WriteCompareCSV, WriteCompareMarkdown,
//     WriteCompareHTML (a self-contained page with its charts inline).
//   - A sweep: WriteSweepText, WriteSweepCSV, WriteSweepMarkdown,
//     WriteSweepHTML.
//   - Tables: WriteCRT, a CRT with the provenance of every row.
//   - Charts (gonum/plot): ResultMixChart and LossChart for comparisons,
//     OddsCurveChart and HeatMapChart for sweeps, saved as PNG or SVG by
//     SaveChart.
//
// Every text, CSV and Markdown report is written through Sanitise, and JSON
// escapes the same controls, so no user string (a scenario's or variant's
// name) reaches a terminal as a control sequence.
package reports
