package answer

import (
	"bytes"
	"encoding/json"
)

// JSON is an answer as every surface writes it: indented by two spaces,
// with a final newline (the bytes of reports.WriteJSON, which the browser
// build cannot import: it carries the charts).
func JSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
