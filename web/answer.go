package web

import (
	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/scenario"
)

// answer is the front door's input for a request: the scenario as sent,
// naming no server file, its tables built-in or uploaded (answer.Supplied,
// as the browser build's).
func (in *input) answer() answer.Input {
	a := answer.Input{Name: in.name, Text: in.text, Options: scenario.ParseOptions{NoFiles: true},
		Tables: answer.Supplied{CRTTable: in.crt, AirTables: in.air}}
	if in.crt != nil {
		a.CRT = "uploaded"
	}
	if in.air != nil {
		a.Air = "uploaded"
	}
	return a
}
