package shard

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/sim"
)

// goodRunPart is shard 1 of 1 of a 10-trial land combat run, sealed.
func goodRunPart() *RunPart {
	p := &RunPart{Format: RunPartFormat, Shard: 1, Shards: 1, File: "x.yaml", Scenario: "kind: land\n", Trials: 10, Seed: 1, Raids: 1, Counts: []uint64{4, 6}, ShardTrials: 10}
	p.Seal()
	return p
}

func runPartJSON(t testing.TB, p *RunPart) []byte {
	t.Helper()
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// No run part, however damaged, makes ReadRunPart or MergeRuns panic.
func FuzzReadRunPart(f *testing.F) {
	good := runPartJSON(f, goodRunPart())
	if _, err := ReadRunPart("p.json", bytes.NewReader(good)); err != nil {
		f.Fatalf("the seed part is refused: %v", err)
	}
	f.Add(good)
	f.Add([]byte(`{"format":"wifodds-run-part/2","shard":2,"shards":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadRunPart("p.json", bytes.NewReader(data))
		if err != nil {
			return
		}
		MergeRuns(map[string]*RunPart{"p.json": p})
	})
}

// Issue 23 items 2 and 6: a run part whose tally was edited is refused,
// whether or not its digest was recomputed after the edit: a count raised
// (which reached stats.Wilson's panic), a count of 2^64-1 that wraps the
// sum back to the trials, trials other than the shard's share, a campaign
// key not in plain decimal.
func TestReadRunPartRefusesEdits(t *testing.T) {
	edited := strings.Replace(string(runPartJSON(t, goodRunPart())), "    4,", "    100004,", 1)
	if _, err := ReadRunPart("p2.json", strings.NewReader(edited)); err == nil || err.Error() != "p2.json: its content does not match its digest (edited by hand or damaged?)" {
		t.Errorf("an edited count: got %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(p *RunPart)
		want string
	}{
		{"a count raised", func(p *RunPart) { p.Counts[0] += 100000 }, "the tally counts 100010 trials, not the shard's 10"},
		{"a count that wraps the sum", func(p *RunPart) { p.Counts = []uint64{math.MaxUint64, 11} }, "more than 2^64 trials"},
		{"the shard's trials", func(p *RunPart) { p.ShardTrials, p.Counts = 9, []uint64{4, 5} }, "shard 1 of 1 ran 9 trials; its share of 10 is 10"},
		{"the run's trials", func(p *RunPart) { p.Trials = 0 }, "a run of no trials"},
		{"keys in a single combat", func(p *RunPart) { p.Keys = map[string]uint64{"1": 10}; p.Counts = nil }, "tallies campaign keys"},
		{"a campaign key not in decimal", func(p *RunPart) { p.Raids, p.Counts, p.Keys = 3, nil, map[string]uint64{"01": 10} }, `campaign key "01"`},
		{"raids", func(p *RunPart) { p.Raids = 0 }, "raids 0"},
		// Red-team finding F5: what no shard writes, digest recomputed.
		{"trials past the cap", func(p *RunPart) { p.Trials, p.ShardTrials, p.Counts = 1<<64-1, 1<<64-1, []uint64{1<<64 - 1, 0} }, "a run of 18446744073709551615 trials: at most 1125899906842624"},
		{"workers past the cap", func(p *RunPart) { p.Workers = 1 << 62 }, "workers 4611686018427387904"},
		{"a run of centuries", func(p *RunPart) { p.Elapsed = 1e308 }, "1e+308 seconds: not a shard's"},
		{"a hash not of the content", func(p *RunPart) { p.Hash = strings.Repeat("0", 64) }, "does not match its hash"},
	} {
		p := goodRunPart()
		c.edit(p)
		if c.name != "a hash not of the content" {
			p.Hash = p.hash()
		}
		p.Digest = p.digest()
		if _, err := ReadRunPart("p.json", bytes.NewReader(runPartJSON(t, p))); err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "p.json: ") {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := ReadRunPart("p.json", strings.NewReader(string(runPartJSON(t, goodRunPart()))+"{}")); err == nil || !strings.Contains(err.Error(), "more after the part's end") {
		t.Errorf("trailing data: got %v", err)
	}
}

// shardTrials is each shard's share of the run's chunks: the shares add
// up to the run, and each is what walking the shard's chunks one by one
// gives.
func TestShardTrials(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		trials := 1 + rng.Uint64N(40*sim.ChunkSize)
		if rng.IntN(4) == 0 {
			trials = math.MaxUint64 - rng.Uint64N(3*sim.ChunkSize)
		}
		count := 1 + rng.Uint64N(12)
		chunks := (trials-1)/sim.ChunkSize + 1
		var total uint64
		for index := uint64(1); index <= count; index++ {
			got := shardTrials(trials, index, count)
			total += got
			if chunks > 100 {
				continue
			}
			var want uint64
			for k := index - 1; k < chunks; k += count {
				want += min(sim.ChunkSize, trials-k*sim.ChunkSize)
			}
			if got != want {
				t.Fatalf("%d trials, shard %d of %d: %d, want %d", trials, index, count, got, want)
			}
		}
		if total != trials {
			t.Fatalf("%d trials in %d shards: the shares add to %d", trials, count, total)
		}
	}
}

// Red-team finding F12: merging shard 1 of 10,000 listed 9,999 missing
// shards in a 48,936-byte message. A long list is cut after ten.
func TestShortlist(t *testing.T) {
	many := make([]int, 9999)
	for i := range many {
		many[i] = i + 2
	}
	for _, c := range []struct {
		xs   []int
		want string
	}{
		{[]int{2}, "[2]"},
		{many[:10], "[2 3 4 5 6 7 8 9 10 11]"},
		{many[:11], "[2 3 4 5 6 7 8 9 10 11] and 1 more"},
		{many, "[2 3 4 5 6 7 8 9 10 11] and 9989 more"},
	} {
		if got := Shortlist(c.xs); got != c.want {
			t.Errorf("%d numbers: got %q, want %q", len(c.xs), got, c.want)
		}
	}
}
