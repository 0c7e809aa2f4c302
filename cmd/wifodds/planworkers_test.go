package main

import (
	"context"
	"flag"
	"io"
	"testing"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/scenario"
)

// plan and defend hand --workers to the planner, not only to its
// sampling: before, the planner weighed on one goroutine whatever -w said.
func TestAskPlanPassesWorkers(t *testing.T) {
	app := &cli.App{ErrWriter: io.Discard}
	c := cli.NewContext(app, flag.NewFlagSet("plan", flag.ContinueOnError), nil)
	c.Context = context.Background()
	for _, workers := range []int{1, 3} {
		got := -1
		_, err := askPlan(c, &scenario.Scenario{}, sampling{workers: workers, quiet: true}, "forces", answer.PlanFlags{},
			func(_ context.Context, _ answer.Input, f answer.PlanFlags) (int, error) {
				got = f.Workers
				return 0, nil
			})
		if err != nil {
			t.Fatal(err)
		}
		if got != workers {
			t.Errorf("--workers %d: the planner was given %d", workers, got)
		}
	}
}
