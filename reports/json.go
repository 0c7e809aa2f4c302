package reports

import (
	"encoding/json"
	"io"

	"github.com/wifodds/wifodds/sim"
)

// WriteJSON writes a run summary as indented JSON: the machine contract of
// `wifodds run --format json`.
func WriteJSON(w io.Writer, s *sim.Summary) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}
