package main

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// files opens the tables a command names (answer.Tables): the scenario's
// and plan.crts from the scenario's folder, those of the flags (--crt, a
// variant's, a sweep's list) from the working folder, with errors naming
// the line or the flag.
type files struct{ crtFlag string }

func (f files) CRT(s *scenario.Scenario, ref string) (*crt.Table, error) {
	if s.Plan != nil {
		if i := slices.Index(s.Plan.CRTs, ref); i >= 0 {
			t, err := crt.Open(ref, filepath.Dir(s.File))
			if err != nil {
				return nil, fmt.Errorf("%s: plan.crts: %w", s.Plan.CRTPos[i], err)
			}
			return t, nil
		}
	}
	return openCRT(s, ref, f.crtFlag != "" && ref == f.crtFlag)
}

func (files) Air(s *scenario.Scenario) (*crt.AirTables, error) { return openAir(s) }

// input is the front door's input for a scenario loaded from its file:
// its tables were found when it was loaded, so it is parsed again from
// its bytes without looking; crtFlag is --crt, which replaces its table.
func input(s *scenario.Scenario, crtFlag string) answer.Input {
	return answer.Input{Name: s.File, Text: s.Source, Options: scenario.ParseOptions{TablesGiven: true}, CRT: crtFlag, Tables: files{crtFlag}}
}
