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
// made the text valid UTF-8, where DEL is the byte 0x7f and a C1 control
// (U+0080 to U+009F) the bytes 0xc2 0x80 to 0xc2 0x9f: looking for those
// bytes finds them without decoding every rune of the answer, which was a
// quarter of a plain answer's time.
func escapeJSONControls(js []byte) []byte {
	first := firstJSONControl(js)
	if first < 0 {
		return js
	}
	out := make([]byte, 0, len(js)+16)
	out = append(out, js[:first]...)
	js = js[first:]
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

// firstJSONControl is where the first DEL or C1 control starts in valid
// UTF-8, or -1.
func firstJSONControl(js []byte) int {
	del := bytes.IndexByte(js, 0x7f)
	for i := 0; ; {
		j := bytes.IndexByte(js[i:], 0xc2)
		if j < 0 || del >= 0 && i+j > del {
			return del
		}
		i += j + 1
		if i < len(js) && js[i] <= 0x9f { // a continuation byte: 0x80 at least
			return i - 1
		}
	}
}
