package answer

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/plan"
)

// A defender's plan is answered by Defend and an attacker's by Plan; each
// refuses the other's as a fault of the request, and PlanSide answers
// either with the side's own answer.
func TestPlanSides(t *testing.T) {
	ctx := context.Background()
	hold, attack := example(t, "hold-smolensk"), example(t, "plan-one-hex")
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"defender's plan to Plan", second(Plan(ctx, hold, PlanFlags{})), "answered by the defender's question"},
		{"attacker's plan to Defend", second(Defend(ctx, attack, PlanFlags{})), "not a defender's plan"},
		{"target over 1", second(Defend(ctx, hold, PlanFlags{Target: 1.5})), "a chance is at most 1"},
	} {
		var ie *InputError
		if !errors.As(c.err, &ie) || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want an InputError saying %q", c.name, c.err, c.want)
		}
	}
	d, err := PlanSide(ctx, hold, PlanFlags{})
	if _, ok := d.(*plan.Defence); err != nil || !ok {
		t.Errorf("PlanSide of a defender's plan: %T, %v", d, err)
	}
	a, err := PlanSide(ctx, attack, PlanFlags{})
	if _, ok := a.(*plan.Result); err != nil || !ok {
		t.Errorf("PlanSide of an attacker's plan: %T, %v", a, err)
	}
	dd, err := Defend(ctx, hold, PlanFlags{Target: 0.7})
	if err != nil || dd.Target == nil || *dd.Target != 0.7 || dd.Recommended == nil || dd.Recommended.Cost != 19 {
		t.Errorf("--target 0.7 overrides the file's: %+v, %v", dd, err)
	}
}
