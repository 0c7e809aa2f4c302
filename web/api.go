package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/answer"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/plan"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/sim"
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
type handler func(ctx context.Context, in *input, q query) (any, error)

// compute runs an API handler under the server's guards: the body read
// whole within its limit and deadline, then a free slot (waiting in a
// short queue when every one is busy, 503 beyond it), all under a
// deadline on the computation, its wait included, that also ends when the
// client goes away. The body comes first so that a slow upload holds no
// computation's place. The answer is written as the CLI writes its
// JSON; an error as {"error": "..."} with its status.
func (s *Server) compute(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := checkQuery(r.URL.Path, r.URL.Query()); err != nil {
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
		v, err := h(ctx, in, query{r.URL.Query()})
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
		writeError(w, http.StatusBadRequest, where(ie))
	case r.Context().Err() != nil:
		// The client went away: nobody reads an answer.
		s.cfg.Log.Info("request abandoned by the client", "path", r.URL.Path)
	case errors.Is(err, context.DeadlineExceeded):
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("the computation took longer than this server's %s limit: ask for fewer trials, a smaller plan, or use the CLI", s.cfg.Timeout))
	case errors.Is(err, sim.ErrBudget):
		writeError(w, http.StatusUnprocessableEntity, err.Error()+" (use method=mc or method=auto, or raise budget)")
	case errors.Is(err, plan.ErrTooLarge), errors.Is(err, analysis.ErrNoTrials):
		writeError(w, http.StatusUnprocessableEntity, err.Error())
	default:
		// Rules refusing the combat (compile errors) are the client's too.
		writeError(w, http.StatusUnprocessableEntity, err.Error())
	}
}

// writeError writes {"error": msg}.
func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	reports.WriteJSON(w, map[string]string{"error": msg})
}

// engine reads method=exact|mc|auto.
func engine(q query) (analysis.Engine, error) {
	switch m := q.str("method", "auto"); m {
	case "auto":
		return analysis.Auto, nil
	case "exact":
		return analysis.Exact, nil
	case "mc":
		return analysis.MonteCarlo, nil
	default:
		return 0, bad("method=%s: want exact, mc or auto", m)
	}
}

// run is POST /api/run: `wifodds run --format json`.
func (s *Server) run(ctx context.Context, in *input, q query) (any, error) {
	eng, err := engine(q)
	if err != nil {
		return nil, err
	}
	smp, budget, err := s.sampling(q)
	if err != nil {
		return nil, err
	}
	explain, err := q.boolean("explain")
	if err != nil {
		return nil, err
	}
	// As the CLI's --raids: the range first, then the kind it applies to
	// (0 when not asked).
	raids := 0
	if q.v.Has("raids") {
		if raids, err = q.intIn("raids", 1, 1, combat.MaxRaids); err != nil {
			return nil, err
		}
	}
	f := answer.RunFlags{Request: analysis.Request{Engine: eng, Budget: budget, Sample: smp}, Explain: explain, Raids: raids, Cells: q.v["cell"]}
	if d := q.v.Get("dice"); d != "" {
		if f.Dice, err = parseDice(d); err != nil {
			return nil, err
		}
	}
	a := in.answer()
	if c := q.v.Get("crt"); c != "" {
		a.CRT = c
	}
	ans, err := answer.Run(ctx, a, f)
	var re *analysis.ReplayError
	switch {
	case errors.As(err, &re):
		return nil, bad("dice: %v", err)
	case errors.Is(err, answer.ErrRaidsNotBombardment):
		return nil, bad("raids=%s: %v", q.v.Get("raids"), answer.ErrRaidsNotBombardment)
	case errors.Is(err, answer.ErrCellsBombardment):
		return nil, bad("cell=%s: %v", q.v.Get("cell"), answer.ErrCellsBombardment)
	case err != nil:
		return nil, err
	case ans.Run().Partial:
		return nil, context.DeadlineExceeded
	}
	return ans.Value(), nil
}

// parseDice reads dice=5,1.
func parseDice(spec string) ([]int, error) {
	rolls, err := sim.ParseRolls(spec)
	if err != nil {
		return nil, bad("dice=%s: %v", spec, err)
	}
	if len(rolls) > 64 {
		return nil, bad("dice=%s: at most 64 rolls", spec)
	}
	return rolls, nil
}

// compare is POST /api/compare?variant=NAME=OVERRIDES&...: `wifodds compare`.
func (s *Server) compare(ctx context.Context, in *input, q query) (any, error) {
	specs := q.v["variant"]
	if len(specs) == 0 {
		return nil, bad("give at least one variant=NAME=OVERRIDES, e.g. variant=alt=crt=2d6")
	}
	if len(specs) > 12 {
		return nil, bad("at most 12 variants")
	}
	eng, err := engine(q)
	if err != nil {
		return nil, err
	}
	smp, budget, err := s.sampling(q)
	if err != nil {
		return nil, err
	}
	independent, err := q.boolean("independent")
	if err != nil {
		return nil, err
	}
	cmp, err := answer.Compare(ctx, in.answer(), answer.CompareFlags{Request: analysis.Request{Engine: eng, Budget: budget, Sample: smp},
		Variants: specs, Independent: independent})
	var ve *analysis.VariantError
	if errors.As(err, &ve) {
		return nil, bad("%s", strings.Replace(ve.Error(), "--variant", "variant", 1))
	}
	if err == nil && cmp.Partial {
		err = context.DeadlineExceeded
	}
	return cmp, err
}

// sweep is POST /api/sweep?attack=LO..HI&crt=standard,2d6: `wifodds sweep`.
func (s *Server) sweep(ctx context.Context, in *input, q query) (any, error) {
	f := answer.SweepFlags{Axis: analysis.Attack}
	spec := q.v.Get("attack")
	if d := q.v.Get("defence"); d != "" {
		if spec != "" {
			return nil, bad("sweep one total: attack or defence")
		}
		f.Axis, spec = analysis.Defence, d
	}
	if spec == "" {
		return nil, bad("give attack=LO..HI or defence=LO..HI")
	}
	var err error
	if f.Totals, err = rangeOf(string(f.Axis), spec); err != nil {
		return nil, err
	}
	if r := f.Totals; r.Lo < 0 || r.Hi > analysis.MaxSweepTotal || r.Hi-r.Lo >= analysis.MaxSweepSteps {
		return nil, bad("%s=%s: totals from 0 to %d, at most %d steps", f.Axis, spec, analysis.MaxSweepTotal, analysis.MaxSweepSteps)
	}
	if m := q.v.Get("modifier"); m != "" {
		mr, err := rangeOf("modifier", m)
		if err != nil {
			return nil, err
		}
		if mr.Lo < -crt.MaxModifier || mr.Hi > crt.MaxModifier {
			return nil, bad("modifier=%s: within -%d..%d", m, crt.MaxModifier, crt.MaxModifier)
		}
		for x := mr.Lo; x <= mr.Hi; x++ {
			f.Modifiers = append(f.Modifiers, x)
		}
	}
	if _, f.Budget, err = s.sampling(q); err != nil {
		return nil, err
	}
	if v := q.v.Get("crt"); v != "" {
		f.CRTs = strings.Split(v, ",")
	}
	if f.Target, _, err = q.float("target", 0, 1); err != nil {
		return nil, err
	}
	sw, err := answer.Sweep(ctx, in.answer(), f)
	var none *answer.NoStepError
	if errors.As(err, &none) {
		return nil, bad("no step of %s is at or above what the units already bring: %s", spec, strings.Join(none.Notes, "; "))
	}
	return sw, err
}

func rangeOf(key, v string) (analysis.Range, error) {
	r, err := analysis.ParseRange(v)
	if err != nil {
		return r, bad("%s=%s: %v", key, v, err)
	}
	return r, nil
}

// plan is POST /api/plan?target=0.75: `wifodds plan --format json`.
func (s *Server) plan(ctx context.Context, in *input, q query) (any, error) {
	target, _, err := q.float("target", 0, 1000)
	if err != nil {
		return nil, err
	}
	maxForces, err := q.count("max_forces", 2_000_000, plan.DefaultMaxForces)
	if err != nil {
		return nil, err
	}
	smp, budget, err := s.sampling(q)
	if err != nil {
		return nil, err
	}
	return answer.PlanSide(ctx, in.answer(), answer.PlanFlags{Target: target, MaxForces: float64(maxForces), Budget: budget,
		Sample: smp, Workers: s.cfg.Workers})
}

// weights is POST /api/weights?cell=TABLE/ODDS/ROLL:RESULT&...: the
// combat's table with every cell's weight (answer.Weights), for the
// page's Table tab.
func (s *Server) weights(ctx context.Context, in *input, q query) (any, error) {
	a := in.answer()
	if c := q.v.Get("crt"); c != "" {
		a.CRT = c
	}
	return answer.Weights(ctx, a, answer.WeightsFlags{Cells: q.v["cell"]})
}

// parse is POST /api/parse: the scenario checked, then returned as a JSON
// document with the file's keys, for the page to load into its form.
func (s *Server) parse(_ context.Context, in *input, _ query) (any, error) {
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

// schema is GET /api/schema: the names the scenario format accepts, so the
// page's lists come from the same source as the rules.
// stack reads ?text= as the page's quick-entry box: the units of a stack
// written on one line (answer.Stack). It reads and changes nothing but
// its query, so like the schema it is a GET.
func (s *Server) stack(w http.ResponseWriter, r *http.Request) {
	units, err := answer.Stack(r.URL.Query().Get("text"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	reports.WriteJSON(w, units)
}

func (s *Server) schema(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	reports.WriteJSON(w, answer.Schema())
}
