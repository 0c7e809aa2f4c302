package query

import (
	"context"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/scenario"
)

// Whatever query a link carries, the reader answers it or refuses it
// with a message, and never panics. Computations are cut at 200 ms and capped
// at 10,000 trials.
func FuzzParameters(f *testing.F) {
	in := exampleInput(f)
	for _, q := range []string{"method=exact&dice=5,1&explain=1", "method=mc&trials=1e3&seed=010", "raids=3",
		"variant=a=crt=2d6&independent=true", "attack=5..9&modifier=-1..1&crt=standard,2d6&target=0.5",
		"target=0.7&max_forces=1e3", "budget=2M", "dice=7", "seed=1&seed=2"} {
		for _, cmd := range []string{"run", "compare", "sweep", "plan"} {
			f.Add(cmd, q)
		}
	}
	lim := Limits{MaxTrials: 10_000, Workers: 1}
	f.Fuzz(func(t *testing.T, cmd, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		if err := Check(cmd, v); err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		switch cmd {
		case "run":
			_, err = Run(ctx, in, v, lim)
		case "compare":
			_, err = Compare(ctx, in, v, lim)
		case "sweep":
			_, err = Sweep(ctx, in, v, lim)
		case "plan":
			_, err = Plan(ctx, in, v, lim)
		default:
			return
		}
		if err != nil && Message(err) == "" {
			t.Fatalf("%s?%s: an empty message for %v", cmd, raw, err)
		}
	})
}

// exampleInput is a request carrying the AsA 3.14 example, as the page
// sends it: no file reads, only the built-in tables.
func exampleInput(tb testing.TB) answer.Input {
	tb.Helper()
	text, err := os.ReadFile("../../examples/wild-results-3to1.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	return answer.Input{Name: "request.yaml", Text: text, Options: scenario.ParseOptions{NoFiles: true}, Tables: answer.Supplied{}}
}
