package answer

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

func example(t *testing.T, name string) Input {
	t.Helper()
	text, err := os.ReadFile("../examples/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return Input{Name: "request.yaml", Text: text, Options: scenario.ParseOptions{NoFiles: true}, Tables: Supplied{}}
}

var exact = analysis.Request{Engine: analysis.Exact, Budget: sim.DefaultPathBudget, Sample: sim.Config{Trials: 1000, Seed: 1, Workers: 1}}

// The request's own faults are InputErrors (a server's 400), each wrong
// kind of scenario with its sentinel for the surface to word; a combat's
// faults are not.
func TestErrorKinds(t *testing.T) {
	ctx := context.Background()
	bad := Input{Name: "request.yaml", Text: []byte("kind: land\n"), Tables: Supplied{}}
	cases := []struct {
		name  string
		err   error
		is    error
		input bool
		text  string
	}{
		{"bad scenario", second(Run(ctx, bad, RunFlags{Request: exact})), nil, true, "attacker: missing"},
		{"plan to run", second(Run(ctx, example(t, "plan-one-hex"), RunFlags{Request: exact})), ErrIsPlan, true, ""},
		{"plan to compare", second(Compare(ctx, example(t, "plan-one-hex"), CompareFlags{Request: exact, Variants: []string{"a=crt=2d6"}})), ErrIsPlan, true, ""},
		{"bombardment to sweep", second(Sweep(ctx, example(t, "dusseldorf-bombardment"), SweepFlags{Axis: analysis.Attack, Totals: analysis.Range{Lo: 1, Hi: 9}})), ErrBombardment, true, ""},
		{"nothing to plan", second(Plan(ctx, example(t, "wild-results-3to1"), PlanFlags{})), ErrNotPlan, true, ""},
		{"raids on land", second(Run(ctx, example(t, "wild-results-3to1"), RunFlags{Request: exact, Raids: 3})), nil, true, "raids applies only to bombardments"},
		{"too many raids", second(Run(ctx, example(t, "dusseldorf-bombardment"), RunFlags{Request: exact, Raids: 1 << 20})), nil, true, "raids 1048576"},
		{"no variant", second(Compare(ctx, example(t, "wild-results-3to1"), CompareFlags{Request: exact})), nil, true, "at least one variant"},
		{"bad variant", second(Compare(ctx, example(t, "wild-results-3to1"), CompareFlags{Request: exact, Variants: []string{"x=speed=3"}})), nil, true, "variant x: override"},
		{"unknown table", second(Compare(ctx, example(t, "wild-results-3to1"), CompareFlags{Request: exact, Variants: []string{"x=crt=mine.yaml"}})), nil, true, `crt "mine.yaml"`},
		{"target over 1", second(Plan(ctx, example(t, "plan-one-hex"), PlanFlags{Target: 1.5})), nil, true, "a chance is at most 1"},
		{"sweep target", second(Sweep(ctx, example(t, "wild-results-3to1"), SweepFlags{Axis: analysis.Attack, Totals: analysis.Range{Lo: 1, Hi: 9}, Target: 2})), nil, true, "target 2"},
		{"replayed roll", second(Run(ctx, example(t, "wild-results-3to1"), RunFlags{Request: exact, Dice: []int{7, 1}})), nil, false, ""},
	}
	for _, c := range cases {
		var ie *InputError
		switch {
		case c.err == nil:
			t.Errorf("%s: no error", c.name)
		case errors.As(c.err, &ie) != c.input:
			t.Errorf("%s: %v: InputError %v, want %v", c.name, c.err, !c.input, c.input)
		case c.is != nil && !errors.Is(c.err, c.is):
			t.Errorf("%s: %v, want %v", c.name, c.err, c.is)
		case !strings.Contains(c.err.Error(), c.text):
			t.Errorf("%s: %v, want %q", c.name, c.err, c.text)
		}
	}
	var re *analysis.ReplayError
	if _, err := Run(ctx, example(t, "wild-results-3to1"), RunFlags{Request: exact, Dice: []int{7, 1}}); !errors.As(err, &re) {
		t.Errorf("a bad replayed roll: %v, want *analysis.ReplayError for the caller to place", err)
	}
}

func second[T any](_ T, err error) error { return err }

// A sweep none of whose totals reaches the units' own is a NoStepError
// carrying the notes.
func TestSweepWithNoStep(t *testing.T) {
	_, err := Sweep(context.Background(), example(t, "wild-results-3to1"), SweepFlags{Axis: analysis.Attack, Totals: analysis.Range{Lo: 0, Hi: 1}, Budget: sim.DefaultPathBudget})
	var none *NoStepError
	if !errors.As(err, &none) || len(none.Notes) == 0 {
		t.Errorf("%v, want a NoStepError with notes", err)
	}
}

// The dice given replace the scenario's; none given, the scenario's are
// replayed; Value and Run read the answer of either kind.
func TestRunReplayAndValue(t *testing.T) {
	ctx := context.Background()
	own, err := Run(ctx, example(t, "wild-results-3to1"), RunFlags{Request: exact})
	if err != nil {
		t.Fatal(err)
	}
	given, err := Run(ctx, example(t, "wild-results-3to1"), RunFlags{Request: exact, Dice: []int{6, 6}})
	if err != nil {
		t.Fatal(err)
	}
	if own.Land == nil || own.Land.Replay == nil || given.Land.Replay == nil {
		t.Fatal("no replay")
	}
	if got := own.Land.Replay.Dice; len(got) != 2 || got[0] != 5 || got[1] != 1 {
		t.Errorf("the scenario's dice replayed as %v, want [5 1]", got)
	}
	if got := given.Land.Replay.Dice; got[0] != 6 || got[1] != 6 {
		t.Errorf("the given dice replayed as %v, want [6 6]", got)
	}
	raid, err := Run(ctx, example(t, "dusseldorf-bombardment"), RunFlags{Request: exact, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	if raid.Value() != any(raid.Raid) || raid.Run() != &raid.Raid.Run || len(raid.Raid.Working) == 0 {
		t.Error("a bombardment's answer is not its raid summary, with the working")
	}
	if own.Value() != any(own.Land) || own.Run() != &own.Land.Run {
		t.Error("a land combat's answer is not its summary")
	}
}
