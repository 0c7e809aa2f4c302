package reports

import (
	"io"
	"testing"

	"github.com/wifodds/wifodds/battery"
)

// Whatever part merge accepts, every battery writer renders without
// panicking.
func FuzzBatteryReport(f *testing.F) {
	f.Add([]byte(`{"format": "wifodds-battery-part/1", "battery": "b", "hash": "h", "shard": 1, "shards": 1, "scenarios": 1,
		"results": [{"index": 0, "name": "a", "method": "exact", "variants": [{"name": "x", "crt": "standard", "metrics": {}}, {"name": "y", "crt": "2d6", "metrics": {}, "difference_from_first": {"hex_taken": {"p": 0.5, "lo": 0.5, "hi": 0.5}}}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := battery.ReadPart("p.json", data)
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
