package analysis_test

import (
	"context"
	"fmt"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

const example = `name: example
kind: land
crt: 2d6
table: assault
attacker:
  units:
    - {type: INF, size: corps, factors: 5, nation: GE}
    - {type: ARM, size: corps, factors: 6, nation: GE}
defender:
  units:
    - {type: INF, size: corps, factors: 3, nation: USSR}
`

// Compile a scenario and read its exact outcome distribution.
func ExampleExact() {
	s, _ := scenario.Parse("example.yaml", []byte(example))
	t, _ := crt.Builtin(s.CRT)
	c, _ := combat.Compile(s, t, nil)
	tally, run, _ := sim.Exact(context.Background(), c, 0, nil)
	sum := analysis.Summarize(c, tally, run)
	fmt.Printf("odds %v:%v over %d dice paths\n", c.Attack, c.Defence, run.Paths)
	fmt.Printf("P(hex taken) = %.4f\n", sum.Probabilities.HexTaken.P)
	// Output:
	// odds 11:3 over 36 dice paths
	// P(hex taken) = 0.9167
}

// Sample the same combat with a fixed seed: the answer is the same for any
// number of workers.
func ExampleSample() {
	s, _ := scenario.Parse("example.yaml", []byte(example))
	t, _ := crt.Builtin(s.CRT)
	c, _ := combat.Compile(s, t, nil)
	for _, workers := range []int{1, 4} {
		tally, run, _ := sim.Sample(context.Background(), c, sim.Config{Trials: 1_000_000, Seed: 42, Workers: workers})
		sum := analysis.Summarize(c, tally, run)
		e := sum.Probabilities.HexTaken
		fmt.Printf("%d workers: P(hex taken) = %.4f [%.4f, %.4f]\n", workers, e.P, e.Lo, e.Hi)
	}
	// Output:
	// 1 workers: P(hex taken) = 0.9169 [0.9163, 0.9174]
	// 4 workers: P(hex taken) = 0.9169 [0.9163, 0.9174]
}
