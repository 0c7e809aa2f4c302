package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"time"

	"github.com/wifodds/wifodds/crt"
)

// badRequest is an error in what the client sent: a 4xx, with the message
// shown as is.
type badRequest struct {
	status int
	msg    string
}

func (e *badRequest) Error() string { return e.msg }

func bad(format string, args ...any) error {
	return &badRequest{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// input is a request's scenario and the tables it uploads.
type input struct {
	text []byte         // the scenario as YAML
	name string         // the name errors give it
	crt  *crt.Table     // an uploaded CRT, or nil
	air  *crt.AirTables // uploaded air tables, or nil
}

// The media types a body may have: the page sends YAML and, with an
// uploaded table, a multipart form; scripts may send JSON. Any other type,
// or none, is refused (415): text/plain and urlencoded bodies are what a
// form on another site posts.
const (
	typeYAML      = "application/yaml"
	typeJSON      = "application/json"
	typeMultipart = "multipart/form-data"
)

// body is a request's body, read whole, and its media type.
type body struct {
	ctype    string // typeYAML, typeJSON or typeMultipart
	boundary string // of a multipart form
	data     []byte
}

// readBody reads a request's body: at most MaxBody bytes (413 beyond),
// arriving within BodyTimeout (408 beyond), of an accepted media type
// (415 otherwise, before any byte is read). A body refused is not read
// further: the connection closes after the answer, where net/http would
// otherwise read the rest of the body (however slowly it came) to keep it.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) (b *body, err error) {
	defer func() {
		if err != nil {
			w.Header().Set("Connection", "close")
		}
	}()
	raw := r.Header.Get("Content-Type")
	ct, params, err := mime.ParseMediaType(raw)
	if raw == "" || err != nil || (ct != typeYAML && ct != typeJSON && ct != typeMultipart) {
		what := "no Content-Type"
		if raw != "" {
			what = fmt.Sprintf("Content-Type %.80q", raw)
		}
		return nil, &badRequest{http.StatusUnsupportedMediaType, what + ": want " + typeYAML + ", " + typeJSON + " or " + typeMultipart}
	}
	if ct == typeMultipart && params["boundary"] == "" {
		return nil, bad("multipart/form-data without a boundary")
	}
	if r.ContentLength > s.cfg.MaxBody {
		return nil, tooLarge(s.cfg.MaxBody)
	}
	rc := http.NewResponseController(w)
	if err := rc.SetReadDeadline(time.Now().Add(s.cfg.BodyTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return nil, err
	}
	data, err := readAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody), r.ContentLength)
	// The computation must not inherit the deadline: net/http watches the
	// idle connection for the client going away, and would take the
	// deadline passing for that and cancel the request.
	if err := rc.SetReadDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return nil, err
	}
	var tooBig *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &tooBig):
		return nil, tooLarge(tooBig.Limit)
	case errors.As(err, &ne) && ne.Timeout():
		return nil, &badRequest{http.StatusRequestTimeout, fmt.Sprintf("the request body did not arrive within %s", s.cfg.BodyTimeout)}
	case err != nil:
		return nil, bad("reading the request body: %v", err)
	}
	return &body{ctype: ct, boundary: params["boundary"], data: data}, nil
}

// readAll is io.ReadAll into a buffer of the size the body says it has,
// so that a scenario is read in one allocation instead of a buffer
// regrown from 512 bytes. Only up to readAhead is taken on the body's
// word: past it the buffer grows with what arrives, as io.ReadAll's does,
// so a client announcing the limit and sending nothing holds no more than
// it sent. A body without a length, or longer than it said (the limit
// still stops it), grows too.
func readAll(r io.Reader, length int64) ([]byte, error) {
	if length <= 0 {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, min(length, readAhead)+1) // +1: EOF is seen without regrowing
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// readAhead is the most of a body's announced length readAll allocates
// before the bytes arrive: the page's scenarios are a few KiB.
const readAhead = 16 << 10

func tooLarge(limit int64) error {
	return &badRequest{http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is over %d bytes", limit)}
}

// input reads the scenario from the body: YAML, the same document as
// JSON, or a multipart form whose part "scenario" holds either and whose
// parts "crt" and "air_tables" may hold the content of table files.
func (b *body) input() (*input, error) {
	switch b.ctype {
	case typeJSON:
		return scenarioJSON("request.json", b.data)
	case typeMultipart:
		return readMultipart(b.data, b.boundary)
	}
	return &input{text: b.data, name: "request.yaml"}, nil
}

// scenarioJSON takes a scenario sent as JSON. JSON is YAML's flow style,
// so once indented it parses as a scenario file, with the same rules and
// messages, and its lines are the indented document's. Its nesting and
// the indented size are checked first: indenting deep nesting grows as
// the square of the depth.
func scenarioJSON(name string, data []byte) (*input, error) {
	if _, err := boundJSON(data); err != nil {
		return nil, bad("%s: %v", name, err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, data, "", "  "); err != nil {
		return nil, bad("%s: not JSON: %v", name, err)
	}
	if t := bytes.TrimSpace(buf.Bytes()); len(t) == 0 || t[0] != '{' {
		return nil, bad("%s: a scenario is a JSON object", name)
	}
	return &input{text: buf.Bytes(), name: name}, nil
}

// readMultipart reads a form already in memory (the body, bounded). Each
// part comes at most once.
func readMultipart(data []byte, boundary string) (*input, error) {
	mr := multipart.NewReader(bytes.NewReader(data), boundary)
	in := &input{}
	seen := map[string]bool{}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, bad("reading the form: %v", err)
		}
		name := p.FormName()
		if name != "scenario" && name != "crt" && name != "air_tables" {
			return nil, bad("form part %.40q: the parts are scenario, crt and air_tables", name)
		}
		if seen[name] {
			return nil, bad("form part %q comes twice", name)
		}
		seen[name] = true
		data, err := io.ReadAll(p)
		if err != nil {
			return nil, bad("reading the form part %s: %v", name, err)
		}
		switch name {
		case "scenario":
			if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
				j, err := scenarioJSON("scenario.json", data)
				if err != nil {
					return nil, err
				}
				in.text, in.name = j.text, j.name
			} else {
				in.text, in.name = data, "scenario.yaml"
			}
		case "crt":
			if in.crt, err = crt.Parse("crt.yaml", data); err != nil {
				return nil, bad("the uploaded crt: %v", err)
			}
		case "air_tables":
			if in.air, err = crt.ParseAir("air_tables.yaml", data); err != nil {
				return nil, bad("the uploaded air_tables: %v", err)
			}
		}
	}
	if in.text == nil {
		return nil, bad("the form has no scenario part")
	}
	return in, nil
}
