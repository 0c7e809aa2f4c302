package plan

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/operation"
)

// Every objective (docs/planner.md, Objectives; issue 28 item 2) is
// optimised exactly: on random fronts of 2 or 3 hexes and up to 8 units
// (fixed seeds), the frontier of the objective's chance against cost, the
// recommendation and the expected objective's plan at its cost are those
// of brute force over every assignment of every unit to a hex it can
// attack, each hex's force run as its own scenario and the chance read
// from operation.Joint.
func TestFrontObjectiveIsBruteForce(t *testing.T) {
	objectives := []string{"all", "{at_least: %d}", "{set: [%s]}", "expected"}
	for seed := range 16 {
		r := rand.New(rand.NewPCG(uint64(seed), 28))
		crtName := []string{"standard", "2d6"}[seed%2]
		measure := measures[seed%len(measures)]
		ids := []string{"A", "B", "C"}[:2+seed%2]
		pool := randomPool(r, 4+r.IntN(5), ids)
		text, terrs, defs := frontPlanYAML(r, crtName, measure, ids, pool, 0)
		kind := objectives[seed%len(objectives)]
		var o operation.Objective
		target := []float64{0.2, 0.4, 0.6}[r.IntN(3)]
		switch kind {
		case "all":
			o = operation.Objective{Kind: operation.All}
		case "expected":
			o = operation.Objective{Kind: operation.Expected}
			target *= float64(len(ids))
		case "{at_least: %d}":
			o = operation.Objective{Kind: operation.AtLeast, K: 1 + r.IntN(len(ids))}
			kind = fmt.Sprintf(kind, o.K)
		default:
			o = operation.Objective{Kind: operation.Set, Set: []string{ids[r.IntN(len(ids))], ids[len(ids)-1]}}
			if o.Set[0] == o.Set[1] {
				o.Set = o.Set[:1]
			}
			kind = fmt.Sprintf(kind, strings.Join(o.Set, ", "))
		}
		text = strings.Replace(text, "plan: {", fmt.Sprintf("plan: {objective: %s, target: %v, ", kind, target), 1)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			res := planText(t, text)
			weigh := bruteWeigher(t, crtName, terrs, defs)
			var pts, exps []weighed
			eachAssignment(pool, ids, func(sents [][]unitSpec) {
				var all []unitSpec
				ts := make([]operation.Target, len(ids))
				lostF, lostU, expected := 0.0, 0.0, 0.0
				for h, sent := range sents {
					ts[h] = operation.Target{ID: ids[h], Value: 1}
					if len(sent) == 0 {
						continue
					}
					sum, ok := weigh(h, sent)
					if !ok {
						return // support alone is not an attack
					}
					all = append(all, sent...)
					ts[h].P = sum.Probabilities.HexTaken.P
					expected += ts[h].P
					lostF += sum.Means.AttackerFactorsLost.Mean
					lostU += sum.Means.AttackerUnitsLost.Mean
				}
				if len(all) == 0 || expected == 0 {
					return
				}
				j, err := operation.NewJoint(ts)
				if err != nil {
					t.Fatal(err)
				}
				value, err := j.Score(o)
				if err != nil {
					t.Fatal(err)
				}
				cost := measureOf(measure, all, nil)
				switch measure {
				case "expected_factors_lost":
					cost = lostF
				case "expected_units_lost":
					cost = lostU
				}
				exps = append(exps, weighed{cost: cost, value: expected})
				if value > 0 {
					pts = append(pts, weighed{cost: cost, value: value})
				}
			})
			want, got := paretoPairs(pts), objectivePairs(res.TablePlan)
			if !samePairs(want, got) {
				t.Fatalf("frontier\n got %v\nwant %v\n%s", got, want, text)
			}
			checkRecommended(t, res, want, target, exps, o.Kind != operation.Expected, text)
		})
	}
}

// objectivePairs are a front's frontier points as (cost, figure weighed):
// the objective's chance, or the expected hexes taken.
func objectivePairs(tp *TablePlan) [][2]float64 {
	var out [][2]float64
	for _, f := range tp.Frontier {
		v := *f.Value
		if f.Chance != nil {
			v = *f.Chance
		}
		out = append(out, [2]float64{f.Cost, v})
	}
	return out
}

// checkRecommended checks a front's recommendation against brute force's
// frontier want: the cheapest point reaching the target, or none and the
// reason; and with a chance objective, the expected objective's plan for
// no more, against brute force's expected hexes exps of every assignment.
func checkRecommended(t *testing.T, res *Result, want [][2]float64, target float64, exps []weighed, chance bool, text string) {
	t.Helper()
	rec0 := slices.IndexFunc(want, func(p [2]float64) bool { return p[1] >= target-valueTol })
	if rec0 < 0 {
		if res.Recommended != nil || res.Unreached == "" {
			t.Fatalf("no point reaches %v, yet recommended %v (unreached %q)\n%s", target, res.Recommended, res.Unreached, text)
		}
		return
	}
	if res.Recommended == nil {
		t.Fatalf("no recommendation; want cost %v value %v\n%s", want[rec0][0], want[rec0][1], text)
	}
	if g := objectivePairs(&TablePlan{Frontier: []*Force{res.Recommended}})[0]; !near(g[0], want[rec0][0], 1e-9) || !near(g[1], want[rec0][1], 1e-9) {
		t.Fatalf("recommended %v, want %v\n%s", g, want[rec0], text)
	}
	if !chance {
		if res.ExpectedPlan != nil || res.Objective != "" || res.Recommended.Chance != nil {
			t.Fatalf("the expected objective reports an objective chance\n%s", text)
		}
		return
	}
	// The expected objective's plan for no more.
	best := 0.0
	for _, p := range exps {
		if p.cost <= want[rec0][0]+costTol {
			best = max(best, p.value)
		}
	}
	if res.ExpectedPlan == nil || !near(*res.ExpectedPlan.Value, best, 1e-9) || res.ExpectedPlan.Cost > want[rec0][0]+costTol {
		t.Fatalf("expected objective's plan %+v, want %v hexes expected\n%s", res.ExpectedPlan, best, text)
	}
}
