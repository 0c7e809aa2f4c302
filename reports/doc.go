// Package reports renders what the analysis computed; it computes nothing
// itself and writes only to the io.Writer (or the byte slice) it is given.
//
//   - A run: WriteText (a land combat, invasion or paradrop), WriteRaidText
//     (a raid or campaign), WriteJSON (any summary, the machine contract,
//     written by answer.AppendJSON as every surface writes it),
//     WriteExplain (the --explain working), WriteOperationText (a fixed
//     operation of several combats).
//   - A comparison: WriteCompareText, WriteCompareCSV, WriteCompareMarkdown,
//     WriteCompareHTML (a self-contained page with its charts inline).
//   - A sweep: WriteSweepText, WriteSweepCSV, WriteSweepMarkdown,
//     WriteSweepHTML.
//   - Plans: WritePlanText, WritePlanCSV, WritePlanMarkdown, WritePlanHTML
//     (the attacker's); WriteDefenceText, WriteDefenceCSV,
//     WriteDefenceMarkdown, WriteDefenceHTML (the defender's).
//   - Batteries: WriteBatteryText, WriteBatteryCSV, WriteBatteryMarkdown,
//     WriteBatteryHTML.
//   - The CRT lab: WriteCellWeightsText, WriteCellWeightsCSV,
//     WriteDesignText.
//   - Tables: WriteCRT, a CRT with the provenance of every row.
//   - Charts (gonum/plot): ResultMixChart and LossChart for comparisons,
//     OddsCurveChart and HeatMapChart for sweeps, saved as PNG or SVG by
//     SaveChart.
//
// Every text, CSV and Markdown report is written through Sanitise, and JSON
// escapes the same controls, so no user string (a scenario's or variant's
// name) reaches a terminal as a control sequence.
package reports
