package reports

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/wifodds/wifodds/analysis"
)

// WriteJSON writes a run summary (a *analysis.Summary or *analysis.RaidSummary) as
// indented JSON: the machine contract of `wifodds run --format json`.
// encoding/json escapes C0 controls but writes DEL and C1 controls as they
// are; they are escaped here too (\u007f, \u009b), which a JSON reader
// reads as the same string, so JSON on a terminal is as safe as text.
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
	n := len(b)
	var err error
	if s, ok := v.(*analysis.Summary); ok && s != nil {
		b, err = appendSummaryJSON(b, s)
	} else {
		b, err = appendReflectJSON(b, v)
	}
	if err != nil {
		return b, err
	}
	// Both encoders write DEL and C1 controls as they are, as
	// encoding/json does; escaped here once for both.
	if e := escapeJSONControls(b[n:]); len(e) != len(b)-n {
		b = append(b[:n], e...)
	}
	return b, nil
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
