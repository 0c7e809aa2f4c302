package reports

import (
	"bytes"
	"encoding/json"
	"io"
)

// WriteJSON writes a run summary (a *analysis.Summary or *analysis.RaidSummary) as
// indented JSON: the machine contract of `wifodds run --format json`.
// encoding/json escapes C0 controls but writes DEL and C1 controls as they
// are; they are escaped here too (\u007f, \u009b), which a JSON reader
// reads as the same string, so JSON on a terminal is as safe as text.
func WriteJSON(w io.Writer, s any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	_, err := w.Write(escapeJSONControls(b.Bytes()))
	return err
}
