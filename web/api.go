package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/answer/query"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/reports"
)

//go:embed static
var staticFiles embed.FS

func (s *Server) routes() {
	m := http.NewServeMux()
	static, _ := fs.Sub(staticFiles, "static")
	files := http.FileServerFS(static)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, r.Method+" "+r.URL.Path+": the page is read with GET")
			return
		}
		// A path the page does not have is a 404 in JSON, as every other
		// error is, not the file server's text (/nope, /API/run).
		if name := strings.TrimPrefix(path.Clean(r.URL.Path), "/"); name != "" {
			if st, err := fs.Stat(static, name); err != nil || st.IsDir() {
				writeError(w, http.StatusNotFound, fmt.Sprintf("%.10s %s: no such page or endpoint (the page is /; the API is under /api/)", r.Method, r.URL.Path))
				return
			}
		}
		files.ServeHTTP(w, r)
	})
	// Each endpoint is routed for every method and answers another than
	// its own with 405 and Allow: the catch-all below would make it 404.
	m.HandleFunc("/api/run", only("POST", s.compute(s.run)))
	m.HandleFunc("/api/compare", only("POST", s.compute(s.compare)))
	m.HandleFunc("/api/sweep", only("POST", s.compute(s.sweep)))
	m.HandleFunc("/api/plan", only("POST", s.compute(s.plan)))
	m.HandleFunc("/api/parse", only("POST", s.compute(s.parse)))
	m.HandleFunc("/api/weights", only("POST", s.compute(s.weights)))
	m.HandleFunc("/api/crt/{name}", only("GET", s.crtTable))
	m.HandleFunc("/api/schema", only("GET", s.schema))
	m.HandleFunc("/api/stack", only("GET", s.stack))
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("%s %s: no such endpoint (POST /api/run, /api/compare, /api/sweep, /api/plan, /api/parse, /api/weights; GET /api/crt/{name}, /api/schema, /api/stack)", r.Method, r.URL.Path))
	})
	s.mux = m
}

// only answers 405 with Allow to a method other than method (GET takes
// HEAD too).
func only(method string, h http.HandlerFunc) http.HandlerFunc {
	allow := method
	if method == http.MethodGet {
		allow = "GET, HEAD"
	}
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method && !(method == http.MethodGet && r.Method == http.MethodHead) {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%.10s %s: this endpoint takes %s", r.Method, r.URL.Path, allow))
			return
		}
		h(w, r)
	}
}

// handler computes an API answer from a request's input and query.
type handler func(ctx context.Context, in *input, v url.Values) (any, error)

// compute runs an API handler under the server's guards: the body read
// whole within its limit and deadline, then a free slot (waiting in a
// short queue when every one is busy, 503 beyond it), all under a
// deadline on the computation, its wait included, that also ends when the
// client goes away. The body comes first so that a slow upload holds no
// computation's place. The answer is written as the CLI writes its
// JSON; an error as {"error": "..."} with its status.
func (s *Server) compute(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := query.Check(strings.TrimPrefix(r.URL.Path, "/api/"), r.URL.Query()); err != nil {
			s.fail(w, r, err)
			return
		}
		b, err := s.readBody(w, r)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
		defer cancel()
		if err := s.acquire(ctx); err != nil {
			s.fail(w, r, err)
			return
		}
		defer s.release()
		in, err := b.input()
		if err != nil {
			s.fail(w, r, err)
			return
		}
		v, err := h(ctx, in, r.URL.Query())
		if err == nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.respond(w, r, v)
	}
}

// fail writes an error with the status it calls for.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var br *badRequest
	var ie *answer.InputError
	switch {
	case errors.As(err, &br):
		if br.status == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", "1")
		}
		writeError(w, br.status, br.msg)
	case errors.As(err, &ie):
		writeError(w, http.StatusBadRequest, query.Message(err))
	case r.Context().Err() != nil:
		// The client went away: nobody reads an answer.
		s.cfg.Log.Info("request abandoned by the client", "path", r.URL.Path)
	case errors.Is(err, context.DeadlineExceeded):
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("the computation took longer than this server's %s limit: ask for fewer trials, a smaller plan, or use the CLI", s.cfg.Timeout))
	default:
		status, msg := query.Refusal(err)
		writeError(w, status, msg)
	}
}

// writeError writes {"error": msg}.
func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	reports.WriteJSON(w, map[string]string{"error": msg})
}

// The handlers read their query parameters as the browser build does
// (package answer/query), keep the answer and turn one the deadline cut
// short into a 503.

// run is POST /api/run: `wifodds run --format json`.
func (s *Server) run(ctx context.Context, in *input, v url.Values) (any, error) {
	ans, err := query.Run(ctx, in.answer(), v, s.limits())
	if err == nil && ans.Run().Partial {
		err = context.DeadlineExceeded
	}
	if err != nil {
		return nil, err
	}
	return ans.Value(), nil
}

// compare is POST /api/compare?variant=NAME=OVERRIDES&...: `wifodds compare`.
func (s *Server) compare(ctx context.Context, in *input, v url.Values) (any, error) {
	cmp, err := query.Compare(ctx, in.answer(), v, s.limits())
	if err == nil && cmp.Partial {
		err = context.DeadlineExceeded
	}
	return cmp, err
}

// sweep is POST /api/sweep?attack=LO..HI&crt=standard,2d6: `wifodds sweep`.
func (s *Server) sweep(ctx context.Context, in *input, v url.Values) (any, error) {
	return query.Sweep(ctx, in.answer(), v, s.limits())
}

// plan is POST /api/plan?target=0.75: `wifodds plan --format json`.
func (s *Server) plan(ctx context.Context, in *input, v url.Values) (any, error) {
	return query.Plan(ctx, in.answer(), v, s.limits())
}

// limits are this server's bounds on a request.
func (s *Server) limits() query.Limits {
	return query.Limits{MaxTrials: s.cfg.MaxTrials, Workers: s.cfg.Workers}
}

// weights is POST /api/weights?cell=TABLE/ODDS/ROLL:RESULT&...: the
// combat's table with every cell's weight (answer.Weights), for the
// page's Table tab.
func (s *Server) weights(ctx context.Context, in *input, v url.Values) (any, error) {
	return query.Weights(ctx, in.answer(), v)
}

// parse is POST /api/parse: the scenario checked, then returned as a JSON
// document with the file's keys, for the page to load into its form.
func (s *Server) parse(_ context.Context, in *input, _ url.Values) (any, error) {
	return answer.Document(in.answer())
}

// crtTable is GET /api/crt/{name}: a built-in table's data file, as
// `wifodds crt export NAME` writes it.
func (s *Server) crtTable(w http.ResponseWriter, r *http.Request) {
	name, ok := crt.BuiltinName(r.PathValue("name"))
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no built-in table %q (tables: %s)", r.PathValue("name"), strings.Join(crt.Names(), ", ")))
		return
	}
	src, err := crt.BuiltinSource(name)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	reports.WriteJSON(w, map[string]string{"name": name, "yaml": string(src)})
}

// stack is GET /api/stack?text=: the page's quick-entry box, the units of
// a stack written on one line (answer.Stack). It reads and changes
// nothing but its query, so like the schema it is a GET.
func (s *Server) stack(w http.ResponseWriter, r *http.Request) {
	if err := query.Check("stack", r.URL.Query()); err != nil {
		s.fail(w, r, err)
		return
	}
	units, err := answer.Stack(r.URL.Query().Get("text"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	reports.WriteJSON(w, units)
}

// schema is GET /api/schema: the names the scenario format accepts, so the
// page's lists come from the same source as the rules.
func (s *Server) schema(w http.ResponseWriter, r *http.Request) {
	if err := query.Check("schema", r.URL.Query()); err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	reports.WriteJSON(w, answer.Schema())
}
