package battery

import (
	"context"
	"fmt"
	"strings"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/cells"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/stats"
)

// variants are one scenario's variants, compiled for Run. Variants that
// edit their table's cells (cell= overrides, docs/crtlab.md) are compiled
// without the edits, once for every variant with the same other
// overrides, and answered, when the comparison is exact, by reweighting
// the cells of that compile (package cells) instead of compiling the
// edited table; sampled, they are compiled on the edited table, as common
// random numbers need.
type variants struct {
	s     *scenario.Scenario
	specs []string
	open  func(ref string) (*crt.Table, error)
	air   *crt.AirTables
	vs    []analysis.NamedCombat // every variant, or with edits the distinct variants without them
	plan  []plannedVariant       // with edits: every variant, in order
}

// plannedVariant is a variant answered from base, the variant without
// its cell edits.
type plannedVariant struct {
	name, over string
	base       int
	edits      []crt.Edit
}

// compileVariants is analysis.CompileVariants, compiling a variant with
// cell edits only without them (variants).
func compileVariants(s *scenario.Scenario, specs []string, open func(ref string) (*crt.Table, error), air *crt.AirTables) (*variants, error) {
	v := &variants{s: s, specs: specs, open: open, air: air}
	plan, baseSpecs := planEdits(specs)
	if plan == nil {
		vs, err := analysis.CompileVariants(s, specs, open, air)
		v.vs = vs
		return v, err
	}
	vs, err := analysis.CompileVariants(s, baseSpecs, open, air)
	if err != nil {
		return nil, err
	}
	if len(baseSpecs) == 1 {
		// A lone spec is compared with the scenario as written, which
		// CompileVariants puts first: no variant here is that.
		vs = vs[1:]
	}
	for i := range plan {
		p := &plan[i]
		_, cellSpecs := analysis.CellOverrides(p.over)
		edits, err := vs[p.base].Combat.CRT.ParseEdits(cellSpecs)
		if err != nil {
			return nil, &analysis.VariantError{Err: fmt.Errorf("variant %s: %w", p.name, err)}
		}
		p.edits = edits
	}
	v.vs, v.plan = vs, plan
	return v, nil
}

// planEdits plans the variants when some edit cells: each variant's base
// (the first variant with the same other overrides) and the specs to
// compile. It plans nothing (nil) when no variant edits cells, or when
// the specs are not at least two plain distinct NAME=OVERRIDES, which
// analysis.CompileVariants then compiles, and judges, as written.
func planEdits(specs []string) ([]plannedVariant, []string) {
	names := map[string]bool{}
	rests := map[string]int{}
	var plan []plannedVariant
	var base []string
	edited := false
	for _, spec := range specs {
		name, over, ok := strings.Cut(spec, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" || names[name] {
			return nil, nil
		}
		names[name] = true
		rest, cellSpecs := analysis.CellOverrides(over)
		rest = strings.TrimSpace(rest)
		edited = edited || len(cellSpecs) > 0
		b, seen := rests[rest]
		if !seen {
			b = len(base)
			rests[rest] = b
			base = append(base, name+"="+rest)
		}
		plan = append(plan, plannedVariant{name: name, over: strings.TrimSpace(over), base: b})
	}
	if !edited || len(specs) < 2 || len(base) == 1 && strings.HasPrefix(base[0], "scenario=") {
		// (A lone base is compiled after the scenario as written, which
		// CompileVariants names "scenario": a base of that name would
		// clash.)
		return nil, nil
	}
	return plan, base
}

// compare compares the variants as analysis.Compare does; with cell
// edits and an exact comparison, each edited variant's figures are its
// base's cells reweighted.
func (v *variants) compare(ctx context.Context, name string, req analysis.Request, independent bool) (*analysis.Comparison, error) {
	if v.plan == nil {
		return analysis.Compare(ctx, name, v.vs, req, independent)
	}
	if req.Engine == analysis.MonteCarlo {
		return v.compiled(ctx, name, req, independent)
	}
	// Every base's cells must be countable; then each is tabulated, which
	// always fits the budget, so Auto would answer exactly too.
	reads := make([]*cells.Scenario, len(v.vs))
	for i, nc := range v.vs {
		var err error
		if reads[i], err = cells.NewScenario(name, nc.Combat); err != nil {
			// Too many pre-combat paths to count the cells: the edited
			// combats are compiled and answered as written.
			return v.compiled(ctx, name, req, independent)
		}
	}
	req.Engine = analysis.Exact
	cmp, err := analysis.Compare(ctx, name, v.vs, req, independent)
	if err != nil {
		return nil, err
	}
	out := &analysis.Comparison{Scenario: name, Method: cmp.Method, Elapsed: cmp.Elapsed, Warnings: cmp.Warnings}
	for k, p := range v.plan {
		b := cmp.Variants[p.base]
		r := analysis.VariantResult{Name: p.name, Overrides: p.over, CRT: b.CRT, Metrics: b.Metrics}
		if len(p.edits) > 0 {
			f := reads[p.base].Figures(p.edits).Values()
			r.CRT += " (edited)"
			r.Metrics = map[string]stats.Estimate{}
			for m, met := range cells.Metrics {
				r.Metrics[met.Name] = stats.Exact(f[m])
			}
		}
		if k > 0 {
			r.Diff = map[string]stats.Estimate{}
			for _, met := range cells.Metrics {
				r.Diff[met.Name] = stats.Exact(r.Metrics[met.Name].P - out.Variants[0].Metrics[met.Name].P)
			}
		}
		out.Variants = append(out.Variants, r)
	}
	return out, nil
}

// compiled compares the variants compiled as written, edited tables and all.
func (v *variants) compiled(ctx context.Context, name string, req analysis.Request, independent bool) (*analysis.Comparison, error) {
	vs, err := analysis.CompileVariants(v.s, v.specs, v.open, v.air)
	if err != nil {
		return nil, err
	}
	return analysis.Compare(ctx, name, vs, req, independent)
}
