package reports

import (
	"io"

	"github.com/wifodds/wifodds/answer"
)

// WriteJSON writes a run summary (a *analysis.Summary or *analysis.RaidSummary) as
// indented JSON: the machine contract of `wifodds run --format json`, the
// same bytes every surface writes (answer.AppendJSON).
func WriteJSON(w io.Writer, s any) error {
	b, err := answer.AppendJSON(nil, s)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
