package operation_test

import (
	"context"
	"os"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/operation"
	"github.com/wifodds/wifodds/plan"
	"github.com/wifodds/wifodds/scenario"
	"go.yaml.in/yaml/v3"
)

// asOperation writes a front plan file's recommendation as a fixed
// operation: each target with the units sent to it (their plan keys
// dropped) as its attacker, its requires kept, read from the plan file's
// own text so that nothing of the planner is reused.
func asOperation(t *testing.T, text []byte, rec *plan.Force) []byte {
	t.Helper()
	var doc map[string]any
	if err := yaml.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	att := doc["attacker"].(map[string]any)
	units := map[string]map[string]any{}
	for _, u := range att["available"].([]any) {
		m := u.(map[string]any)
		units[m["id"].(string)] = m
		delete(m, "id")
		delete(m, "cost")
		delete(m, "can_attack")
	}
	delete(att, "available")
	targets := doc["targets"].([]any)
	for i, h := range rec.Hexes {
		tm := targets[i].(map[string]any)
		if tm["id"] != h.Target {
			t.Fatalf("target %d is %v, the plan's %s", i, tm["id"], h.Target)
		}
		if len(h.Units) == 0 {
			t.Fatalf("%s is not attacked: an operation's target has a force", h.Target)
		}
		side := map[string]any{}
		for k, v := range att {
			side[k] = v
		}
		var us []any
		for _, id := range h.Units {
			us = append(us, units[id])
		}
		side["units"] = us
		tm["attacker"] = side
		if tm["kind"] == nil {
			tm["kind"] = doc["kind"]
		}
	}
	delete(doc, "attacker")
	delete(doc, "plan")
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The beachhead plan's recommendation (issue 28 item 4), played out
// trial by trial as a fixed operation (each combat by the per-trial
// engine, requires followed: simulate), agrees with the plan's joint
// figures within 4.5 standard errors: each state, P(each taken),
// P(attacked) and P(all).
func TestPlanRequiresAgainstSimulation(t *testing.T) {
	const path = "../examples/beachhead-plan.yaml"
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(path, text)
	if err != nil {
		t.Fatal(err)
	}
	table, err := crt.Builtin(s.CRT)
	if err != nil {
		t.Fatal(err)
	}
	res, err := plan.Plan(context.Background(), s, plan.Config{Tables: []plan.Table{{Name: s.CRT, Table: table}}})
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Recommended
	if rec == nil || !hasRequires(s) {
		t.Fatal("the example recommends nothing, or nothing waits on another")
	}
	opText := asOperation(t, text, rec)
	op, err := scenario.Parse("beachhead-plan-as-operation.yaml", opText)
	if err != nil {
		t.Fatalf("%v\n%s", err, opText)
	}
	cs, err := operation.Compile(op, table, nil, combat.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const trials = 200000
	counts := operation.Simulate(op, cs, trials, 284)
	j := rec.Joint
	exactly := make([]int, len(cs)+1)
	taken := make([]int, len(cs))
	for m, c := range counts {
		n := 0
		for i := range cs {
			if m>>i&1 == 1 {
				taken[i] += c
				n++
			}
		}
		exactly[n] += c
	}
	for k, c := range exactly {
		operation.Within(t, "P(exactly k)", j.Exactly[k], c, trials)
	}
	for i, c := range taken {
		operation.Within(t, "P("+rec.Hexes[i].Target+" taken)", j.Taken[i], c, trials)
		need := operation.Mask(op.Operation.Targets[i].Requires)
		attacked := 0
		for m, c := range counts {
			if m&need == need {
				attacked += c
			}
		}
		operation.Within(t, "P("+rec.Hexes[i].Target+" attacked)", j.Attacked[i], attacked, trials)
	}
	operation.Within(t, "P(all)", j.All, counts[len(counts)-1], trials)
	t.Logf("states %v of %d trials; the plan's P(exactly k) %v", counts, trials, j.Exactly)
	if *rec.Chance != j.All {
		t.Errorf("the objective's chance %v is not P(all) %v", *rec.Chance, j.All)
	}
}

func hasRequires(s *scenario.Scenario) bool {
	for _, t := range s.Targets {
		if len(t.Requires) > 0 {
			return true
		}
	}
	return false
}
