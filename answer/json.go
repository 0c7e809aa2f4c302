package answer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/wifodds/wifodds/analysis"
)

// JSON is an answer as every surface writes it (the CLI's --format json
// through reports.WriteJSON, the server, the browser build): indented by
// two spaces, with a final newline.
func JSON(v any) ([]byte, error) { return AppendJSON(nil, v) }

// AppendJSON appends v's JSON to b. A land combat's summary, the answer
// the web app gives most, is written by hand without reflection
// (jsonsummary.go), byte for byte as encoding/json writes it; any other
// value goes through encoding/json. encoding/json escapes C0 controls but
// writes DEL and C1 controls as they are; they are escaped here too
// (\u007f, \u009b), which a JSON reader reads as the same string, so JSON
// on a terminal is as safe as text.
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

// escapeJSONControls escapes DEL and the C1 controls in encoded JSON, whose
// structure is ASCII, so they can only sit in strings. encoding/json has
// made the text valid UTF-8.
func escapeJSONControls(js []byte) []byte {
	if !bytes.ContainsFunc(js, func(r rune) bool { return r >= 0x7f && r <= 0x9f }) {
		return js
	}
	out := make([]byte, 0, len(js)+16)
	for len(js) > 0 {
		r, n := utf8.DecodeRune(js)
		if r >= 0x7f && r <= 0x9f {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, js[:n]...)
		}
		js = js[n:]
	}
	return out
}
