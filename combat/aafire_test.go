package combat_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/fixture"
	"github.com/wifodds/wifodds/scenario"
)

// aaLand is a land combat whose ground support faces defending AA fire.
func aaLand(aircraft string, aa float64, extra string) string {
	return fmt.Sprintf(`kind: land
crt: 2d6
table: assault
%s
attacker:
  aircraft: %s
  units: [{type: INF, factors: 9, nation: GE}]
defender:
  units:
    - {type: INF, factors: 3, nation: FR}
    - {type: AA, size: division, factors: %v, nation: FR}
`, extra, aircraft, aa)
}

// compileIn compiles scenario text saved as a file in dir, so a scenario
// may name table files beside it.
func compileIn(t *testing.T, dir, text string) *combat.Combat {
	t.Helper()
	file := filepath.Join(dir, "scenario.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return fixture.Combat(t, file)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// Audit item 1 (docs/rules.md §5 step 4, AsA 3.2.2): AA fire at ground
// support whose aircraft carry fractional tactical factors. 10 AA factors
// against 2 aircraft roll 1 die on the 5 table; a 6 (5*) destroys the
// air-to-air 0 aircraft, since 0 < 5, so one is destroyed with chance 1/6.
// Before the fix the state after that 6 was never compiled and the lookup
// fell back to "nothing happened".
func TestAAFireFractionalTacticalFactors(t *testing.T) {
	c := compile(t, aaLand("[{a2a: 0, tactical: 2.5}, {a2a: 1, tactical: 3}]", 10, ""))
	sum := exactSummary(t, c)
	got := sum.PreCombat.AircraftDestroyed
	if len(got) != 2 || !near(got[0], 5.0/6) || !near(got[1], 1.0/6) {
		t.Errorf("aircraft destroyed %v, want [5/6 1/6]", got)
	}
	// 1-3: all 5.5 press; 4 (3): 2.5; 5 (5): 0.5; 6 (5*): the first is
	// destroyed, T = 5 - 2.5 = 2.5 comes off the other's 3: 0.5.
	want := map[string]float64{"5.5": 3.0 / 6, "2.5": 1.0 / 6, "0.5": 2.0 / 6}
	if len(sum.PreCombat.SupportFactors) != len(want) {
		t.Errorf("support %v, want %v", sum.PreCombat.SupportFactors, want)
	}
	for k, p := range want {
		if !near(sum.PreCombat.SupportFactors.Value(k), p) {
			t.Errorf("support %s: %v, want %v (all: %v)", k, sum.PreCombat.SupportFactors.Value(k), p, sum.PreCombat.SupportFactors)
		}
	}
}

// airTablesWith writes the built-in air tables with table 5 replaced.
func airTablesWith(t *testing.T, dir, table5 string) {
	t.Helper()
	src, err := os.ReadFile("../crt/airdata/strategic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	old := `{table: 5, cells: ["-", "-", "-", "3", "5", "5*"]}`
	if !strings.Contains(string(src), old) {
		t.Fatal("the built-in table 5 changed; update this test")
	}
	text := strings.Replace(string(src), old, "{table: 5, cells: "+table5+"}", 1)
	if err := os.WriteFile(filepath.Join(dir, "air.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Audit item 1: a custom air table whose die reaches 9 factors. One
// aircraft of 20 tactical factors against 10 AA factors: 1 die on the 5
// table. 1-3 nothing: 20 press; 4-5 take 9 off: 11; 6 (9*) destroys it.
func TestAAFireCustomTableBeyondFive(t *testing.T) {
	dir := t.TempDir()
	airTablesWith(t, dir, `["-", "-", "-", "9", "9", "9*"]`)
	c := compileIn(t, dir, aaLand("[{a2a: 2, tactical: 20}]", 10, "air_tables: air.yaml"))
	sum := exactSummary(t, c)
	want := map[string]float64{"20": 3.0 / 6, "11": 2.0 / 6, "0": 1.0 / 6}
	if len(sum.PreCombat.SupportFactors) != len(want) {
		t.Fatalf("support %v, want %v", sum.PreCombat.SupportFactors, want)
	}
	for k, p := range want {
		if !near(sum.PreCombat.SupportFactors.Value(k), p) {
			t.Errorf("support %s: %v, want %v", k, sum.PreCombat.SupportFactors.Value(k), p)
		}
	}
}

// A property of the compiled pre-combat states: for random small cases
// (aircraft with fractional factors, custom AA tables up to 50 factors,
// several AA dice) the exact distributions of aircraft destroyed, aborted
// and support pressing equal those of running the AA-fire procedure on
// every roll of the AA dice by brute force. A roll whose outcome had no
// compiled state would show as a difference.
func TestAAFireStatesCoverEveryRoll(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 40 {
		dir := t.TempDir()
		var cells []string
		for range 6 {
			cell := "-"
			if v := rng.IntN(60); v < 50 {
				cell = fmt.Sprint(v)
				if rng.IntN(3) == 0 {
					cell += "*"
				}
			}
			cells = append(cells, `"`+cell+`"`)
		}
		airTablesWith(t, dir, "["+strings.Join(cells, ", ")+"]")
		n := 1 + rng.IntN(4)
		var planes []string
		for range n {
			planes = append(planes, fmt.Sprintf("{a2a: %d, tactical: %v}", rng.IntN(6), float64(rng.IntN(13))/2))
		}
		aa := float64(1 + rng.IntN(16))
		text := aaLand("["+strings.Join(planes, ", ")+"]", aa, "air_tables: air.yaml")
		c := compileIn(t, dir, text)
		p := combat.PreAAOf(c)
		if p == nil {
			continue
		}
		// Brute force: every sequence of the AA dice, equally likely.
		hit, gone, press := map[int]float64{}, map[int]float64{}, map[string]float64{}
		seqs := int(math.Pow(6, float64(p.Dice)))
		rolls := make([]int, p.Dice)
		for code := range seqs {
			for i, x := 0, code; i < p.Dice; i, x = i+1, x/6 {
				rolls[i] = x%6 + 1
			}
			s := p.Air.Shoot(p.Table, rolls, p.Planes)
			hit[s.Hit] += 1 / float64(seqs)
			gone[s.Aborted] += 1 / float64(seqs)
			press[fmt.Sprintf("%g", s.Press)] += 1 / float64(seqs)
		}
		sum := exactSummary(t, c)
		for k, q := range hit {
			if k >= len(sum.PreCombat.AircraftDestroyed) || !near(sum.PreCombat.AircraftDestroyed[k], q) {
				t.Errorf("case %d (%s): destroyed %v, brute force %v", trial, text, sum.PreCombat.AircraftDestroyed, hit)
			}
		}
		for k, q := range gone {
			if k >= len(sum.PreCombat.AircraftAborted) || !near(sum.PreCombat.AircraftAborted[k], q) {
				t.Errorf("case %d (%s): aborted %v, brute force %v", trial, text, sum.PreCombat.AircraftAborted, gone)
			}
		}
		for k, q := range press {
			if !near(sum.PreCombat.SupportFactors.Value(k), q) {
				t.Errorf("case %d (%s): support %v, brute force %v", trial, text, sum.PreCombat.SupportFactors, press)
			}
		}
	}
}

// A scenario that names air tables the caller did not load is an error,
// not a quiet switch to the built-in tables.
func TestCompileWantsNamedAirTables(t *testing.T) {
	dir := t.TempDir()
	airTablesWith(t, dir, `["-", "-", "-", "9", "9", "9*"]`)
	file := filepath.Join(dir, "scenario.yaml")
	os.WriteFile(file, []byte(aaLand("[{a2a: 2, tactical: 20}]", 10, "air_tables: air.yaml")), 0o644)
	s, err := scenario.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := crt.Builtin("2d6")
	if _, err := combat.Compile(s, tb, nil); err == nil || !strings.Contains(err.Error(), "air_tables: air.yaml is not loaded") {
		t.Errorf("got %v", err)
	}
}
