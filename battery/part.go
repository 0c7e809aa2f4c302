package battery

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// PartFormat names a battery part file and its version.
const PartFormat = "wifodds-battery-part/1"

// Part is what one shard writes: its results, and what identifies the
// battery they belong to.
type Part struct {
	Format    string   `json:"format"`
	Battery   string   `json:"battery"`
	Hash      string   `json:"hash"` // every scenario, table and setting
	Shard     int      `json:"shard"`
	Shards    int      `json:"shards"`
	Scenarios int      `json:"scenarios"` // in the whole battery
	Results   []Result `json:"results"`
}

// ReadPart decodes a part file, refusing anything that is not a whole one.
func ReadPart(name string, data []byte) (*Part, error) {
	var p Part
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: not a battery part (truncated or damaged?): %w", name, err)
	}
	if p.Format != PartFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", name, p.Format, PartFormat)
	}
	if p.Shards < 1 || p.Shard < 1 || p.Shard > p.Shards || p.Scenarios < 0 || p.Hash == "" {
		return nil, fmt.Errorf("%s: shard %d of %d, %d scenarios: not a valid part", name, p.Shard, p.Shards, p.Scenarios)
	}
	want := Shard{p.Shard, p.Shards}
	n := 0
	for i := range p.Scenarios {
		if want.Mine(i) {
			if n >= len(p.Results) || p.Results[n].Index != i {
				return nil, fmt.Errorf("%s: shard %d of %d should hold scenario %d; the part is incomplete", name, p.Shard, p.Shards, i+1)
			}
			n++
		}
	}
	if n != len(p.Results) {
		return nil, fmt.Errorf("%s: %d results, want %d for shard %d of %d", name, len(p.Results), n, p.Shard, p.Shards)
	}
	return &p, nil
}

// Merge checks that parts are every shard of one battery, once each, and
// assembles its report.
func Merge(parts map[string]*Part) (*Report, error) {
	if len(parts) == 0 {
		return nil, errors.New("merge: no parts")
	}
	names := make([]string, 0, len(parts))
	for n := range parts {
		names = append(names, n)
	}
	slices.Sort(names)
	first := parts[names[0]]
	byShard := map[int]string{}
	for _, n := range names {
		p := parts[n]
		switch {
		case p.Hash != first.Hash || p.Battery != first.Battery || p.Scenarios != first.Scenarios:
			return nil, fmt.Errorf("merge: %s and %s come from different batteries (different scenarios, tables, variants, seeds or trials)", names[0], n)
		case p.Shards != first.Shards:
			return nil, fmt.Errorf("merge: %s is shard %d of %d but %s is of %d", n, p.Shard, p.Shards, names[0], first.Shards)
		}
		if other, dup := byShard[p.Shard]; dup {
			return nil, fmt.Errorf("merge: shard %d of %d twice: %s and %s", p.Shard, p.Shards, other, n)
		}
		byShard[p.Shard] = n
	}
	var missing []int
	for i := 1; i <= first.Shards; i++ {
		if _, ok := byShard[i]; !ok {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("merge: shard(s) %v of %d missing", missing, first.Shards)
	}
	results := make([]Result, 0, first.Scenarios)
	for i := range first.Scenarios {
		p := parts[byShard[i%first.Shards+1]]
		r := p.Results[i/first.Shards]
		if len(r.Variants) == 0 || len(r.Variants) != len(results0(results, r).Variants) {
			return nil, fmt.Errorf("merge: %s: scenario %d has %d variants, not the battery's; the part is damaged", byShard[i%first.Shards+1], i+1, len(r.Variants))
		}
		results = append(results, r)
	}
	return NewReport(first.Battery, first.Hash, results), nil
}

// results0 is the first result so far, or r itself.
func results0(results []Result, r Result) Result {
	if len(results) > 0 {
		return results[0]
	}
	return r
}
