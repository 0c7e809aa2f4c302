package combat_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/internal/fixture"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

func loadRaid(t testing.TB, path string) *combat.Raid { return fixture.Raid(t, path) }

func compileRaidScenario(t testing.TB, s *scenario.Scenario) *combat.Raid {
	return fixture.RaidScenario(t, s)
}

func raidText(t *testing.T, text string) *combat.Raid {
	t.Helper()
	s, err := scenario.Parse("raid.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return compileRaidScenario(t, s)
}

// AsA 3.2.1 worked example (docs/rules.md §5): 16 AA factors against 6 B-17s, 2
// dice on the 2 table, both 6: the air-to-air-3 B-17 destroyed, the
// air-to-air-5 B-17 aborted, 27 factors bomb, 4 + 1 = 5: 5 build points,
// a factory and an AA unit destroyed.
func TestDusseldorfExample(t *testing.T) {
	r := loadRaid(t, "../examples/dusseldorf-bombardment.yaml")
	if r.AAFactors != 16 || r.AADice != 2 || r.AATable != 2 {
		t.Fatalf("AA fire %d factors, %d dice on table %d; want 16, 2, 2", r.AAFactors, r.AADice, r.AATable)
	}
	rp, err := analysis.ReplayRaid(r, r.Scenario.Dice, &sim.Forced{Rolls: []int{2}, Then: noDice{t}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rp.Destroyed, ",") != "B-17B" || strings.Join(rp.Aborted, ",") != "B-17C" || rp.Factors != 27 ||
		rp.BP != 5 || !rp.Star || !rp.Factory || rp.AAUnit == "" {
		t.Fatalf("replay %+v", rp)
	}
	if rp.RandomRolls != 1 {
		t.Fatalf("the AA unit destroyed is chosen at random: %d extra rolls, want 1", rp.RandomRolls)
	}
	sumTo1(t, r)
}

const b17s = `bombers:
  - {name: A, a2a: 3, sb: 3}
  - {name: B, a2a: 5, sb: 5}
  - {name: C, a2a: 6, sb: 7}
`

// docs/rules.md §5 step 1: AA units (heavy doubled), intrinsic AA of factories,
// oil and synth plants and flak (ships in port fire only at port attacks),
// halved at night, rounded
// after halving.
func TestRaidAAFactors(t *testing.T) {
	cases := []struct {
		text string
		want int
	}{
		{"target: {factories: 1}\naa_units: [{factors: 3}]\n", 4},
		{"target: {factories: 1}\naa_units: [{factors: 3, heavy: true}]\n", 7},
		{"target: {factories: 2, oil: 1, synth_plants: 1, flak: 3}\n", 7},
		{"night: true\ntarget: {factories: 2}\naa_units: [{factors: 3, heavy: true}]\n", 4},
		{"night: true\ntarget: {factories: 1}\naa_units: [{factors: 2}]\n", 2}, // 1.5 rounds up
		{"night: true\ntarget: {factories: 1}\n", 1},                           // 0.5 rounds up
		{"target: {}\n", 0},
	}
	for _, c := range cases {
		r := raidText(t, "kind: bombardment\n"+c.text+b17s)
		if r.AAFactors != c.want {
			t.Errorf("%q: %d AA factors, want %d", c.text, r.AAFactors, c.want)
		}
	}
	r := raidText(t, "kind: bombardment\ntarget: {}\n"+b17s)
	if r.AADice != 0 || len(r.Outcomes) != 6 {
		t.Errorf("no AA: %d dice, %d outcomes (want 0 and one per SB roll)", r.AADice, len(r.Outcomes))
	}
}

// docs/rules.md §5 steps 4-6: 6s destroy while the lowest air-to-air is below the
// total, asterisks abort, the rest of the total does not press the attack.
func TestRaidAAProcedure(t *testing.T) {
	// 12 factors vs 3 bombers: 1 die on the 4 table (1-3 -, 4 2, 5 4, 6 4*).
	r := raidText(t, "kind: bombardment\ntarget: {factories: 2}\naa_units: [{factors: 10}]\n"+b17s)
	if r.AADice != 1 || r.AATable != 4 {
		t.Fatalf("fire %d dice on %d", r.AADice, r.AATable)
	}
	cases := []struct {
		aa                       int
		destroyed, aborted, bomb int
	}{
		{3, 0, 0, 15}, // nothing
		{4, 0, 0, 13}, // 2 factors do not press
		{5, 0, 0, 11}, // 4 factors do not press
		{6, 1, 0, 11}, // 6: 4* destroys A (3 < 4): total 1, the asterisk used; B and C bomb 12 - 1
	}
	for _, c := range cases {
		rp, err := analysis.ReplayRaid(r, []int{c.aa, 1}, noDice{t})
		if err != nil {
			t.Fatal(err)
		}
		if len(rp.Destroyed) != c.destroyed || len(rp.Aborted) != c.aborted || rp.Factors != c.bomb {
			t.Errorf("AA die %d: destroyed %v aborted %v bombing %d, want %d, %d, %d", c.aa, rp.Destroyed, rp.Aborted, rp.Factors, c.destroyed, c.aborted, c.bomb)
		}
	}
	// A 6 that cannot destroy aborts instead: total 2 against air-to-air 3.
	r = raidText(t, "kind: bombardment\ntarget: {factories: 2}\naa_units: [{factors: 4}]\n"+b17s) // 6 vs 3: 1 die on table 2
	rp, _ := analysis.ReplayRaid(r, []int{6, 1}, noDice{t})
	if len(rp.Destroyed) != 0 || strings.Join(rp.Aborted, ",") != "A" || rp.Factors != 12 {
		t.Errorf("6 on table 2 vs air-to-air 3: %+v, want A aborted and 12 factors bombing", rp)
	}
	// Ties of air-to-air: the one with fewer bombing factors goes first.
	r = raidText(t, "kind: bombardment\ntarget: {factories: 2}\naa_units: [{factors: 4}]\nbombers:\n  - {name: big, a2a: 3, sb: 9}\n  - {name: small, a2a: 3, sb: 2}\n")
	rp, _ = analysis.ReplayRaid(r, []int{6, 1}, noDice{t})
	if strings.Join(rp.Aborted, ",") != "small" {
		t.Errorf("tie on air-to-air: aborted %v, want small", rp.Aborted)
	}
}

// docs/rules.md §5 step 4: a carrier hit by a 6 is damaged instead of destroyed.
func TestRaidCarrierDamaged(t *testing.T) {
	r := raidText(t, "kind: bombardment\ntarget: {factories: 2}\naa_units: [{factors: 10}]\nbombers:\n  - {name: CV, a2a: 1, sb: 2, carrier: true}\n  - {name: B, a2a: 5, sb: 5}\n")
	rp, err := analysis.ReplayRaid(r, []int{6, 1}, noDice{t})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rp.Damaged, ",") != "CV" || len(rp.Destroyed) != 0 {
		t.Fatalf("6 against a carrier: %+v, want it damaged", rp)
	}
	ex := exactRaidSummary(t, r)
	if ex.Bombers[0].Destroyed.P != 0 || ex.Bombers[0].Damaged.P == 0 || ex.Probabilities["bomber_destroyed"].P != 0 {
		t.Errorf("carrier fate %+v", ex.Bombers[0])
	}
}

// docs/rules.md §5 steps 7-8: +1 when not intercepted; * destroys a factory, an
// oil point and an AA unit.
func TestRaidSBTable(t *testing.T) {
	base := "kind: bombardment\ntarget: {factories: 1, oil: 2}\naa_units: [{factors: 1, name: X}]\nbombers: [{a2a: 9, sb: 30}]\n"
	// 4 AA factors vs 1 bomber: 1 die on table 4; a 1 does nothing. 30
	// factors read the 28-35 column (c = 7): BP = roll + 7 - 6, * from 11.
	for _, c := range []struct {
		intercepted string
		roll, bp    int
		star        bool
	}{{"false", 3, 5, true}, {"true", 3, 4, false}, {"false", 6, 8, true}} {
		r := raidText(t, strings.Replace(base, "kind: bombardment\n", "kind: bombardment\nintercepted: "+c.intercepted+"\n", 1))
		rp, err := analysis.ReplayRaid(r, []int{1, c.roll}, noDice{t})
		if err != nil {
			t.Fatal(err)
		}
		if rp.BP != c.bp || rp.Star != c.star || rp.Factory != c.star || rp.Oil != c.star || (rp.AAUnit == "X") != c.star {
			t.Errorf("intercepted %s roll %d: %+v, want %d BP, star %v", c.intercepted, c.roll, rp, c.bp, c.star)
		}
	}
}

// Exact and Monte Carlo agree for a night raid.
func TestNightRaidMonteCarloAgreesWithExact(t *testing.T) {
	r := raidText(t, "kind: bombardment\nnight: true\ntarget: {factories: 3, oil: 1}\naa_units: [{factors: 4, heavy: true}, {factors: 3}]\n"+b17s+
		"  - {name: D, a2a: 4, sb: 4}\n  - {name: E, a2a: 2, sb: 2}\n")
	ex := exactRaidSummary(t, r)
	tally, run, err := sim.Sample(context.Background(), r, sim.Config{Trials: 400_000, Seed: 5, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	mc := analysis.SummarizeRaid(r, tally, run)
	n := float64(run.Trials)
	for _, m := range combat.RaidMetrics {
		name := m.Name
		for v, p := range ex.Distributions[name] {
			got := 0.0
			if v < len(mc.Distributions[name]) {
				got = mc.Distributions[name][v]
			}
			if se := math.Sqrt(p * (1 - p) / n); math.Abs(got-p) > 4.5*se+1e-12 {
				t.Errorf("%s = %d: Monte Carlo %.5f, exact %.5f", name, v, got, p)
			}
		}
	}
	for i, b := range ex.Bombers {
		p, got := b.Destroyed.P, mc.Bombers[i].Destroyed.P
		if se := math.Sqrt(p * (1 - p) / n); math.Abs(got-p) > 4.5*se+1e-12 {
			t.Errorf("%s destroyed: Monte Carlo %.5f, exact %.5f", b.Name, got, p)
		}
	}
}

// A campaign carries losses forward: with one raid it is the single raid.
func TestCampaign(t *testing.T) {
	r := loadRaid(t, "../examples/dusseldorf-bombardment.yaml")
	ex := exactRaidSummary(t, r)
	keys, run, err := sim.SampleKeys(context.Background(), r.Campaign(1), sim.Config{Trials: 300_000, Seed: 2, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	one := analysis.SummarizeCampaign(r, keys, run, 1)
	n := float64(run.Trials)
	for v, p := range ex.Distributions["bp_lost"] {
		if se := math.Sqrt(p * (1 - p) / n); math.Abs(one.Distributions["bp_lost"][v]-p) > 4.5*se+1e-12 {
			t.Errorf("campaign of 1, bp %d: %.5f, exact %.5f", v, one.Distributions["bp_lost"][v], p)
		}
	}
	keys, run, err = sim.SampleKeys(context.Background(), r.Campaign(8), sim.Config{Trials: 50_000, Seed: 2, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	eight := analysis.SummarizeCampaign(r, keys, run, 8)
	if len(eight.Distributions["factories_destroyed"]) > 3 || len(eight.Distributions["aa_units_destroyed"]) > 3 || len(eight.Distributions["bombers_destroyed"]) > 7 {
		t.Errorf("a campaign destroyed more than the target had: %v", eight.Distributions)
	}
	if eight.Means["bp_lost"].Mean <= one.Means["bp_lost"].Mean {
		t.Error("eight raids took no more build points than one")
	}
	keys2, _, _ := sim.SampleKeys(context.Background(), r.Campaign(8), sim.Config{Trials: 50_000, Seed: 2, Workers: 1})
	if len(keys2) != len(keys) {
		t.Fatal("campaign results depend on the worker count")
	}
	for k, v := range keys {
		if keys2[k] != v {
			t.Fatal("campaign results depend on the worker count")
		}
	}
	for _, tot := range []combat.CampaignTotals{{1, 2, 3, 4, 5, 6, 7, 8}, {2000, 20, 20, 16, 60, 60, 400, 36000}} {
		if combat.UnpackCampaign(combat.PackCampaign(tot)) != tot {
			t.Errorf("pack/unpack %+v", tot)
		}
	}
}

// exactRaidSummary is the exact summary of one raid.
func exactRaidSummary(t *testing.T, r *combat.Raid) *analysis.RaidSummary {
	t.Helper()
	sumTo1(t, r)
	tally, run, err := sim.Exact(context.Background(), r, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return analysis.SummarizeRaid(r, tally, run)
}

// A campaign key packs every metric in its own bits: packing and unpacking
// give the totals back, and the widths fill the 64 bits.
func TestCampaignKeyRoundTrip(t *testing.T) {
	bits := 0
	var full combat.CampaignTotals
	for i, m := range combat.RaidMetrics {
		bits += m.Bits
		full[i] = 1<<m.Bits - 1
	}
	if bits != 64 {
		t.Fatalf("metric widths add up to %d bits, want 64", bits)
	}
	for _, tot := range []combat.CampaignTotals{{}, full, {4000, 3, 2, 1, 60, 5, 400, 65535}} {
		if got := combat.UnpackCampaign(combat.PackCampaign(tot)); got != tot {
			t.Errorf("%v packs and unpacks to %v", tot, got)
		}
	}
}

// Totals, written out for speed, agrees with the metric table for every
// outcome of a raid.
func TestTotalsFollowTheTable(t *testing.T) {
	r := loadRaid(t, "../examples/dusseldorf-bombardment.yaml")
	outs := append([]combat.RaidOutcome{{BP: 3, Hit: 2, Damaged: 1, Aborted: 4, Factors: 9, Factory: true, Oil: true, AALost: 1}}, r.Outcomes...)
	for _, o := range outs {
		got := o.Totals()
		for k, m := range combat.RaidMetrics {
			if got[k] != m.Of(&o) {
				t.Errorf("%+v: Totals gives %s %d, the table %d", o, m.Name, got[k], m.Of(&o))
			}
		}
	}
}
