package reports

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/wifodds/wifodds/analysis"
)

// WriteJSON writes a run summary (a *analysis.Summary or *analysis.RaidSummary) as
// indented JSON: the machine contract of `wifodds run --format json`.
func WriteJSON(w io.Writer, s any) error {
	b, err := AppendJSON(nil, s)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// AppendJSON appends what WriteJSON writes for v to b. A land combat's
// summary, the answer the web app gives most, is written by hand without
// reflection (jsonsummary.go), byte for byte as encoding/json writes it;
// any other value goes through encoding/json.
func AppendJSON(b []byte, v any) ([]byte, error) {
	if s, ok := v.(*analysis.Summary); ok && s != nil {
		return appendSummaryJSON(b, s)
	}
	return appendReflectJSON(b, v)
}

// appendReflectJSON is encoding/json's indented encoding: the reference
// the hand-written encoders are tested against.
func appendReflectJSON(b []byte, v any) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return b, err
	}
	return buf.Bytes(), nil
}
