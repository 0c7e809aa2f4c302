package answer

import (
	"context"
	"errors"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/operation"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// RunFlags are `wifodds run`'s flags.
type RunFlags struct {
	analysis.Request       // the engine, budget and sampling; Replay is set from Dice
	Dice             []int // replay these rolls; nil: the scenario's dice list
	Explain          bool  // keep the working
	Raids            int   // a bombardment's raids in a campaign; 0: not asked (one raid)
	// Cells are cell edits TABLE/ODDS/ROLL:RESULT applied to the table
	// before the combat is compiled (the page's Table tab); a bad one
	// comes back as *CellEditError in an InputError.
	Cells []string
}

// ErrRaidsNotBombardment is a number of raids asked of a combat that is not
// a bombardment; each surface names its own flag or parameter.
var ErrRaidsNotBombardment = errors.New("raids applies only to bombardments")

// ErrCellsBombardment is a cell edit asked of a bombardment, which reads
// no CRT; each surface names its own flag or parameter.
var ErrCellsBombardment = errors.New("cell edits apply to a combat's CRT: a bombardment reads the air tables")

// RunAnswer is what run answers: one of Land, Raid and Operation, with the
// working.
type RunAnswer struct {
	Scenario  *scenario.Scenario
	Land      *analysis.Summary     // a land combat, invasion or paradrop
	Raid      *analysis.RaidSummary // a bombardment
	Operation *operation.Result     // several combats with given forces
	Steps     []combat.Step         // how totals, odds and table were reached
}

// Value is the answer as its JSON holds it.
func (a *RunAnswer) Value() any {
	if a.Operation != nil {
		return a.Operation
	}
	if a.Raid != nil {
		return a.Raid
	}
	return a.Land
}

// Run is how the run went: trials, elapsed time, whether it was cut short
// (an operation's combats each carry their own).
func (a *RunAnswer) Run() *sim.Run {
	if a.Operation != nil {
		return &sim.Run{}
	}
	if a.Raid != nil {
		return &a.Raid.Run
	}
	return &a.Land.Run
}

// Run answers `wifodds run`: a land combat, invasion or paradrop, or a
// bombardment (one raid, or a campaign of raids). A replayed roll that
// does not fit comes back as *analysis.ReplayError for the caller to say
// where it came from.
func Run(ctx context.Context, in Input, f RunFlags) (*RunAnswer, error) {
	s, err := in.parse()
	if err != nil {
		return nil, err
	}
	if s.IsPlan() {
		return nil, &InputError{ErrIsPlan}
	}
	f.Replay = s.Dice
	if f.Dice != nil {
		f.Replay = f.Dice
	}
	if s.IsOperation() {
		return runOperation(ctx, in, s, f)
	}
	if s.Kind == scenario.Bombardment {
		if len(f.Cells) > 0 {
			return nil, &InputError{ErrCellsBombardment}
		}
		return runRaid(ctx, in, s, f)
	}
	if f.Raids != 0 {
		return nil, &InputError{ErrRaidsNotBombardment}
	}
	return runLand(ctx, in, s, f)
}

func runLand(ctx context.Context, in Input, s *scenario.Scenario, f RunFlags) (*RunAnswer, error) {
	table, err := editedCRT(in, s, f.Cells)
	if err != nil {
		return nil, err
	}
	air, err := in.Tables.Air(s)
	if err != nil {
		return nil, err
	}
	cb, err := combat.CompileWith(s, table, air, combat.Options{Explain: f.Explain})
	if err != nil {
		return nil, err
	}
	sum, err := analysis.RunCombat(ctx, cb, f.Request)
	if err != nil {
		return nil, err
	}
	if f.Explain {
		sum.Working = combat.Lines(cb.Steps)
	}
	return &RunAnswer{Scenario: s, Land: sum, Steps: cb.Steps}, nil
}

func runRaid(ctx context.Context, in Input, s *scenario.Scenario, f RunFlags) (*RunAnswer, error) {
	raids := max(f.Raids, 1)
	if raids > combat.MaxRaids {
		return nil, inputf("raids %d: want 1 to %d", raids, combat.MaxRaids)
	}
	air, err := in.Tables.Air(s)
	if err != nil {
		return nil, err
	}
	r, err := combat.CompileRaid(s, air)
	if err != nil {
		return nil, err
	}
	sum, err := analysis.RunRaid(ctx, r, f.Request, raids)
	if err != nil {
		return nil, err
	}
	if f.Explain {
		sum.Working = combat.Lines(r.Steps)
	}
	return &RunAnswer{Scenario: s, Raid: sum, Steps: r.Steps}, nil
}

// runOperation answers a fixed operation: each combat, then the joint
// figures (package operation).
func runOperation(ctx context.Context, in Input, s *scenario.Scenario, f RunFlags) (*RunAnswer, error) {
	if f.Raids != 0 {
		return nil, &InputError{ErrRaidsNotBombardment}
	}
	table, err := editedCRT(in, s, f.Cells)
	if err != nil {
		return nil, err
	}
	air, err := in.Tables.Air(s)
	if err != nil {
		return nil, err
	}
	res, err := operation.Run(ctx, s, table, air, f.Request, combat.Options{Explain: f.Explain})
	if err != nil {
		return nil, err
	}
	return &RunAnswer{Scenario: s, Operation: res}, nil
}

// editedCRT opens the scenario's table with the cell edits applied; the
// answer names it as compare names an edited variant's, "standard
// (edited)".
func editedCRT(in Input, s *scenario.Scenario, cells []string) (*crt.Table, error) {
	t, err := in.Tables.CRT(s, s.CRT)
	if err != nil {
		return nil, err
	}
	if t, _, err = editTable(t, cells); err == nil && len(cells) > 0 {
		s.CRT += " (edited)"
	}
	return t, err
}
