package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wifodds/wifodds/stats"
)

// encode writes v as JSON the ways reports and the web app do: indented
// or not, with HTML escaping on or off.
func encode(t *testing.T, v any, indent, escape bool) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escape)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A Keyed encodes exactly as the map it stands for (docs/performance.md):
// keys in order and escaped alike, values alike, null when nil, {} when
// empty; and it reads back.
func TestKeyedEncodesAsAMap(t *testing.T) {
	type holder struct {
		F Keyed[float64]        `json:"f"`
		E Keyed[stats.Estimate] `json:"e"`
		N Keyed[float64]        `json:"n"`
		Z Keyed[TypeLoss]       `json:"z"`
	}
	type mapHolder struct {
		F map[string]float64        `json:"f"`
		E map[string]stats.Estimate `json:"e"`
		N map[string]float64        `json:"n"`
		Z map[string]TypeLoss       `json:"z"`
	}
	f := map[string]float64{"<=1:2": 0.25, "3:1": 1e-21, "a&b": 1, "\"q\"": 0.5, "é": 2, "2/-": 1.0 / 3}
	e := map[string]stats.Estimate{"*/2S": {P: 0.1, Lo: 0.05, Hi: 0.2}, "-/1R": stats.Exact(0.9)}
	var fe []KV[float64]
	for k, v := range f {
		fe = append(fe, KV[float64]{k, v})
	}
	var ee []KV[stats.Estimate]
	for k, v := range e {
		ee = append(ee, KV[stats.Estimate]{k, v})
	}
	k := holder{F: keyedOf(fe), E: keyedOf(ee), Z: Keyed[TypeLoss]{}}
	m := mapHolder{F: f, E: e, Z: map[string]TypeLoss{}}
	for _, indent := range []bool{false, true} {
		for _, escape := range []bool{true, false} {
			if got, want := encode(t, k, indent, escape), encode(t, m, indent, escape); got != want {
				t.Errorf("indent %v escape %v:\n got %s\nwant %s", indent, escape, got, want)
			}
		}
	}
	var back holder
	if err := json.Unmarshal([]byte(encode(t, k, false, true)), &back); err != nil {
		t.Fatal(err)
	}
	if got, want := encode(t, back, false, true), encode(t, k, false, true); got != want {
		t.Errorf("read back: %s, want %s", got, want)
	}
	if v, ok := k.F.Get("<=1:2"); !ok || v != 0.25 {
		t.Errorf("Get: %v %v", v, ok)
	}
	if _, ok := k.F.Get("1:1"); ok || k.F.Value("1:1") != 0 {
		t.Errorf("Get of a missing key found one")
	}
	if len(k.F.Map()) != len(f) {
		t.Errorf("Map: %v", k.F.Map())
	}
}

// keyedOf sorts short lists by insertion and long ones by sort.Slice:
// either way the entries come out in key order, whatever order they came
// in.
func TestKeyedOfSorts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 5, 31, 32, 33, 200} {
		entries := make([]KV[int], n)
		for i, p := range r.Perm(n) {
			entries[i] = KV[int]{Key: fmt.Sprintf("k%04d", p), Value: p}
		}
		k := keyedOf(entries)
		for i := range k {
			if want := fmt.Sprintf("k%04d", i); k[i].Key != want || k[i].Value != i {
				t.Fatalf("%d entries: entry %d is %v, want %s", n, i, k[i], want)
			}
		}
	}
}
