package plan

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// planFile plans a file's text with cfg, under its own table.
func planFile(t *testing.T, text string, cfg Config) (*Result, error) {
	t.Helper()
	s, cfg := parseWithTable(t, text, cfg)
	return Plan(context.Background(), s, cfg)
}

// parseWithTable parses a plan file's text and sets cfg to plan under its
// own table.
func parseWithTable(t *testing.T, text string, cfg Config) (*scenario.Scenario, Config) {
	t.Helper()
	s, err := scenario.Parse("plan.yaml", []byte(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	tb, err := crt.Builtin(s.CRT)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Tables = []Table{{Name: s.CRT, Table: tb}}
	return s, cfg
}

// bigFront is a front of targets hexes and n distinct units, each able to
// attack every hex.
func bigFront(targets, n int) string {
	b := &strings.Builder{}
	b.WriteString("kind: land\ncrt: 2d6\ntargets:\n")
	for t := range targets {
		fmt.Fprintf(b, "  - {id: T%d, hex: {terrain: clear}, defender: {units: [{type: INF, factors: %d, nation: USSR}]}}\n", t, 2+t%4)
	}
	b.WriteString("attacker:\n  available:\n")
	for i := range n {
		fmt.Fprintf(b, "    - {id: u%d, type: INF, factors: %d, bp: %d, nation: GE}\n", i, 1+i%7, 1+i)
	}
	return b.String()
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A limit raised past what memory holds is refused before the search
// allocates anything (issue 23, item 4: --max-forces 1e15 on 8 targets x
// 40 units allocated 8 TiB), for a front and for one hex, and a front over
// the default limit is refused by a count that costs nothing next to the
// walk (item 11: counting a 20-unit, 8-target front took 4.9 s).
func TestLimitsCheckedFirst(t *testing.T) {
	one := strings.Replace(bigFront(1, 40), "targets:\n  - {id: T0, hex: {terrain: clear}, defender: {units: [{type: INF, factors: 2, nation: USSR}]}}\n",
		"hex: {terrain: clear}\ndefender: {units: [{type: INF, factors: 2, nation: USSR}]}\n", 1)
	cases := []struct {
		name, text string
		max        float64
		want       string
	}{
		{"front 8x40 at 1e15", bigFront(8, 40), 1e15, "GiB"},
		{"one hex of 40 at 1e15", one, 1e15, "lower the limit (--max-forces; max_forces= over HTTP)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			bytes := allocated(func() { _, err = planFile(t, c.text, Config{MaxForces: c.max}) })
			if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want ErrTooLarge naming %q", err, c.want)
			}
			if bytes > 4<<20 {
				t.Errorf("refusing the plan allocated %d bytes", bytes)
			}
		})
	}
}

// A front whose assignments reach more distinct states than the limit is
// refused with the limit named, and the search stays within the memory
// the limit allows (docs/planner.md): the front's search counts states,
// not assignments, so it learns the count only by searching.
func TestFrontStateLimit(t *testing.T) {
	const limit = 100_000
	var err error
	bytes := allocated(func() { _, err = planFile(t, bigFront(8, 20), Config{MaxForces: limit}) })
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "more than 100000 distinct states of the front") {
		t.Fatalf("got %v, want ErrTooLarge naming the limit on states", err)
	}
	t.Logf("refusing allocated %d MiB", bytes>>20)
	if bytes > 256<<20 {
		t.Errorf("refusing the plan allocated %d MiB", bytes>>20)
	}
	// At the default limit the states a front may hold are what 256 MiB
	// holds, and the message says so.
	bytes = allocated(func() { _, err = planFile(t, bigFront(8, 20), Config{}) })
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "all 256 MiB holds") {
		t.Fatalf("got %v, want ErrTooLarge naming the memory", err)
	}
	t.Logf("refusing at the default allocated %d MiB", bytes>>20)
	if bytes > 2*frontMemory {
		t.Errorf("refusing the plan allocated %d MiB", bytes>>20)
	}
}

// The front's count of assignments is the number the search walks.
func TestCountClassAssignments(t *testing.T) {
	for seed := range 8 {
		n := 3 + seed%4
		text := bigFront(1+seed%3, n)
		if seed%2 == 1 {
			text = strings.Replace(text, "nation: GE}\n", "nation: GE, can_attack: [T0]}\n", 1)
		}
		s, err := scenario.Parse("plan.yaml", []byte(text+fmt.Sprintf("plan: {max_units: %d}\n", n-seed%2)))
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, ft := range s.Targets {
			ids = append(ids, ft.ID)
		}
		p := newPool(s, ids)
		fp := &frontPlan{used: make(counts, len(p.classes)), pl: &planner{e: &evaluator{pool: p}}}
		for tg := range s.Targets {
			al := make([]bool, len(p.classes))
			for c := range al {
				al[c] = p.classes[c].can[tg]
			}
			fp.allowed = append(fp.allowed, al)
			fp.x = append(fp.x, make(counts, len(p.classes)))
		}
		var walk func(tg, left int) float64
		walk = func(tg, left int) float64 {
			if tg == len(fp.x) {
				return 1
			}
			total := 0.0
			fp.each(tg, left, func(size int) bool {
				total += walk(tg+1, left-size)
				return true
			})
			return total
		}
		limit := s.Plan.MaxUnits
		if got, want := countClassAssignments(p, fp.allowed, limit), walk(0, limit); got != want {
			t.Errorf("seed %d: count %v, walk %v", seed, got, want)
		}
	}
}

// With a target no force reaches, the plan says why: the most any force
// reaches, on a front too (issue 23, item 1: a nil-pointer panic), and
// when no force can take the hex at all, that P(hex taken) is 0, not that
// the forces lack land units (item 8), which it says only when they do.
func TestUnreachedSaysWhy(t *testing.T) {
	hopeless := "kind: land\ncrt: 2d6\nhex: {terrain: mountain}\ndefender: {units: [{type: INF, factors: 12, nation: USSR}, {type: INF, factors: 12, nation: USSR}]}\n" +
		"attacker:\n  available:\n    - {id: a, type: INF, factors: 1, nation: GE}\nplan: {target: 0.5}\n"
	supportOnly := "kind: land\ncrt: 2d6\nhex: {terrain: clear}\ndefender: {units: [{type: INF, factors: 2, nation: USSR}]}\n" +
		"attacker:\n  support_available:\n    - {id: s, factors: 3}\nplan: {target: 0.5}\n"
	front, err := scenario.Load("../examples/plan-front.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := crt.Builtin(front.CRT)
	res, err := Plan(context.Background(), front, Config{Tables: []Table{{Name: front.CRT, Table: tb}}, Target: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Recommended != nil || !strings.Contains(res.Unreached, "expected hexes taken >= 3") || !strings.Contains(res.Unreached, "the most any force reaches is 2.") {
		t.Errorf("front: %q", res.Unreached)
	}
	for _, c := range []struct{ text, want string }{
		{hopeless, "P(hex taken) is 0 for every force"},
		{supportOnly, "every force lacks a land unit"},
	} {
		res, err := planFile(t, c.text, Config{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Unreached, c.want) {
			t.Errorf("unreached %q, want %q", res.Unreached, c.want)
		}
	}
}
