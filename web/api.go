package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"slices"
	"strings"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/plan"
	"github.com/wifodds/wifodds/reports"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
	"go.yaml.in/yaml/v3"
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
		files.ServeHTTP(w, r)
	})
	// Each endpoint is routed for every method and answers another than
	// its own with 405 and Allow: the catch-all below would make it 404.
	m.HandleFunc("/api/run", only("POST", s.compute(s.run)))
	m.HandleFunc("/api/compare", only("POST", s.compute(s.compare)))
	m.HandleFunc("/api/sweep", only("POST", s.compute(s.sweep)))
	m.HandleFunc("/api/plan", only("POST", s.compute(s.plan)))
	m.HandleFunc("/api/parse", only("POST", s.compute(s.parse)))
	m.HandleFunc("/api/crt/{name}", only("GET", s.crtTable))
	m.HandleFunc("/api/schema", only("GET", s.schema))
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("%s %s: no such endpoint (POST /api/run, /api/compare, /api/sweep, /api/plan, /api/parse; GET /api/crt/{name}, /api/schema)", r.Method, r.URL.Path))
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
		s.answer(w, r, v)
	}
}

// fail writes an error with the status it calls for.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var br *badRequest
	switch {
	case errors.As(err, &br):
		if br.status == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", "1")
		}
		writeError(w, br.status, br.msg)
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
	sc, err := in.parse()
	if err != nil {
		return nil, err
	}
	if sc.IsPlan() {
		return nil, bad("this is a plan (it lists units the attack may add): POST it to /api/plan")
	}
	// As the CLI's --raids: the range first, then the kind it applies to.
	raids, err := q.intIn("raids", 1, 1, combat.MaxRaids)
	if err != nil {
		return nil, err
	}
	if sc.Kind != scenario.Bombardment && q.v.Has("raids") {
		return nil, bad("raids=%s: raids applies only to bombardments", q.v.Get("raids"))
	}
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
	req := analysis.Request{Engine: eng, Budget: budget, Sample: smp, Replay: sc.Dice}
	if d := q.v.Get("dice"); d != "" {
		if req.Replay, err = parseDice(d); err != nil {
			return nil, err
		}
	}
	if sc.Kind == scenario.Bombardment {
		air, err := in.airTables()
		if err != nil {
			return nil, err
		}
		r, err := combat.CompileRaid(sc, air)
		if err != nil {
			return nil, err
		}
		sum, err := analysis.RunRaid(ctx, r, req, raids)
		if err != nil {
			return nil, err
		}
		if explain {
			sum.Working = combat.Lines(r.Steps)
		}
		return sum, nil
	}
	if c := q.v.Get("crt"); c != "" {
		sc.CRT = c
	}
	t, err := in.table(sc.CRT)
	if err != nil {
		return nil, err
	}
	air, err := in.airTables()
	if err != nil {
		return nil, err
	}
	cb, err := combat.CompileWith(sc, t, air, combat.Options{Explain: explain})
	if err != nil {
		return nil, err
	}
	sum, err := analysis.RunCombat(ctx, cb, req)
	if err != nil {
		var re *analysis.ReplayError
		if errors.As(err, &re) {
			return nil, bad("dice: %v", err)
		}
		return nil, err
	}
	if sum.Partial {
		return nil, context.DeadlineExceeded
	}
	if explain {
		sum.Working = combat.Lines(cb.Steps)
	}
	return sum, nil
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

// land parses a land combat, invasion or paradrop for compare, sweep and
// plan.
func land(in *input, what string) (*scenario.Scenario, error) {
	sc, err := in.parse()
	if err != nil {
		return nil, err
	}
	if sc.Kind == scenario.Bombardment {
		return nil, bad("%s takes land combats, invasions and paradrops; POST a bombardment to /api/run", what)
	}
	return sc, nil
}

// compare is POST /api/compare?variant=NAME=OVERRIDES&...: `wifodds compare`.
func (s *Server) compare(ctx context.Context, in *input, q query) (any, error) {
	sc, err := land(in, "compare")
	if err != nil {
		return nil, err
	}
	if sc.IsPlan() {
		return nil, bad("this is a plan: POST it to /api/plan")
	}
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
	air, err := in.airTables()
	if err != nil {
		return nil, err
	}
	vs, err := analysis.CompileVariants(sc, specs, in.table, air)
	var ve *analysis.VariantError
	if errors.As(err, &ve) {
		return nil, bad("%s", strings.Replace(ve.Error(), "--variant", "variant", 1))
	}
	if err != nil {
		return nil, err
	}
	cmp, err := analysis.Compare(ctx, sc.Name, vs, analysis.Request{Engine: eng, Budget: budget, Sample: smp}, independent)
	if err == nil && cmp.Partial {
		err = context.DeadlineExceeded
	}
	return cmp, err
}

// sweep is POST /api/sweep?attack=LO..HI&crt=standard,2d6: `wifodds sweep`.
func (s *Server) sweep(ctx context.Context, in *input, q query) (any, error) {
	sc, err := land(in, "sweep")
	if err != nil {
		return nil, err
	}
	if sc.IsPlan() {
		return nil, bad("this is a plan: POST it to /api/plan")
	}
	axis, spec := analysis.Attack, q.v.Get("attack")
	if d := q.v.Get("defence"); d != "" {
		if spec != "" {
			return nil, bad("sweep one total: attack or defence")
		}
		axis, spec = analysis.Defence, d
	}
	if spec == "" {
		return nil, bad("give attack=LO..HI or defence=LO..HI")
	}
	totals, err := rangeOf(string(axis), spec)
	if err != nil {
		return nil, err
	}
	if totals.Lo < 0 || totals.Hi > analysis.MaxSweepTotal || totals.Hi-totals.Lo >= analysis.MaxSweepSteps {
		return nil, bad("%s=%s: totals from 0 to %d, at most %d steps", axis, spec, analysis.MaxSweepTotal, analysis.MaxSweepSteps)
	}
	var mods []int
	if m := q.v.Get("modifier"); m != "" {
		mr, err := rangeOf("modifier", m)
		if err != nil {
			return nil, err
		}
		if mr.Lo < -crt.MaxModifier || mr.Hi > crt.MaxModifier {
			return nil, bad("modifier=%s: within -%d..%d", m, crt.MaxModifier, crt.MaxModifier)
		}
		for x := mr.Lo; x <= mr.Hi; x++ {
			mods = append(mods, x)
		}
	}
	_, budget, err := s.sampling(q)
	if err != nil {
		return nil, err
	}
	names := []string{sc.CRT}
	if v := q.v.Get("crt"); v != "" {
		names = strings.Split(v, ",")
	}
	var tables []*crt.Table
	for _, n := range names {
		t, err := in.table(strings.TrimSpace(n))
		if err != nil {
			return nil, err
		}
		tables = append(tables, t)
	}
	air, err := in.airTables()
	if err != nil {
		return nil, err
	}
	sw, err := analysis.RunSweep(ctx, sc, tables, air, axis, totals, mods, budget, nil)
	if err != nil {
		return nil, err
	}
	if len(sw.Steps) == 0 {
		return nil, bad("no step of %s is at or above what the units already bring: %s", spec, strings.Join(sw.Notes, "; "))
	}
	target, ok, err := q.float("target", 0, 1)
	if err != nil {
		return nil, err
	}
	if ok {
		sw.Reached = sw.Reach(target)
	}
	return sw, nil
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
	sc, err := land(in, "plan")
	if err != nil {
		return nil, err
	}
	if !sc.IsPlan() {
		return nil, bad("nothing to plan: list the units the attack may add under attacker.available")
	}
	target, _, err := q.float("target", 0, 1000)
	if err != nil {
		return nil, err
	}
	if target > 1 && len(sc.Targets) == 0 {
		return nil, bad("target=%v: a chance is at most 1", target)
	}
	maxForces, err := q.count("max_forces", 2_000_000, plan.DefaultMaxForces)
	if err != nil {
		return nil, err
	}
	smp, budget, err := s.sampling(q)
	if err != nil {
		return nil, err
	}
	names := sc.Plan.CRTs
	if len(names) == 0 {
		names = []string{sc.CRT}
	}
	var tables []plan.Table
	for _, n := range names {
		t, err := in.table(n)
		if err != nil {
			return nil, err
		}
		tables = append(tables, plan.Table{Name: n, Table: t})
	}
	air, err := in.airTables()
	if err != nil {
		return nil, err
	}
	return plan.Plan(ctx, sc, plan.Config{Tables: tables, Air: air, Budget: budget, Sample: smp,
		MaxForces: float64(maxForces), Target: target, Workers: s.cfg.Workers})
}

// parse is POST /api/parse: the scenario checked, then returned as a JSON
// document with the file's keys, for the page to load into its form.
func (s *Server) parse(_ context.Context, in *input, _ query) (any, error) {
	if _, err := in.parse(); err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := yaml.Unmarshal(in.text, &doc); err != nil {
		return nil, bad("%s: %v", in.name, err)
	}
	return doc, nil
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
func (s *Server) schema(w http.ResponseWriter, r *http.Request) {
	type nation struct {
		Code string `json:"code"`
		Name string `json:"name"`
	}
	var nations []nation
	for _, n := range scenario.Nations {
		nations = append(nations, nation{n.Code, n.Name})
	}
	types := scenario.UnitTypes()
	slices.Sort(types)
	w.Header().Set("Content-Type", "application/json")
	reports.WriteJSON(w, map[string]any{
		"kinds":    []string{string(scenario.Land), string(scenario.Invasion), string(scenario.Paradrop), string(scenario.Bombardment)},
		"crts":     crt.Names(),
		"tables":   []string{"auto", "assault", "blitz"},
		"options":  scenario.AllOptions,
		"terrains": crt.Terrains,
		"weathers": scenario.Weathers,
		"types":    types,
		"sizes":    scenario.Sizes(),
		"nations":  nations,
		"roles":    []string{string(scenario.RoleCombat), string(scenario.RoleStrike), string(scenario.RoleSupport)},
		"costs":    scenario.CostMeasures,
	})
}
