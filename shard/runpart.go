package shard

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strconv"

	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/sim"
)

// RunPartFormat names a sharded run's part file and its version. Version
// 2 added the digest.
const RunPartFormat = "wifodds-run-part/2"

// MaxRunPartSize is the largest run part merge reads: the scenario's and
// tables' text (each at most a megabyte) and a tally, counts by outcome or
// a campaign's counts by key, which is far smaller.
const MaxRunPartSize = 16 << 20

// MaxRunShards is the most shards a run is split into.
const MaxRunShards = 10000

// RunPart is what one shard of a large Monte Carlo run writes: its raw
// integer tallies and everything the merge needs to finish the summary the
// one-process run gives (the scenario's and tables' content, the run's
// settings), with a hash of all of it that every shard shares, and a
// digest of the whole part.
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
	// Digest is the SHA-256 of everything above, so that a part edited by
	// hand or damaged in transit is refused.
	Digest string `json:"digest"`
}

// Seal sets the part's hash, over everything but the shard and its tally,
// and then its digest, over everything.
func (p *RunPart) Seal() {
	p.Hash = p.hash()
	p.Digest = p.digest()
}

func (p *RunPart) hash() string {
	q := *p
	q.Hash, q.Digest, q.Shard, q.Counts, q.Keys, q.ShardTrials, q.Elapsed, q.Workers = "", "", 0, nil, nil, 0, 0, 0
	return sum(q)
}

func (p *RunPart) digest() string {
	q := *p
	q.Digest = ""
	return sum(q)
}

// sum is the hex SHA-256 of a part's JSON (maps in key order). A RunPart
// marshals without error: its one float, Elapsed, is a measured time or
// was read from JSON, so it is finite.
func sum(p RunPart) string {
	b, _ := json.Marshal(p)
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// ReadRunPart decodes a run part, refusing anything that is not a whole one
// exactly as a shard wrote it: damaged JSON, a part whose digest or hash
// does not match its content, or a tally that cannot be the shard's.
func ReadRunPart(name string, r io.Reader) (*RunPart, error) {
	var p RunPart
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	err := dec.Decode(&p)
	if err == nil {
		if _, end := dec.Token(); end != io.EOF {
			err = errors.New("more after the part's end")
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: not a run part (truncated or damaged?): %w", name, err)
	}
	switch {
	case p.Format != RunPartFormat:
		return nil, fmt.Errorf("%s: format %q, want %q (a part from another version of wifodds: run its shard again)", name, p.Format, RunPartFormat)
	case p.Shards < 1 || p.Shards > MaxRunShards || p.Shard < 1 || p.Shard > p.Shards:
		return nil, fmt.Errorf("%s: shard %d of %d: not a valid part", name, p.Shard, p.Shards)
	case p.digest() != p.Digest:
		return nil, fmt.Errorf("%s: its content does not match its digest (edited by hand or damaged?)", name)
	case p.hash() != p.Hash:
		return nil, fmt.Errorf("%s: its content does not match its hash (edited?)", name)
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &p, nil
}

// check refuses a tally the shard cannot have counted: trials other than
// its share of the run's chunks, counts that do not add up to them (summed
// so that no count, however large, wraps the sum), a campaign key written
// other than in plain decimal, and settings out of range.
func (p *RunPart) check() error {
	switch {
	case p.Trials == 0:
		return errors.New("a run of no trials")
	case p.Trials > sim.MaxTrials:
		return fmt.Errorf("a run of %d trials: at most %d", p.Trials, sim.MaxTrials)
	case p.Raids < 1 || p.Raids > combat.MaxRaids:
		return fmt.Errorf("raids %d: want 1 to %d", p.Raids, combat.MaxRaids)
	case p.Workers < 0 || p.Workers > sim.MaxWorkers || !(p.Elapsed >= 0) || p.Elapsed > sim.MaxElapsed:
		return fmt.Errorf("workers %d, %v seconds: not a shard's (at most %d workers and %g seconds)", p.Workers, p.Elapsed, sim.MaxWorkers, sim.MaxElapsed)
	case p.Raids > 1 && len(p.Counts) > 0:
		return fmt.Errorf("a campaign of %d raids tallies outcome counts, not campaign keys", p.Raids)
	case p.Raids == 1 && len(p.Keys) > 0:
		return errors.New("a single combat or raid tallies campaign keys, not outcome counts")
	}
	if want := shardTrials(p.Trials, uint64(p.Shard), uint64(p.Shards)); p.ShardTrials != want {
		return fmt.Errorf("shard %d of %d ran %d trials; its share of %d is %d", p.Shard, p.Shards, p.ShardTrials, p.Trials, want)
	}
	var total uint64
	var carry uint64
	add := func(c uint64) {
		var k uint64
		total, k = bits.Add64(total, c, 0)
		carry |= k
	}
	for _, c := range p.Counts {
		add(c)
	}
	for k, c := range p.Keys {
		key, err := strconv.ParseUint(k, 10, 64)
		if err != nil || strconv.FormatUint(key, 10) != k {
			return fmt.Errorf("campaign key %q: want a whole number in decimal", k)
		}
		add(c)
	}
	switch {
	case carry != 0:
		return fmt.Errorf("the tally counts more than 2^64 trials, not the shard's %d", p.ShardTrials)
	case total != p.ShardTrials:
		return fmt.Errorf("the tally counts %d trials, not the shard's %d", total, p.ShardTrials)
	}
	return nil
}

// CheckCampaignKeys refuses a merged campaign tally holding a key no run
// of the campaign can give (combat.CampaignLimits): the digest guards
// against edits, not against someone who recomputes it.
func CheckCampaignKeys(r *combat.Raid, keys map[uint64]uint64, raids int) error {
	limits := r.CampaignLimits(raids)
	ks := make([]uint64, 0, len(keys))
	for k := range keys {
		ks = append(ks, k)
	}
	slices.Sort(ks) // the same key named whatever the map's order
	for _, k := range ks {
		if err := combat.CheckCampaignKey(k, limits); err != nil {
			return err
		}
	}
	return nil
}

// Shortlist writes a list of numbers as [1 2 3], the first ten only of a
// longer one followed by how many more: a merge of shard 1 of 10,000
// names the 9,999 missing in one line, not 49 kilobytes.
func Shortlist(xs []int) string {
	const show = 10
	if len(xs) <= show {
		return fmt.Sprint(xs)
	}
	return fmt.Sprintf("%v and %d more", xs[:show], len(xs)-show)
}

// shardTrials is the trials shard index of count runs of a run of trials:
// the run's chunks index-1, index-1+count, ..., every one ChunkSize but
// the run's last, which holds what is left.
func shardTrials(trials, index, count uint64) uint64 {
	chunks := trials/sim.ChunkSize + min(trials%sim.ChunkSize, 1)
	if index-1 >= chunks {
		return 0
	}
	mine := (chunks-index)/count + 1
	if (chunks-1)%count == index-1 { // the last chunk is the shard's
		return (mine-1)*sim.ChunkSize + (trials - (chunks-1)*sim.ChunkSize)
	}
	return mine * sim.ChunkSize
}

// MergeRuns checks that parts (as ReadRunPart reads them) are every shard
// of one run, once each, and sums their tallies: counts or keys, the
// trials, and the longest shard's time as the run's.
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
		var carry uint64
		if trials, carry = bits.Add64(trials, p.ShardTrials, 0); carry != 0 {
			return nil, nil, nil, run, fmt.Errorf("merge: the shards ran more than 2^64 trials, not the run's %d", first.Trials)
		}
		elapsed = max(elapsed, p.Elapsed)
	}
	var missing []int
	for i := 1; i <= first.Shards; i++ {
		if _, ok := byShard[i]; !ok {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		return nil, nil, nil, run, fmt.Errorf("merge: shard(s) %s of %d missing", Shortlist(missing), first.Shards)
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
