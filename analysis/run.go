package analysis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// Engine chooses how a run computes its answer.
type Engine int

const (
	// MonteCarlo samples seeded trials.
	MonteCarlo Engine = iota
	// Exact enumerates every dice path; over the budget it is an error.
	Exact
	// Auto is exact when the dice tree fits the budget, else Monte Carlo.
	Auto
)

// Request is how to run a compiled combat or raid.
type Request struct {
	Engine Engine
	Budget int        // most dice paths exact enumeration may walk (<= 0: sim.DefaultPathBudget); a tabulated answer walks none
	Sample sim.Config // Monte Carlo trials, seed, workers, precision and progress
	// ExactProgress, when set, sees the paths enumerated so far.
	ExactProgress func(done, planned uint64)
	// Replay lists rolls to replay and audit; rolls past the list are drawn
	// from a stream of the seed that no Monte Carlo chunk uses.
	Replay []int
}

// ErrNoTrials is returned when a run was interrupted before its first
// chunk of trials finished: there is nothing to report.
var ErrNoTrials = errors.New("stopped before the first chunk of trials finished; nothing to report")

// RunCombat runs c as req says and returns the finished summary: the
// engine's run record, the warnings about the method chosen, and the
// replay audit. Interrupted Monte Carlo returns the partial summary
// (Partial set); interrupted exact enumeration returns an error wrapping
// ctx.Err().
func RunCombat(ctx context.Context, c *combat.Combat, req Request) (*Summary, error) {
	engine, warnings, err := choose(ctx, c, req)
	if err != nil {
		return nil, err
	}
	t, run, err := count(ctx, c, engine, req, func(t *stats.Tally) float64 { return HalfWidth(c, t) })
	if err != nil {
		return nil, err
	}
	if engine == Exact && req.Engine == Auto && req.Sample.Precision > 0 {
		warnings = append(warnings, "--precision does not apply: the answer is exact")
	}
	return FinishCombat(c, t, run, req, warnings)
}

// FinishCombat makes the summary RunCombat returns from a tally of c: the
// summary, the warnings about the method, and the audit of the rolls
// req.Replay lists. A merged sharded run finishes here too.
func FinishCombat(c *combat.Combat, t *stats.Tally, run sim.Run, req Request, warnings []string) (*Summary, error) {
	sum := Summarize(c, t, run)
	sum.Warnings = append(sum.Warnings, warnings...)
	if len(req.Replay) > 0 {
		r, err := Replay(c, req.Replay, replayStream(req.Sample.Seed))
		if err != nil {
			return nil, err
		}
		r.Audit(c, t)
		sum.Replay = r
	}
	return sum, nil
}

// budget is the request's path budget, DefaultPathBudget when unset.
func (r Request) budget() int {
	if r.Budget <= 0 {
		return sim.DefaultPathBudget
	}
	return r.Budget
}

// choose settles an Auto request: exact when the answer fits the budget
// (sim.Fits: tabulated, or few enough dice paths to walk).
func choose(ctx context.Context, m sim.Model, req Request) (Engine, []string, error) {
	if req.Engine != Auto {
		return req.Engine, nil, nil
	}
	budget := req.budget()
	fits, err := sim.Fits(ctx, m, budget)
	if err != nil {
		return 0, nil, err
	}
	if !fits {
		return MonteCarlo, []string{fmt.Sprintf("sampled (Monte Carlo): the dice tree has more than %d paths, the budget for an exact answer", budget)}, nil
	}
	return Exact, nil, nil
}

// count enumerates m exactly, or samples it with halfWidth judging a
// precision target.
func count(ctx context.Context, m sim.Model, engine Engine, req Request, halfWidth func(*stats.Tally) float64) (*stats.Tally, sim.Run, error) {
	if engine == Exact {
		return sim.Exact(ctx, m, req.Budget, req.ExactProgress)
	}
	cfg := req.Sample
	cfg.HalfWidth = halfWidth
	return sample(ctx, m, cfg)
}

// sample runs Monte Carlo and refuses a run with no trial to report.
func sample(ctx context.Context, m sim.Model, cfg sim.Config) (*stats.Tally, sim.Run, error) {
	t, run, err := sim.Sample(ctx, m, cfg)
	return t, run, someTrials(run, err)
}

// someTrials is err, or ErrNoTrials when a sampled run has no trial to
// report.
func someTrials(run sim.Run, err error) error {
	if err == nil && run.Trials == 0 {
		return ErrNoTrials
	}
	return err
}

// RunRaid runs one raid as req says (Auto is exact: a compiled raid is
// always tabulated), or a campaign of raids > 1 by Monte Carlo (Auto
// samples it).
func RunRaid(ctx context.Context, r *combat.Raid, req Request, raids int) (*RaidSummary, error) {
	if raids > 1 {
		if req.Engine == Exact {
			return exactCampaign(ctx, r, req, raids)
		}
		if req.Sample.Precision > 0 {
			return nil, errors.New("a sampled campaign runs the trials given, not to a precision")
		}
		keys, run, err := sim.SampleKeys(ctx, r.Campaign(raids), req.Sample)
		if err := someTrials(run, err); err != nil {
			return nil, err
		}
		return FinishCampaign(r, keys, run, req, raids), nil
	}
	engine := Exact // a raid's tree is always tabulated
	if req.Engine == MonteCarlo {
		engine = MonteCarlo
	}
	t, run, err := count(ctx, r, engine, req, func(t *stats.Tally) float64 { return RaidHalfWidth(r, t) })
	if err != nil {
		return nil, err
	}
	return FinishRaid(r, t, run, req)
}

// exactCampaign is a campaign's exact summary: the distribution of each
// metric's total by dynamic programming over its Markov chain
// (Raid.CampaignMarginals).
func exactCampaign(ctx context.Context, r *combat.Raid, req Request, raids int) (*RaidSummary, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	start := time.Now()
	marg, weighed, err := r.CampaignMarginals(ctx, raids, req.budget())
	if err != nil {
		return nil, err
	}
	run := sim.Run{Method: sim.MethodExact, Paths: weighed, Elapsed: time.Since(start).Seconds()}
	sum := summarizeMarginals(r, &marg, run, raids)
	if len(req.Replay) > 0 {
		sum.Warnings = append(sum.Warnings, "dice are replayed for a single raid only; ignored for a campaign")
	}
	return sum, nil
}

// FinishCampaign makes the summary of a campaign from its keyed tally.
func FinishCampaign(r *combat.Raid, keys map[uint64]uint64, run sim.Run, req Request, raids int) *RaidSummary {
	sum := SummarizeCampaign(r, keys, run, raids)
	if len(req.Replay) > 0 {
		sum.Warnings = append(sum.Warnings, "dice are replayed for a single raid only; ignored for a campaign")
	}
	return sum
}

// FinishRaid makes a raid's summary from its tally, with the audit of the
// rolls req.Replay lists.
func FinishRaid(r *combat.Raid, t *stats.Tally, run sim.Run, req Request) (*RaidSummary, error) {
	sum := SummarizeRaid(r, t, run)
	if len(req.Replay) > 0 {
		rp, err := ReplayRaid(r, req.Replay, replayStream(req.Sample.Seed))
		if err != nil {
			return nil, err
		}
		rp.Audit(r, t)
		sum.Replay = rp
	}
	return sum, nil
}

// replayStream draws the rolls a replay needs beyond the listed ones, from
// a stream no Monte Carlo chunk uses.
func replayStream(seed uint64) sim.Dice { return sim.NewStream(seed, math.MaxUint64) }

// RaidHalfWidth is the largest 95% half-width of P(asterisk) and P(each
// number of build points lost): a raid's headline figures.
func RaidHalfWidth(r *combat.Raid, t *stats.Tally) float64 {
	worst := t.Event(func(i int) bool { return r.Outcomes[i].Star }).HalfWidth()
	for _, e := range t.Distribution(nil, func(i int) int { return int(r.Outcomes[i].BP) }) {
		worst = max(worst, e.HalfWidth())
	}
	return worst
}

// HalfWidth is the largest half-width of the 95% Wilson intervals of a
// combat's headline probabilities: hex taken, breakthrough, attackers
// face-up and each CRT result.
func HalfWidth(c *combat.Combat, t *stats.Tally) float64 {
	worst := 0.0
	check := func(e stats.Estimate) { worst = max(worst, e.HalfWidth()) }
	check(t.Event(func(i int) bool { return c.Outcomes[i].HexTaken }))
	check(t.Event(func(i int) bool { return c.Outcomes[i].Breakthrough }))
	check(t.Event(func(i int) bool { return c.Outcomes[i].AttackerFaceUp }))
	seen := map[string]bool{}
	for _, o := range c.Outcomes {
		r := o.Result.String()
		if seen[r] {
			continue
		}
		seen[r] = true
		check(t.Event(func(i int) bool { return c.Outcomes[i].Result.String() == r }))
	}
	return worst
}
