package reports

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/battery"
	"github.com/wifodds/wifodds/stats"
)

// Whatever part merge accepts, every battery writer renders without
// panicking.
func FuzzBatteryReport(f *testing.F) {
	base, alt, diff := map[string]stats.Estimate{}, map[string]stats.Estimate{}, map[string]stats.Estimate{}
	for i, m := range analysis.CompareMetrics {
		a, b := 0.125*float64(i), 0.0625*float64(i+1)
		base[m.Name], alt[m.Name], diff[m.Name] = stats.Exact(a), stats.Exact(b), stats.Exact(b-a)
	}
	p := &battery.Part{Format: battery.PartFormat, Battery: "b", Hash: "h", Shard: 1, Shards: 1, Scenarios: 1,
		Variants: []string{"x=crt=standard", "y=crt=2d6"}, Engine: "exact",
		Results: []battery.Result{{Index: 0, Name: "a", Method: "exact", Variants: []battery.Variant{
			{Name: "x", CRT: "standard", Metrics: base}, {Name: "y", CRT: "2d6", Metrics: alt, Diff: diff}}}}}
	if err := p.Seal(); err != nil {
		f.Fatal(err)
	}
	seed, err := json.Marshal(p)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := battery.ReadPart("p.json", bytes.NewReader(seed)); err != nil {
		f.Fatalf("the seed part is refused: %v", err)
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := battery.ReadPart("p.json", bytes.NewReader(data))
		if err != nil {
			return
		}
		r, err := battery.Merge(map[string]*battery.Part{"p.json": p})
		if err != nil {
			return
		}
		for _, w := range []func(io.Writer, *battery.Report) error{WriteBatteryText, WriteBatteryCSV, WriteBatteryMarkdown, WriteBatteryHTML} {
			if err := w(io.Discard, r); err != nil {
				t.Fatal(err)
			}
		}
	})
}
