package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"

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

// readInput reads the scenario from the body: YAML (application/yaml), the
// same document as JSON (application/json), or a multipart form whose
// part "scenario" holds either and whose parts "crt" and "air_tables" may
// hold the content of table files.
func (s *Server) readInput(w http.ResponseWriter, r *http.Request) (*input, error) {
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	ct, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil && r.Header.Get("Content-Type") != "" {
		return nil, bad("Content-Type %q: want application/yaml, application/json or multipart/form-data", r.Header.Get("Content-Type"))
	}
	if ct == "multipart/form-data" {
		return s.readMultipart(r, params["boundary"])
	}
	data, err := readAll(r.Body)
	if err != nil {
		return nil, err
	}
	switch ct {
	case "application/json":
		return scenarioJSON("request.json", data)
	case "", "application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "text/plain":
		return &input{text: data, name: "request.yaml"}, nil
	}
	return nil, &badRequest{http.StatusUnsupportedMediaType, fmt.Sprintf("Content-Type %q: want application/yaml, application/json or multipart/form-data", ct)}
}

// readAll reads a body, mapping an oversized one to 413.
func readAll(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(r)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, &badRequest{http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is over %d bytes", tooBig.Limit)}
	}
	if err != nil {
		return nil, bad("reading the request body: %v", err)
	}
	return data, nil
}

// scenarioJSON takes a scenario sent as JSON. JSON is YAML's flow style,
// so once indented it parses as a scenario file, with the same rules and
// messages, and its lines are the indented document's.
func scenarioJSON(name string, data []byte) (*input, error) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, data, "", "  "); err != nil {
		return nil, bad("%s: not JSON: %v", name, err)
	}
	if t := bytes.TrimSpace(buf.Bytes()); len(t) == 0 || t[0] != '{' {
		return nil, bad("%s: a scenario is a JSON object", name)
	}
	return &input{text: buf.Bytes(), name: name}, nil
}

func (s *Server) readMultipart(r *http.Request, boundary string) (*input, error) {
	if boundary == "" {
		return nil, bad("multipart/form-data without a boundary")
	}
	mr := multipart.NewReader(r.Body, boundary)
	in := &input{}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return nil, &badRequest{http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is over %d bytes", tooBig.Limit)}
			}
			return nil, bad("reading the form: %v", err)
		}
		data, err := readAll(p)
		if err != nil {
			return nil, err
		}
		switch p.FormName() {
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
		default:
			return nil, bad("form part %q: the parts are scenario, crt and air_tables", p.FormName())
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
	if err != nil || !(f > lo && f <= hi) {
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
		if seed, err = strconv.ParseUint(strings.ReplaceAll(v, "_", ""), 10, 64); err != nil {
			return sim.Config{}, 0, bad("seed=%s: want a whole number from 0 to %d", v, uint64(math.MaxUint64))
		}
	}
	// Read as the CLI reads --budget: 2097152, 2_097_152, 2e6 or 2M.
	budget, err := q.count("budget", sim.DefaultPathBudget, sim.MaxPathBudget)
	if err != nil {
		return sim.Config{}, 0, err
	}
	return sim.Config{Trials: trials, Seed: seed, Workers: s.cfg.Workers}, int(budget), nil
}
