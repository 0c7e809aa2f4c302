package answer

import (
	"errors"
	"fmt"
	"strings"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// Input is a request's scenario and where its tables come from.
type Input struct {
	Name    string                // the name errors give the scenario: its file, or request.yaml
	Text    []byte                // the scenario file's content
	Options scenario.ParseOptions // how table keys are taken (NoFiles for a request from the network)
	CRT     string                // when set, replaces the scenario's crt (run --crt; an uploaded table)
	Air     string                // when set, names the air tables in place of the scenario's (an uploaded file)
	Tables  Tables                // opens the tables the scenario and the flags name
}

// Tables opens the tables a request names. The CLI opens files (relative
// to the scenario or the working folder, with errors naming the flag or
// the line); a server or the browser answers from built-in and uploaded
// tables only.
type Tables interface {
	// CRT opens the table ref names: the scenario's, a variant's, a
	// sweep's or a plan's.
	CRT(s *scenario.Scenario, ref string) (*crt.Table, error)
	// Air opens the scenario's air tables.
	Air(s *scenario.Scenario) (*crt.AirTables, error)
}

// Supplied is Tables for a request without files: the built-in tables and
// the ones uploaded with it, named "uploaded".
type Supplied struct {
	CRTTable  *crt.Table     // the uploaded CRT, or nil
	AirTables *crt.AirTables // the uploaded air tables, or nil for the built-in strategic ones
}

// CRT opens a built-in table or the uploaded one.
func (u Supplied) CRT(_ *scenario.Scenario, ref string) (*crt.Table, error) {
	if ref == "uploaded" && u.CRTTable != nil {
		return u.CRTTable, nil
	}
	if n, ok := crt.BuiltinName(ref); ok {
		return crt.Builtin(n)
	}
	return nil, &InputError{fmt.Errorf("crt %q: a table here is built-in (%s) or uploaded", ref, strings.Join(crt.Names(), ", "))}
}

// Air is the uploaded air tables or the built-in strategic ones.
func (u Supplied) Air(*scenario.Scenario) (*crt.AirTables, error) {
	if u.AirTables != nil {
		return u.AirTables, nil
	}
	return crt.BuiltinAir("strategic")
}

// InputError is an error in the request itself (the scenario, a flag, the
// wrong command for the scenario), as against a combat the rules refuse
// or a computation that failed: a server answers it with 400.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

func inputf(format string, args ...any) error {
	return &InputError{fmt.Errorf(format, args...)}
}

// The scenario is the wrong kind for the command; each surface words where
// to send it.
var (
	ErrIsPlan      = errors.New("this is a plan (it lists units the attack may add)")
	ErrNotPlan     = errors.New("nothing to plan: list the units the attack may add under attacker.available")
	ErrBombardment = errors.New("compare, sweep and plan take land combats, invasions and paradrops; run a bombardment one at a time")
)

// parse validates the scenario and applies the input's table overrides.
func (in Input) parse() (*scenario.Scenario, error) {
	s, err := scenario.ParseWith(in.Name, in.Text, in.Options)
	if err != nil {
		return nil, &InputError{err}
	}
	if in.CRT != "" {
		s.CRT = in.CRT
	}
	if in.Air != "" {
		s.AirTables, s.Raid.AirTables = in.Air, in.Air
	}
	return s, nil
}

// land parses a land combat, invasion or paradrop that is not a plan: what
// compare and sweep take.
func (in Input) land() (*scenario.Scenario, error) {
	s, err := in.parse()
	switch {
	case err != nil:
		return nil, err
	case s.Kind == scenario.Bombardment:
		return nil, &InputError{ErrBombardment}
	case s.IsPlan():
		return nil, &InputError{ErrIsPlan}
	}
	return s, nil
}

// asInput marks err as the request's fault when it is an E.
func asInput[E error](err error) error {
	var e E
	if errors.As(err, &e) {
		return &InputError{err}
	}
	return err
}
