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
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/sim"
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

// table opens a CRT by name: a built-in one, or the uploaded one.
func (in *input) table(ref string) (*crt.Table, error) {
	if ref == "uploaded" && in.crt != nil {
		return in.crt, nil
	}
	if n, ok := crt.BuiltinName(ref); ok {
		return crt.Builtin(n)
	}
	return nil, bad("crt %q: over HTTP a table is built-in (%s) or uploaded as the form part crt", ref, strings.Join(crt.Names(), ", "))
}

// airTables are the uploaded air tables or the built-in strategic ones.
func (in *input) airTables() (*crt.AirTables, error) {
	if in.air != nil {
		return in.air, nil
	}
	return crt.BuiltinAir("strategic")
}

// query reads a request's flags from its query string, with errors that
// name the parameter.
type query struct{ v url.Values }

// parameters are the query parameters each endpoint reads, as the CLI's
// flags; variant and cell alone may be given more than once.
var parameters = map[string][]string{
	"/api/run":     {"method", "trials", "seed", "budget", "explain", "raids", "dice", "crt", "cell"},
	"/api/weights": {"crt", "cell"},
	"/api/compare": {"variant", "method", "trials", "seed", "budget", "independent"},
	"/api/sweep":   {"attack", "defence", "modifier", "crt", "target", "budget"},
	"/api/plan":    {"target", "max_forces", "trials", "seed", "budget"},
	"/api/parse":   {},
}

// checkQuery refuses a parameter the endpoint does not read (seeds=5
// would be ignored, and the run take seed 1) and one given twice (only
// one would be read), as the CLI refuses an unknown or repeated flag.
func checkQuery(path string, v url.Values) error {
	known, ok := parameters[path]
	if !ok {
		return nil
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the same error for the same query
	for _, k := range keys {
		switch {
		case !slices.Contains(known, k):
			hint := ""
			for _, c := range known {
				if strings.HasPrefix(k, c) || strings.HasPrefix(c, k) || strings.EqualFold(c, k) {
					hint = fmt.Sprintf(" (did you mean %s?)", c)
					break
				}
			}
			takes := "no parameters"
			if len(known) > 0 {
				takes = "the parameters " + strings.Join(known, ", ")
			}
			return bad("unknown parameter %q%s: %s takes %s", k, hint, path, takes)
		case len(v[k]) > 1 && k != "variant" && k != "cell":
			return bad("%s is given %d times (%s=%s); give it once", k, len(v[k]), k, strings.Join(v[k], ", "+k+"="))
		}
	}
	return nil
}

func (q query) str(key, def string) string {
	if v := q.v.Get(key); v != "" {
		return v
	}
	return def
}

func (q query) count(key string, def, hi uint64) (uint64, error) {
	v := q.v.Get(key)
	if v == "" {
		return def, nil
	}
	n, err := sim.ParseCount(v, key)
	if err != nil {
		return 0, bad("%s=%s: %v", key, v, err)
	}
	if n > hi {
		return 0, bad("%s=%s: over this server's cap of %d", key, v, hi)
	}
	return n, nil
}

func (q query) intIn(key string, def, lo, hi int) (int, error) {
	v := q.v.Get(key)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo || n > hi {
		return 0, bad("%s=%s: want a whole number from %d to %d", key, v, lo, hi)
	}
	return n, nil
}

func (q query) boolean(key string) (bool, error) {
	switch v := q.v.Get(key); v {
	case "", "false", "0":
		return false, nil
	case "true", "1":
		return true, nil
	default:
		return false, bad("%s=%s: want true or false", key, v)
	}
}

func (q query) float(key string, lo, hi float64) (float64, bool, error) {
	v := q.v.Get(key)
	if v == "" {
		return 0, false, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	// Decimal only, as the CLI reads --target: ParseFloat takes 0x1p-1.
	if err != nil || strings.ContainsAny(v, "xXpP") || !(f > lo && f <= hi) {
		return 0, false, bad("%s=%s: want a number above %g and at most %g", key, v, lo, hi)
	}
	return f, true, nil
}

// sampling reads trials, seed and budget.
func (s *Server) sampling(q query) (sim.Config, int, error) {
	trials, err := q.count("trials", 1_000_000, s.cfg.MaxTrials)
	if err != nil {
		return sim.Config{}, 0, err
	}
	seed := uint64(1)
	if v := q.v.Get("seed"); v != "" {
		// Read as the CLI reads --seed: decimal, 010 is 10.
		if seed, err = sim.ParseSeed(v); err != nil {
			return sim.Config{}, 0, bad("seed=%v", err)
		}
	}
	// Read as the CLI reads --budget: 2097152, 2_097_152, 2e6 or 2M.
	budget, err := q.count("budget", sim.DefaultPathBudget, sim.MaxPathBudget)
	if err != nil {
		return sim.Config{}, 0, err
	}
	return sim.Config{Trials: trials, Seed: seed, Workers: s.cfg.Workers}, int(budget), nil
}
