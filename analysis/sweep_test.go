package analysis

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

func TestSweep(t *testing.T) {
	s, err := scenario.Load("../examples/fractional-odds-16to3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s.Options = map[string]bool{}
	std, _ := crt.Builtin("standard")
	two, _ := crt.Builtin("2d6")
	sw, err := RunSweep(context.Background(), s, []*crt.Table{std, two}, nil, Attack, Range{10, 40}, []int{-1, 0, 1}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 16 factors of units: 10..15 are skipped for each CRT and modifier,
	// said once per CRT (issue 15: repeated notes collapse with a count).
	if len(sw.Steps) != 2*3*25 || len(sw.Notes) != 2 ||
		sw.Notes[0] != "standard: 6 step(s) below the attack the units already bring (16) skipped (the same for each of 3 modifiers)" {
		t.Fatalf("%d steps, notes %q", len(sw.Steps), sw.Notes)
	}
	for i, st := range sw.Steps {
		if st.Attack < 16 || st.Defence != 3 {
			t.Fatalf("step %+v", st)
		}
		if i > 0 && sw.Steps[i-1].CRT == st.CRT && sw.Steps[i-1].Modifier == st.Modifier {
			// More factors never lower the chance of taking the hex.
			if st.HexTaken < sw.Steps[i-1].HexTaken-1e-12 {
				t.Errorf("%s %+d: P(hex taken) fell from %v to %v at %v", st.CRT, st.Modifier, sw.Steps[i-1].HexTaken, st.HexTaken, st.Attack)
			}
			if st.OddsChanged != (st.Odds != sw.Steps[i-1].Odds) {
				t.Errorf("odds change marker wrong at %v", st.Attack)
			}
		}
	}
	// 18:3 reaches 6:1 on the 2D6 table.
	for _, st := range sw.Steps {
		if st.CRT == "2d6" && st.Modifier == 0 && st.Attack == 18 && (st.Odds != "6:1" || !st.OddsChanged) {
			t.Errorf("18:3 on 2d6: %+v", st)
		}
	}
}

// Reach finds the first attack total whose P(hex taken) meets the target
// under each CRT and modifier, and says when none does.
func TestSweepReach(t *testing.T) {
	sw := &Sweep{Axis: Attack, Steps: []SweepStep{
		{CRT: "a", Attack: 10, Odds: "1:1", HexTaken: 0.5}, {CRT: "a", Attack: 11, Odds: "1:1", HexTaken: 0.75},
		{CRT: "a", Attack: 12, Odds: "2:1", HexTaken: 0.9}, {CRT: "b", Attack: 10, HexTaken: 0.1}}}
	got := sw.Reach(0.75)
	if len(got) != 2 || !got[0].Found || got[0].Total != 11 || got[0].Odds != "1:1" || got[1].Found {
		t.Errorf("%+v", got)
	}
	sw.Axis = Defence
	sw.Steps = []SweepStep{{CRT: "a", Defence: 3, HexTaken: 0.9}, {CRT: "a", Defence: 4, HexTaken: 0.8}, {CRT: "a", Defence: 5, HexTaken: 0.6}}
	if got := sw.Reach(0.75); !got[0].Found || got[0].Total != 4 {
		t.Errorf("defence: %+v", got)
	}
}

// Every long computation can be interrupted: a sweep of small combats,
// each answered from its flat table without enumerating, stops between
// steps once its context is cancelled.
func TestSweepStopsBetweenSteps(t *testing.T) {
	s, err := scenario.Load("../examples/fractional-odds-16to3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	std, _ := crt.Builtin("standard")
	ctx, cancel := context.WithCancel(context.Background())
	steps := uint64(0)
	_, err = RunSweep(ctx, s, []*crt.Table{std}, nil, Attack, Range{16, 400}, nil, 0, func(done, planned uint64) {
		if steps = done; done == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || steps != 3 {
		t.Fatalf("after cancelling at step 3: %d steps, error %v", steps, err)
	}
}

// Issue 23 item 8: a table swept twice would print each row twice; it is
// refused, naming the table.
func TestSweepRefusesRepeatedTable(t *testing.T) {
	s, err := scenario.Load("../examples/fractional-odds-16to3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	std, _ := crt.Builtin("standard")
	_, err = RunSweep(context.Background(), s, []*crt.Table{std, std}, nil, Attack, Range{10, 12}, nil, 0, nil)
	if err == nil || !strings.Contains(err.Error(), "CRT standard is given twice") {
		t.Errorf("got %v", err)
	}
}
