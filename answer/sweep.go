package answer

import (
	"context"
	"strings"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/crt"
)

// SweepFlags are `wifodds sweep`'s flags.
type SweepFlags struct {
	Axis      analysis.Axis  // the total swept: attack or defence
	Totals    analysis.Range // its values
	Modifiers []int          // die-roll modifiers to sweep too; nil: the scenario's
	CRTs      []string       // the tables; nil: the scenario's
	Cells     []string       // cell edits TABLE/ODDS/ROLL:RESULT: each table is swept edited too
	Budget    int            // most dice paths exact enumeration may walk per step
	Target    float64        // report where P(hex taken) reaches it; 0: none
	Progress  func(done, planned uint64)
}

// NoStepError is a sweep none of whose totals reaches what the units
// already bring.
type NoStepError struct{ Notes []string }

func (e *NoStepError) Error() string {
	return "no step is at or above what the units already bring: " + strings.Join(e.Notes, "; ")
}

// CellEditError is a cell edit that does not fit a table swept; each
// surface names its own flag or parameter.
type CellEditError struct{ Err error }

func (e *CellEditError) Error() string { return "cell: " + e.Err.Error() }
func (e *CellEditError) Unwrap() error { return e.Err }

// Sweep answers `wifodds sweep`. A sweep with no step comes back as
// *NoStepError, for the caller to say which range.
func Sweep(ctx context.Context, in Input, f SweepFlags) (*analysis.Sweep, error) {
	s, err := in.land()
	if err != nil {
		return nil, err
	}
	if f.Target < 0 || f.Target > 1 {
		return nil, inputf("target %v: want a probability above 0 and at most 1", f.Target)
	}
	names := f.CRTs
	if len(names) == 0 {
		names = []string{s.CRT}
	}
	var tables []*crt.Table
	for _, n := range names {
		t, err := in.Tables.CRT(s, strings.TrimSpace(n))
		if err != nil {
			return nil, err
		}
		tables = append(tables, t)
	}
	if len(f.Cells) > 0 {
		for _, t := range tables[:len(tables):len(tables)] {
			e, err := t.EditCells(f.Cells)
			if err != nil {
				return nil, &InputError{&CellEditError{err}}
			}
			tables = append(tables, e)
		}
	}
	air, err := in.Tables.Air(s)
	if err != nil {
		return nil, err
	}
	sw, err := analysis.RunSweep(ctx, s, tables, air, f.Axis, f.Totals, f.Modifiers, f.Budget, f.Progress)
	if err != nil {
		return nil, err
	}
	if len(sw.Steps) == 0 {
		return nil, &NoStepError{sw.Notes}
	}
	if f.Target > 0 {
		sw.Reached = sw.Reach(f.Target)
	}
	return sw, nil
}
