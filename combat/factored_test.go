package combat_test

import (
	"context"
	"math"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fixture"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// threeStrikes is the artillery example with two more ART striking: a tree
// of 10,077,696 paths, too large for one flat table.
const threeStrikes = "../benchmarks/scenarios/strikes-3.yaml"

func threeStrikeCombat(t testing.TB) *combat.Combat {
	t.Helper()
	s, err := scenario.Load(threeStrikes)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := crt.Builtin(s.CRT)
	if err != nil {
		t.Fatal(err)
	}
	c, err := combat.Compile(s, tb, fixture.Air(t, s))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The two-level table of a combat past the flat limit holds exactly the
// distribution Tabulate gives (which a test checks against the flat table
// and Resolve): every outcome's count of indices, in integers.
func TestFactoredIsTabulate(t *testing.T) {
	c := threeStrikeCombat(t)
	if c.Flat() != nil {
		t.Fatal("the three-strike combat fits one flat table; the test needs one that does not")
	}
	f := c.Factored()
	if f == nil {
		t.Fatal("no two-level table")
	}
	counts, size, ok := c.Tabulate()
	if !ok {
		t.Fatal("not tabulated")
	}
	branches, preSize := f.Branches()
	rolled := size / uint64(preSize)
	got := make([]uint64, len(counts))
	for b, n := range branches {
		if n == 0 {
			continue
		}
		post := f.Post(b)
		per := rolled / uint64(post.Paths())
		for i := range post.Paths() {
			got[post.Outcome(i)] += n * per
		}
	}
	for o := range counts {
		if got[o] != counts[o] {
			t.Errorf("outcome %d: %d indices in the two-level table, %d tabulated", o, got[o], counts[o])
		}
	}
}

// Monte Carlo on the two-level table agrees with the exact answer within
// 4.5 standard errors for every outcome, and does not depend on workers.
func TestFactoredMonteCarloAgreesWithExact(t *testing.T) {
	c := threeStrikeCombat(t)
	exact, _, err := sim.Exact(context.Background(), c, sim.MaxPathBudget, nil)
	if err != nil {
		t.Fatal(err)
	}
	const trials = 2_000_000
	mc, _, err := sim.Sample(context.Background(), c, sim.Config{Trials: trials, Seed: 9, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for o, p := range exact.Weights {
		se := math.Sqrt(p * (1 - p) / trials)
		got := float64(mc.Counts[o]) / trials
		if math.Abs(got-p) > 4.5*se+1e-12 {
			t.Errorf("outcome %d: sampled %v, exact %v (%.1f standard errors)", o, got, p, math.Abs(got-p)/se)
		}
	}
	again, _, err := sim.Sample(context.Background(), c, sim.Config{Trials: trials, Seed: 9, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	for o := range mc.Counts {
		if mc.Counts[o] != again.Counts[o] {
			t.Fatal("2 and 3 workers sample differently")
		}
	}
}

// The alias table places each branch's exact mass: its own slots' kept
// residues and the residues other slots alias to it add up to k times its
// count of pre-table indices, with k slots of the pre table's size each.
func TestFactoredAliasIsExact(t *testing.T) {
	f := threeStrikeCombat(t).Factored()
	branch, keep, alias, size := f.Alias()
	counts, n := f.Branches()
	if uint64(n)%size != 0 {
		t.Fatalf("unit %d does not divide the pre table's %d", size, n)
	}
	g := uint64(n) / size // the counts' common divisor the table's unit drops
	k := uint64(len(branch))
	mass := map[int32]uint64{}
	for i := range branch {
		if keep[i] > size {
			t.Fatalf("slot %d keeps %d of %d", i, keep[i], size)
		}
		mass[branch[i]] += keep[i]
		mass[alias[i]] += size - keep[i]
	}
	for b, c := range counts {
		if mass[int32(b)]*g != c*k {
			t.Errorf("branch %d: mass %d of %d, want %d of %d", b, mass[int32(b)], size, c*k, n)
		}
	}
}

// Compare's common-random-numbers runs see the same trials as a run: for
// a combat sampled in two levels, the joint tally's first marginal is
// Sample's tally, count for count, and a trial of the pair agrees with
// itself.
func TestFactoredJointIsSample(t *testing.T) {
	c := threeStrikeCombat(t)
	if c.Factored() == nil {
		t.Fatal("the three-strike combat is not sampled in two levels")
	}
	cfg := sim.Config{Trials: 3*sim.ChunkSize + 77, Seed: 4, Workers: 2}
	one, _, err := sim.Sample(context.Background(), c, cfg)
	if err != nil {
		t.Fatal(err)
	}
	j, err := sim.SampleJoint(context.Background(), c, c, cfg, cfg.Seed)
	if err != nil {
		t.Fatal(err)
	}
	for o, n := range j.Marginal(0) {
		if n != one.Counts[o] {
			t.Fatalf("outcome %d: %d in the joint run, %d sampled", o, n, one.Counts[o])
		}
		if d := j.Counts[o*j.NB+o]; d != n {
			t.Fatalf("outcome %d: %d of %d paired trials agree", o, d, n)
		}
	}
}
