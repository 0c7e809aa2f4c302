package analysis

import (
	"bytes"
	"encoding/json"
	"iter"
	"slices"
	"sort"
	"strings"
)

// Keyed is a small map from names to values, kept as a list in key order:
// what a summary reports by name (results, odds levels, tables, factor
// totals, unit types). A summary holds a dozen of them and the planner and
// the web app build thousands of summaries a request; a list costs one
// allocation where a Go map costs several (docs/performance.md). It
// encodes to JSON exactly as a map[string]V does: an object with its keys
// in order, null when nil.
type Keyed[V any] []KV[V]

// KV is one entry of a Keyed.
type KV[V any] struct {
	Key   string
	Value V
}

// keyedOf orders entries by key and returns them as a Keyed; the keys
// must be distinct, so every correct sort gives the same order. A summary's
// lists are short: they are sorted by insertion (what a general sort does
// for so few anyway), and longer ones by sort.Slice. slices.SortFunc would
// compile a whole sort for each value type, about 10 kB of the browser's
// engine apiece (docs/performance.md).
func keyedOf[V any](entries []KV[V]) Keyed[V] {
	if len(entries) > 32 {
		sort.Slice(entries, func(i, j int) bool { return entries[i].Key < entries[j].Key })
		return Keyed[V](entries)
	}
	for i := 1; i < len(entries); i++ {
		for j := i; j > 0 && entries[j].Key < entries[j-1].Key; j-- {
			entries[j], entries[j-1] = entries[j-1], entries[j]
		}
	}
	return Keyed[V](entries)
}

// Get is the value for key, and whether there is one.
func (k Keyed[V]) Get(key string) (V, bool) {
	i, ok := slices.BinarySearchFunc(k, key, func(e KV[V], key string) int { return strings.Compare(e.Key, key) })
	if !ok {
		var zero V
		return zero, false
	}
	return k[i].Value, true
}

// Value is the value for key, or V's zero value when there is none, as
// indexing a map gives.
func (k Keyed[V]) Value(key string) V {
	v, _ := k.Get(key)
	return v
}

// Map is the entries as a Go map, for readers that want one.
func (k Keyed[V]) Map() map[string]V {
	m := make(map[string]V, len(k))
	for _, e := range k {
		m[e.Key] = e.Value
	}
	return m
}

// All yields the entries in key order.
func (k Keyed[V]) All() iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		for _, e := range k {
			if !yield(e.Key, e.Value) {
				return
			}
		}
	}
}

// MarshalJSON writes the entries as a JSON object in key order, as
// encoding/json writes a map: keys are escaped by the encoder that calls
// this, the same way it escapes a map's.
func (k Keyed[V]) MarshalJSON() ([]byte, error) {
	if k == nil {
		return []byte("null"), nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, e := range k {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(e.Key); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode ends with a newline
		b.WriteByte(':')
		if err := enc.Encode(e.Value); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads an object written by MarshalJSON (or any JSON
// object), ordering its keys.
func (k *Keyed[V]) UnmarshalJSON(data []byte) error {
	var m map[string]V
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	if m == nil {
		*k = nil
		return nil
	}
	entries := make([]KV[V], 0, len(m))
	for key, v := range m {
		entries = append(entries, KV[V]{key, v})
	}
	*k = keyedOf(entries)
	return nil
}
