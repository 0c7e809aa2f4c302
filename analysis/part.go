package analysis

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/wifodds/wifodds/sim"
)

// RunPartFormat names a sharded run's part file and its version.
const RunPartFormat = "wifodds-run-part/1"

// RunPart is what one shard of a large Monte Carlo run writes: its raw
// integer tallies and everything the merge needs to finish the summary the
// one-process run gives (the scenario's and tables' content, the run's
// settings), with a hash of all of it that every shard shares.
type RunPart struct {
	Format    string `json:"format"`
	Hash      string `json:"hash"`
	Shard     int    `json:"shard"`
	Shards    int    `json:"shards"`
	File      string `json:"file"`                        // the scenario file as named
	Scenario  string `json:"scenario"`                    // its text
	CRT       string `json:"crt,omitempty"`               // the table the run used, by name
	CRTSource string `json:"crt_source,omitempty"`        // a table file's content
	AirSource string `json:"air_tables_source,omitempty"` // an air tables file's content
	Trials    uint64 `json:"trials"`                      // of the whole run
	Seed      uint64 `json:"seed"`
	Raids     int    `json:"raids"`
	Workers   int    `json:"workers"`
	Explain   bool   `json:"explain"`
	Replay    []int  `json:"replay,omitempty"`
	// The shard's tally: outcome counts, or a campaign's counts by key
	// (decimal), and the trials it ran.
	Counts      []uint64          `json:"counts,omitempty"`
	Keys        map[string]uint64 `json:"keys,omitempty"`
	ShardTrials uint64            `json:"shard_trials"`
	Elapsed     float64           `json:"elapsed_seconds"`
}

// Seal sets the part's hash over everything but the shard and its tally.
func (p *RunPart) Seal() {
	q := *p
	q.Hash, q.Shard, q.Counts, q.Keys, q.ShardTrials, q.Elapsed, q.Workers = "", 0, nil, nil, 0, 0, 0
	b, _ := json.Marshal(q)
	s := sha256.Sum256(b)
	p.Hash = hex.EncodeToString(s[:])
}

// ReadRunPart decodes a run part, refusing anything that is not a whole one.
func ReadRunPart(name string, data []byte) (*RunPart, error) {
	var p RunPart
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: not a run part (truncated or damaged?): %w", name, err)
	}
	check := p
	check.Seal()
	switch {
	case p.Format != RunPartFormat:
		return nil, fmt.Errorf("%s: format %q, want %q", name, p.Format, RunPartFormat)
	case p.Shards < 1 || p.Shard < 1 || p.Shard > p.Shards:
		return nil, fmt.Errorf("%s: shard %d of %d: not a valid part", name, p.Shard, p.Shards)
	case check.Hash != p.Hash:
		return nil, fmt.Errorf("%s: its content does not match its hash (edited?)", name)
	}
	return &p, nil
}

// MergeRuns checks that parts are every shard of one run, once each, and
// sums their tallies: counts or keys, the trials, and the longest shard's
// time as the run's.
func MergeRuns(parts map[string]*RunPart) (first *RunPart, counts []uint64, keys map[uint64]uint64, run sim.Run, err error) {
	names := make([]string, 0, len(parts))
	for n := range parts {
		names = append(names, n)
	}
	slices.Sort(names)
	if len(names) == 0 {
		return nil, nil, nil, run, errors.New("merge: no parts")
	}
	first = parts[names[0]]
	byShard := map[int]string{}
	var trials uint64
	var elapsed float64
	workers := first.Workers
	for _, n := range names {
		p := parts[n]
		switch {
		case p.Hash != first.Hash:
			return nil, nil, nil, run, fmt.Errorf("merge: %s and %s come from different runs (scenario, tables, trials, seed or raids differ)", names[0], n)
		case p.Shards != first.Shards:
			return nil, nil, nil, run, fmt.Errorf("merge: %s is shard %d of %d but %s is of %d", n, p.Shard, p.Shards, names[0], first.Shards)
		case first.Raids <= 1 && len(p.Counts) != len(first.Counts):
			return nil, nil, nil, run, fmt.Errorf("merge: %s and %s hold different tallies", names[0], n)
		}
		if other, dup := byShard[p.Shard]; dup {
			return nil, nil, nil, run, fmt.Errorf("merge: shard %d of %d twice: %s and %s", p.Shard, p.Shards, other, n)
		}
		byShard[p.Shard] = n
		if p.Workers != workers {
			workers = 0 // the shards ran on different worker counts: no one count to report
		}
		trials += p.ShardTrials
		elapsed = max(elapsed, p.Elapsed)
	}
	var missing []int
	for i := 1; i <= first.Shards; i++ {
		if _, ok := byShard[i]; !ok {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		return nil, nil, nil, run, fmt.Errorf("merge: shard(s) %v of %d missing", missing, first.Shards)
	}
	if trials != first.Trials {
		return nil, nil, nil, run, fmt.Errorf("merge: the shards ran %d trials, not the run's %d (a part was cut short)", trials, first.Trials)
	}
	if first.Raids > 1 { // a campaign: counts by key
		keys = map[uint64]uint64{}
		for _, n := range names {
			for k, v := range parts[n].Keys {
				key, err := strconv.ParseUint(k, 10, 64)
				if err != nil {
					return nil, nil, nil, run, fmt.Errorf("merge: %s: key %q", n, k)
				}
				keys[key] += v
			}
		}
	} else {
		counts = make([]uint64, len(first.Counts))
		for _, n := range names {
			for o, c := range parts[n].Counts {
				counts[o] += c
			}
		}
	}
	seed := first.Seed
	run = sim.Run{Method: sim.MethodMonteCarlo, Trials: trials, Seed: &seed, Workers: workers, Chunk: sim.ChunkSize, Elapsed: elapsed}
	return first, counts, keys, run, nil
}
