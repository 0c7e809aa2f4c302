package operation

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// Two independent hexes, worked by hand: P(all) = p1 p2, P(exactly one) =
// p1 (1 - p2) + (1 - p1) p2, P(none) = (1 - p1)(1 - p2); the expected
// value weighs each P(taken) by the hex's value.
func TestJointTwoIndependentHexes(t *testing.T) {
	j, err := NewJoint([]Target{{ID: "a", Value: 2, P: 0.3}, {ID: "b", Value: 1, P: 0.6}})
	if err != nil {
		t.Fatal(err)
	}
	if got := j.All(); !near(got, 0.18) {
		t.Errorf("P(all) %v, want 0.3 x 0.6 = 0.18", got)
	}
	if got, want := j.Exactly(), []float64{0.28, 0.54, 0.18}; !slices.EqualFunc(got, want, near) {
		t.Errorf("P(exactly k) %v, want %v", got, want)
	}
	if got, want := j.AtLeast(), []float64{1, 0.72, 0.18}; !slices.EqualFunc(got, want, near) {
		t.Errorf("P(at least k) %v, want %v", got, want)
	}
	if !near(j.Taken(0), 0.3) || !near(j.Taken(1), 0.6) || !near(j.Attacked(1), 1) {
		t.Errorf("P(taken) %v %v, P(attacked) %v", j.Taken(0), j.Taken(1), j.Attacked(1))
	}
	if got := j.Expected(); !near(got, 2*0.3+0.6) {
		t.Errorf("expected value %v, want 1.2", got)
	}
}

// A hex that requires another is attacked only when that one is taken:
// P(attacked) = P(required taken), P(taken) = P(attacked) x its own P, and
// no state takes it without its requirement (issue 28, item 4).
func TestJointRequires(t *testing.T) {
	j, err := NewJoint([]Target{{ID: "beach", Value: 1, P: 0.5}, {ID: "inland", Value: 1, P: 0.8, Requires: []int{0}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.5, 0.1, 0, 0.4} // none, beach only, inland only, both
	for m, w := range want {
		if !near(j.State(m), w) {
			t.Errorf("state %02b: %v, want %v", m, j.State(m), w)
		}
	}
	if !near(j.Attacked(1), 0.5) || !near(j.Taken(1), 0.4) || !near(j.All(), 0.4) {
		t.Errorf("inland attacked %v, taken %v; all %v", j.Attacked(1), j.Taken(1), j.All())
	}
}

// walk is the joint distribution by a different road: the operation
// played out target by target in an order of attack, branching on each
// combat attacked (taken or not), a target not attacked when any
// requirement failed.
func walk(targets []Target, order []int) []float64 {
	out := make([]float64, 1<<len(targets))
	var rec func(k, mask int, p float64)
	rec = func(k, mask int, p float64) {
		if k == len(order) {
			out[mask] += p
			return
		}
		i := order[k]
		need := Mask(targets[i].Requires)
		if mask&need != need {
			rec(k+1, mask, p)
			return
		}
		rec(k+1, mask|1<<i, p*targets[i].P)
		rec(k+1, mask, p*(1-targets[i].P))
	}
	rec(0, 0, 1)
	return out
}

// On random operations with random requirements (acyclic: a target
// requires only earlier ones, then the list is shuffled), every state's
// probability is the walk's, and the states sum to 1.
func TestJointAgainstWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 1))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(8)
		perm := rng.Perm(n)
		targets := make([]Target, n)
		for k := 0; k < n; k++ {
			tg := Target{ID: string(rune('a' + k)), Value: float64(1 + rng.IntN(3)), P: rng.Float64()}
			if rng.IntN(5) == 0 {
				tg.P = float64(rng.IntN(2))
			}
			for r := 0; r < k; r++ {
				if rng.IntN(3) == 0 {
					tg.Requires = append(tg.Requires, perm[r])
				}
			}
			targets[perm[k]] = tg
		}
		j, err := NewJoint(targets)
		if err != nil {
			t.Fatal(err)
		}
		order, err := Order(targets)
		if err != nil {
			t.Fatal(err)
		}
		ref := walk(targets, order)
		sum := 0.0
		for m := range ref {
			sum += j.State(m)
			if math.Abs(j.State(m)-ref[m]) > 1e-12 {
				t.Fatalf("trial %d %+v: state %b %v, walk %v", trial, targets, m, j.State(m), ref[m])
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("trial %d: states sum to %v", trial, sum)
		}
		for i, p := range j.TakenAll() {
			if math.Abs(p-j.Taken(i)) > 1e-12 || math.Abs(j.Attacked(i)-j.AllOf(Mask(targets[i].Requires))) > 1e-12 {
				t.Fatalf("trial %d: target %d taken %v (one pass) %v (sum), attacked %v", trial, i, p, j.Taken(i), j.Attacked(i))
			}
		}
		pos := make([]int, n)
		for k, i := range order {
			pos[i] = k
		}
		for i, tg := range targets {
			for _, r := range tg.Requires {
				if pos[r] > pos[i] {
					t.Fatalf("order %v attacks %d before %d, which it requires", order, i, r)
				}
			}
		}
	}
}

// Too many targets, a cycle, a requirement naming no other target and a
// chance outside [0, 1] are errors, the first before any allocation.
func TestJointErrors(t *testing.T) {
	cases := map[string]struct {
		targets []Target
		want    string
	}{
		"too many": {make([]Target, MaxTargets+1), "21 targets: want 1 to 20"},
		"none":     {nil, "0 targets"},
		"cycle":    {[]Target{{ID: "a", Requires: []int{1}}, {ID: "b", Requires: []int{0}}}, "circle"},
		"self":     {[]Target{{ID: "a", Requires: []int{0}}}, "not another target"},
		"range":    {[]Target{{ID: "a", Requires: []int{3}}}, "not another target"},
		"chance":   {[]Target{{ID: "a", P: math.NaN()}}, "not a probability"},
	}
	for name, c := range cases {
		if _, err := NewJoint(c.targets); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
	many := make([]Target, 64)
	if allocs := testing.AllocsPerRun(10, func() { _, _ = NewJoint(many) }); allocs > 2 {
		t.Errorf("refusing 64 targets allocated %v times", allocs)
	}
}

// Each objective scores the joint distribution as worked by hand; an
// objective that does not fit is an error with a suggestion.
func TestObjectiveScore(t *testing.T) {
	j, err := NewJoint([]Target{{ID: "Vyazma", Value: 2, P: 0.5}, {ID: "Bryansk", Value: 1, P: 0.8}, {ID: "Tula", Value: 1, P: 0.4, Requires: []int{1}}})
	if err != nil {
		t.Fatal(err)
	}
	// P(Tula taken) = 0.8 x 0.4 = 0.32.
	cases := []struct {
		o    Objective
		want float64
	}{
		{Objective{Kind: Expected}, 2*0.5 + 0.8 + 0.32},
		{Objective{Kind: All}, 0.5 * 0.32},
		{Objective{Kind: AtLeast, K: 1}, 1 - 0.5*0.2},
		// Two or more: exactly {V,B} 0.5*0.8*0.6, {B,T} 0.5*0.32, all 0.5*0.32.
		{Objective{Kind: AtLeast, K: 2}, 0.5*0.8*0.6 + 0.5*0.32 + 0.5*0.32},
		{Objective{Kind: AtLeast, K: 3}, 0.5 * 0.32},
		{Objective{Kind: Set, Set: []string{"Vyazma", "Bryansk"}}, 0.5 * 0.8},
		{Objective{Kind: Set, Set: []string{"Tula"}}, 0.32},
	}
	for _, c := range cases {
		got, err := j.Score(c.o)
		if err != nil || !near(got, c.want) {
			t.Errorf("%s: %v, %v; want %v", c.o, got, err, c.want)
		}
	}
	bad := []struct {
		o    Objective
		want string
	}{
		{Objective{Kind: AtLeast, K: 4}, "4 is outside 1..3"},
		{Objective{Kind: AtLeast}, "0 is outside 1..3"},
		{Objective{Kind: Set, Set: []string{"Vyasma"}}, `unknown target "Vyasma" (did you mean "Vyazma"?)`},
		{Objective{Kind: Set}, "at least one target"},
		{Objective{Kind: "at_leest"}, `unknown objective "at_leest" (did you mean "at_least"?)`},
	}
	for _, c := range bad {
		if _, err := j.Score(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.o, err, c.want)
		}
	}
}

// BenchmarkJoint builds the largest joint distribution and reads every
// figure a report gives from it.
func BenchmarkJoint(b *testing.B) {
	targets := make([]Target, MaxTargets)
	for i := range targets {
		targets[i] = Target{ID: string(rune('a' + i)), Value: 1, P: 0.5}
		if i%3 == 2 {
			targets[i].Requires = []int{i - 1, i - 2}
		}
	}
	for b.Loop() {
		j, err := NewJoint(targets)
		if err != nil {
			b.Fatal(err)
		}
		_ = j.TakenAll()
		for i := range targets {
			_ = j.Attacked(i)
		}
		_, _ = j.Exactly(), j.Expected()
	}
}
