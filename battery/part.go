package battery

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/wifodds/wifodds/shard"
)

// PartFormat names a battery part file and its version. Version 2 added
// the digest, the variants and the engine.
const PartFormat = "wifodds-battery-part/2"

// MaxShards is the most shards a battery is split into.
const MaxShards = 10000

// MaxPartSize is the largest part file merge reads: a part of a
// MaxGenerated-scenario battery under two variants, in one shard, is about
// 260 MB. Merge refuses a larger file before reading any of it.
const MaxPartSize = 256 << 20

// Part is what one shard writes: its results, what identifies the battery
// they belong to, and a digest of all of it.
type Part struct {
	Format    string `json:"format"`
	Battery   string `json:"battery"`
	Hash      string `json:"hash"` // every scenario, table and setting
	Shard     int    `json:"shard"`
	Shards    int    `json:"shards"`
	Scenarios int    `json:"scenarios"` // in the whole battery
	// Variants are the NAME=OVERRIDES specs the battery ran, and Engine how
	// it chose each scenario's method: exact, monte-carlo or auto. Every
	// result is checked against them.
	Variants []string `json:"variants"`
	Engine   string   `json:"engine"`
	Results  []Result `json:"results"`
	// Digest is the SHA-256 of everything above (Seal), so that a part
	// edited by hand or damaged in transit is refused.
	Digest string `json:"digest"`
}

// NewPart is shard's part of a battery run under cfg, sealed: its results
// out of scenarios in all, and the battery's name and hash.
func NewPart(name, hash string, cfg Config, shard Shard, scenarios int, results []Result) (*Part, error) {
	p := &Part{Format: PartFormat, Battery: name, Hash: hash, Shard: shard.Index, Shards: shard.Count, Scenarios: scenarios,
		Variants: cfg.Variants, Engine: engineName(cfg.Request.Engine), Results: results}
	return p, p.Seal()
}

// Seal sets the part's digest. It fails only on a figure JSON cannot hold
// (NaN or an infinity), which no part can carry.
func (p *Part) Seal() error {
	d, err := p.digest()
	p.Digest = d
	return err
}

// digest is the hex SHA-256 of the part's header (its fields but the
// results and the digest, as JSON) followed by each result as JSON, one a
// line. Each result is encoded on its own, so sealing or checking a large
// part never holds a second copy of it.
func (p *Part) digest() (string, error) {
	h := sha256.New()
	enc := json.NewEncoder(h)
	head := *p
	head.Results, head.Digest = nil, ""
	if err := enc.Encode(head); err != nil {
		return "", err
	}
	for i := range p.Results {
		if err := enc.Encode(&p.Results[i]); err != nil {
			return "", fmt.Errorf("scenario %d: %w", p.Results[i].Index+1, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ReadPart decodes a part, refusing anything that is not a whole one
// exactly as a shard wrote it: a damaged or truncated file, one whose
// digest does not match its content, or one whose figures are out of
// range. It streams r: the part's results are decoded one at a time, and
// nothing but them is held.
func ReadPart(name string, r io.Reader) (*Part, error) {
	p, err := decodePart(&stringBound{r: r, max: MaxPartString})
	if err != nil {
		return nil, fmt.Errorf("%s: not a battery part (truncated or damaged?): %w", name, err)
	}
	if p.Format != PartFormat {
		return nil, fmt.Errorf("%s: format %q, want %q (a part from another version of wifodds: run its shard again)", name, p.Format, PartFormat)
	}
	if p.Shards < 1 || p.Shards > MaxShards || p.Shard < 1 || p.Shard > p.Shards || p.Scenarios < 0 || p.Hash == "" {
		return nil, fmt.Errorf("%s: shard %d of %d, %d scenarios: not a valid part", name, p.Shard, p.Shards, p.Scenarios)
	}
	// Shard k of n holds scenarios k-1, k-1+n, ...: count them without
	// walking every index up to a claimed total.
	want := 0
	if p.Scenarios > p.Shard-1 {
		want = (p.Scenarios-p.Shard)/p.Shards + 1
	}
	for j := range min(want, len(p.Results)) {
		if i := p.Shard - 1 + j*p.Shards; p.Results[j].Index != i {
			return nil, fmt.Errorf("%s: shard %d of %d should hold scenario %d; the part is incomplete", name, p.Shard, p.Shards, i+1)
		}
	}
	if want != len(p.Results) {
		return nil, fmt.Errorf("%s: %d results, want %d for shard %d of %d", name, len(p.Results), want, p.Shard, p.Shards)
	}
	if d, err := p.digest(); err != nil || d != p.Digest {
		return nil, fmt.Errorf("%s: its content does not match its digest (edited by hand or damaged?)", name)
	}
	runs, err := p.header()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var ag agreement
	for i := range p.Results {
		r := &p.Results[i]
		if err := r.check(runs); err != nil {
			return nil, fmt.Errorf("%s: scenario %d: %w", name, r.Index+1, err)
		}
		if err := ag.check(r); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return p, nil
}

// decodePart reads a part's JSON object field by field and its results
// one by one, so the decoder never buffers more than one result, and
// refuses unknown, repeated and missing fields and anything after the
// object.
func decodePart(r io.Reader) (*Part, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := delim(dec, '{'); err != nil {
		return nil, err
	}
	p := &Part{}
	fields := map[string]any{"format": &p.Format, "battery": &p.Battery, "hash": &p.Hash, "shard": &p.Shard,
		"shards": &p.Shards, "scenarios": &p.Scenarios, "variants": &p.Variants, "engine": &p.Engine,
		"digest": &p.Digest, "results": nil}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		dst, known := fields[key]
		switch {
		case !known:
			return nil, fmt.Errorf("unknown field %q", key)
		case seen[key]:
			return nil, fmt.Errorf("field %q given twice", key)
		}
		seen[key] = true
		if key != "results" {
			if err := dec.Decode(dst); err != nil {
				return nil, fmt.Errorf("%s: %w", key, err)
			}
			continue
		}
		// A shard past the battery's last scenario holds none: null.
		t, err = dec.Token()
		switch {
		case err != nil:
			return nil, fmt.Errorf("results: %w", err)
		case t == nil:
			continue
		case t != json.Delim('['):
			return nil, fmt.Errorf("results: found %v, want a list", t)
		}
		for dec.More() {
			var res Result
			if err := dec.Decode(&res); err != nil {
				return nil, fmt.Errorf("results[%d]: %w", len(p.Results), err)
			}
			p.Results = append(p.Results, res)
		}
		if err := delim(dec, ']'); err != nil {
			return nil, fmt.Errorf("results: %w", err)
		}
	}
	if err := delim(dec, '}'); err != nil {
		return nil, err
	}
	for k := range fields {
		if !seen[k] {
			return nil, fmt.Errorf("no %q field", k)
		}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more after the part's end")
	}
	return p, nil
}

// delim reads the next token and refuses anything but d.
func delim(dec *json.Decoder, d json.Delim) error {
	t, err := dec.Token()
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	if err != nil {
		return err
	}
	if t != d {
		return fmt.Errorf("found %v, want %q", t, d.String())
	}
	return nil
}

// Merge checks that parts are every shard of one battery, once each, that
// every scenario has the same variants and every sampled one the same
// trials, and assembles its report.
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
		case p.Hash != first.Hash || p.Battery != first.Battery || p.Scenarios != first.Scenarios ||
			p.Engine != first.Engine || !slices.Equal(p.Variants, first.Variants):
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
		return nil, fmt.Errorf("merge: shard(s) %s of %d missing", shard.Shortlist(missing), first.Shards)
	}
	results := make([]Result, 0, first.Scenarios)
	var ag agreement
	for i := range first.Scenarios {
		from := byShard[i%first.Shards+1]
		r := parts[from].Results[i/first.Shards]
		if err := ag.check(&r); err != nil {
			return nil, fmt.Errorf("merge: %s: %w", from, err)
		}
		results = append(results, r)
	}
	return NewReport(first.Battery, first.Hash, results), nil
}

// agreement checks that every scenario of a battery was compared under the
// same variants, by name and in order, and every sampled one on the same
// trials, as the battery's one request makes them.
type agreement struct{ first, sampled *Result }

func (a *agreement) check(r *Result) error {
	if a.first == nil {
		a.first = r
	} else if !slices.EqualFunc(a.first.Variants, r.Variants, func(x, y Variant) bool { return x.Name == y.Name }) {
		return fmt.Errorf("scenario %d has variants %s, not the battery's %s; the part is damaged",
			r.Index+1, variantNames(*r), variantNames(*a.first))
	}
	if r.Method == MethodExact {
		return nil
	}
	if a.sampled == nil {
		a.sampled = r
	} else if r.Trials != a.sampled.Trials {
		return fmt.Errorf("scenario %d ran %d trials, scenario %d %d; the part is damaged",
			r.Index+1, r.Trials, a.sampled.Index+1, a.sampled.Trials)
	}
	return nil
}

func variantNames(r Result) []string {
	var out []string
	for _, v := range r.Variants {
		out = append(out, v.Name)
	}
	return out
}
