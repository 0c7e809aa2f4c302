package reports

import (
	"encoding/json"
	"io"
)

// WriteJSON writes a run summary (a *analysis.Summary or *analysis.RaidSummary) as
// indented JSON: the machine contract of `wifodds run --format json`.
func WriteJSON(w io.Writer, s any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}
