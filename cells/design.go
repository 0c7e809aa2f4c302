package cells

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/wifodds/wifodds/crt"
)

// DesignOptions tune the design search.
type DesignOptions struct {
	// KeepMonotone allows only edits after which no edited cell is
	// worse for the attacker than the cell below it (a lower roll) or to
	// its left (lower odds), nor better than the one above or to its
	// right (Dominates).
	KeepMonotone bool
	MaxEdits     int // most edits tried (default 4)
	Beam         int // sets of edits kept per size past 2 (default 16)
	// MaxPairWork bounds the exhaustive search of two edits: pairs
	// times scenarios (default 10 million, about 20 s); past it two
	// edits are searched by the beam too.
	MaxPairWork int
}

// Design is the search's answer: the fewest edits found that meet every
// goal, or the closest set of edits found and by how much it falls short.
type Design struct {
	Table   string       `json:"table"`
	Met     bool         `json:"met"`
	Edits   []EditView   `json:"edits"`
	Goals   []GoalResult `json:"goals"`
	Optimal bool         `json:"optimal"` // no fewer edits meet every goal (proven by exhaustive search)
	// Alike counts the other sets of edits of the same size that meet
	// every goal, where the search enumerated that size.
	Alike       int    `json:"alike"`
	Search      string `json:"search"` // what was searched, in words
	Candidates  int    `json:"candidates"`
	Evaluations int    `json:"evaluations"`
	edits       []crt.Edit
}

// EditView is one edit as reports show it.
type EditView struct {
	Cell string `json:"cell"` // TABLE/ODDS/ROLL
	From string `json:"from"`
	To   string `json:"to"`
}

// Spec is the edit as a variant's cell= override takes it.
func (e EditView) Spec() string { return e.Cell + ":" + e.To }

// GoalResult is one goal before and after the edits. A figure that does
// not exist (losses per hex where the hex is never taken) is +Inf, and
// null in JSON.
type GoalResult struct {
	Goal      string    `json:"goal"`
	Before    JSONFloat `json:"before"`
	After     JSONFloat `json:"after"`
	Shortfall JSONFloat `json:"shortfall"` // how far After is from meeting it, 0 when met
}

// JSONFloat is a figure that may be infinite: JSON has no infinity, so
// it is written null.
type JSONFloat float64

// MarshalJSON writes the number, or null when it is not finite.
func (f JSONFloat) MarshalJSON() ([]byte, error) {
	if math.IsInf(float64(f), 0) || math.IsNaN(float64(f)) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

// EditList is the design's edits.
func (d *Design) EditList() []crt.Edit { return d.edits }

// Dominates reports whether result a is at least as good for the
// attacker as b in every part and better in one: no more attacking
// units lost, no fewer defending units lost, no weaker effect (none,
// R, S, B), face-up when b is. Results that trade one part for another
// are not ordered.
func Dominates(a, b crt.Result) bool {
	a.FaceUp = a.FaceUp && a.AttackerLoss == 0
	b.FaceUp = b.FaceUp && b.AttackerLoss == 0
	return a != b && a.AttackerLoss <= b.AttackerLoss && a.DefenderLoss >= b.DefenderLoss &&
		a.Effect >= b.Effect && (a.FaceUp || !b.FaceUp)
}

// monotone reports whether every edited cell keeps order with its
// neighbours in the edited table: none is dominated by the cell at the
// roll below or the odds to the left, nor dominates the one above or to
// the right.
func monotone(t *crt.Table, edits []crt.Edit) bool {
	at := func(c crt.Cell) crt.Result {
		for i := len(edits) - 1; i >= 0; i-- {
			if edits[i].Cell == c {
				return edits[i].Result
			}
		}
		return t.Cell(c)
	}
	rows, cols := t.MaxRow-t.MinRow+1, t.Columns()
	for _, e := range edits {
		c := e.Cell
		r := at(c)
		if c.Row > 0 && Dominates(at(crt.Cell{Kind: c.Kind, Row: c.Row - 1, Col: c.Col}), r) ||
			c.Row+1 < rows && Dominates(r, at(crt.Cell{Kind: c.Kind, Row: c.Row + 1, Col: c.Col})) ||
			c.Col > 0 && Dominates(at(crt.Cell{Kind: c.Kind, Row: c.Row, Col: c.Col - 1}), r) ||
			c.Col+1 < cols && Dominates(r, at(crt.Cell{Kind: c.Kind, Row: c.Row, Col: c.Col + 1})) {
			return false
		}
	}
	return true
}

// searcher evaluates sets of edits over the battery.
type searcher struct {
	t     *crt.Table
	scs   []*Scenario
	goals []Goal
	figs  [][]float64
	evals int
}

// distance is how far the edits leave the goals, summed, each shortfall
// relative to its target (at least 0.01): 0 when every goal is met.
func (s *searcher) distance(edits []crt.Edit) float64 {
	s.evals++
	for i, sc := range s.scs {
		s.figs[i] = sc.Figures(edits).Values()
	}
	d := 0.0
	for g := range s.goals {
		d += s.goals[g].Shortfall(s.goals[g].Value(s.figs)) / max(math.Abs(s.goals[g].Target), 0.01)
	}
	return d
}

// Search looks for the fewest cell edits of t (to results t already
// uses, in cells some scenario reads) after which every goal is met,
// evaluating every candidate exactly by reweighting. It tries no edit,
// then every single edit, then every pair (within MaxPairWork), and
// proves the answer optimal when one of those meets the goals; past two
// edits (or past MaxPairWork) it keeps the Beam closest sets of each size
// and extends them by one edit, a heuristic: fewer edits may exist. With
// no set meeting the goals it returns the closest found.
func Search(ctx context.Context, t *crt.Table, scs []*Scenario, goals []Goal, opt DesignOptions) (*Design, error) {
	// The request: its bounds, and the options' defaults.
	if len(goals) == 0 || len(goals) > MaxGoals {
		return nil, fmt.Errorf("give 1 to %d goals", MaxGoals)
	}
	if err := opt.settle(); err != nil {
		return nil, err
	}
	if len(scs) == 0 || len(scs) > MaxScenarios {
		return nil, fmt.Errorf("%d scenarios: the lab searches over 1 to %d", len(scs), MaxScenarios)
	}
	s := &searcher{t: t, scs: scs, goals: goals}
	for range scs {
		s.figs = append(s.figs, make([]float64, len(Metrics)))
	}
	cands := candidates(t, scs)
	d := &Design{Table: t.Name, Candidates: len(cands)}
	before := s.distance(nil)
	beforeVals := make([]float64, len(goals))
	for g := range goals {
		beforeVals[g] = goals[g].Value(s.figs)
	}
	finish := func(edits []crt.Edit, met, optimal bool, how string) *Design {
		s.distance(edits)
		d.edits, d.Met, d.Optimal, d.Search = edits, met, optimal, how
		for _, e := range edits {
			d.Edits = append(d.Edits, EditView{t.CellLabel(e.Cell), t.Cell(e.Cell).String(), e.Result.String()})
		}
		for g := range goals {
			v := goals[g].Value(s.figs)
			d.Goals = append(d.Goals, GoalResult{goals[g].Spec, JSONFloat(beforeVals[g]), JSONFloat(v), JSONFloat(goals[g].Shortfall(v))})
		}
		d.Evaluations = s.evals
		return d
	}
	if before == 0 {
		return finish(nil, true, true, "the table as it is meets every goal"), nil
	}
	// One edit, every one.
	ones := beam{width: opt.Beam}
	var found []crt.Edit
	// try weighs a set of edits allowed, keeps it in b, and keeps the
	// first that meets every goal, counting the others.
	try := func(b *beam, es []crt.Edit) {
		if opt.KeepMonotone && !monotone(t, es) {
			return
		}
		dist := s.distance(es)
		b.add(es, dist)
		if dist == 0 {
			if found == nil {
				found = es
			} else {
				d.Alike++
			}
		}
	}
	for _, e := range cands {
		try(&ones, []crt.Edit{e})
	}
	if found != nil {
		return finish(found, true, true, fmt.Sprintf("every single edit (%d) searched: one edit is the fewest", len(cands))), nil
	}
	frontier := ones
	// Two edits, every pair of different cells, when not too many.
	pairs := len(cands) * (len(cands) - 1) / 2
	exhaustPairs := pairs <= opt.MaxPairWork/len(scs)
	if exhaustPairs {
		next := beam{width: opt.Beam}
		for i := range cands {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			for j := i + 1; j < len(cands); j++ {
				if cands[i].Cell == cands[j].Cell {
					continue
				}
				try(&next, []crt.Edit{cands[i], cands[j]})
			}
		}
		if found != nil {
			return finish(found, true, true, fmt.Sprintf("every single edit (%d) and every pair searched: two edits are the fewest", len(cands))), nil
		}
		frontier = next
	}
	// Every set of up to size edits has been weighed.
	exhaustive := "every single edit searched"
	size := 1
	if exhaustPairs {
		exhaustive += " and every pair"
		size = 2
	} else {
		exhaustive += fmt.Sprintf("; %d pairs over %d scenarios are past the exhaustive bound (%d)", pairs, len(scs), opt.MaxPairWork)
	}
	searched := size
	closest := frontier.better(ones.better(scored{dist: before}))
	for size < opt.MaxEdits {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		size++
		next := beam{width: opt.Beam}
		for _, st := range frontier.sets {
			for _, e := range cands {
				if hasCell(st.edits, e.Cell) {
					continue
				}
				es := append(append([]crt.Edit{}, st.edits...), e)
				if next.has(es) || opt.KeepMonotone && !monotone(t, es) {
					continue
				}
				next.add(es, s.distance(es))
			}
		}
		if len(next.sets) == 0 {
			break
		}
		if next.sets[0].dist == 0 {
			// Every smaller set was weighed when only one size more
			// than the exhaustive search was needed.
			if size == searched+1 {
				return finish(next.sets[0].edits, true, true, fmt.Sprintf("%s: none met the goals; a beam of the %d closest sets found %d edits, the fewest", exhaustive, opt.Beam, size)), nil
			}
			return finish(next.sets[0].edits, true, false, fmt.Sprintf("%s; then a beam of the %d closest sets, %d edits met the goals (fewer may exist)", exhaustive, opt.Beam, size)), nil
		}
		closest = next.better(closest)
		frontier = next
	}
	return finish(closest.edits, false, false, fmt.Sprintf("%s; then a beam of the %d closest sets up to %d edits: no set found meets every goal; the closest found is shown", exhaustive, opt.Beam, opt.MaxEdits)), nil
}

// settle gives the options left at zero their defaults and refuses more
// edits than a table takes.
func (opt *DesignOptions) settle() error {
	if opt.MaxEdits <= 0 {
		opt.MaxEdits = 4
	}
	if opt.MaxEdits > crt.MaxEdits {
		return fmt.Errorf("at most %d edits", crt.MaxEdits)
	}
	if opt.Beam <= 0 {
		opt.Beam = 16
	}
	if opt.MaxPairWork <= 0 {
		opt.MaxPairWork = 10_000_000
	}
	return nil
}

// candidates are the single edits Search weighs: every cell some scenario
// reads, to every other result the table uses. An edit that breaks the
// order alone may keep it with another: sets are checked whole.
func candidates(t *crt.Table, scs []*Scenario) []crt.Edit {
	var cands []crt.Edit
	codes := t.Codes()
	for _, k := range crt.Kinds {
		for row := range t.MaxRow - t.MinRow + 1 {
			for col := range t.Columns() {
				c := crt.Cell{Kind: k, Row: row, Col: col}
				read := false
				for _, sc := range scs {
					read = read || sc.readsCell(c)
				}
				if !read {
					continue
				}
				for _, r := range codes {
					if r != t.Cell(c) {
						cands = append(cands, crt.Edit{Cell: c, Result: r})
					}
				}
			}
		}
	}
	return cands
}

// scored is a set of edits and its distance from the goals.
type scored struct {
	edits []crt.Edit
	dist  float64
}

// beam keeps the width closest sets of edits, closest first, the first
// found first among equals.
type beam struct {
	width int
	sets  []scored
}

func (b *beam) add(es []crt.Edit, dist float64) {
	i := len(b.sets)
	for i > 0 && b.sets[i-1].dist > dist {
		i--
	}
	if i >= b.width {
		return
	}
	b.sets = append(b.sets, scored{})
	copy(b.sets[i+1:], b.sets[i:])
	b.sets[i] = scored{es, dist}
	if len(b.sets) > b.width {
		b.sets = b.sets[:b.width]
	}
}

// has reports whether the beam holds the same set of edits in any order.
func (b *beam) has(es []crt.Edit) bool {
	key := editKey(es)
	for _, st := range b.sets {
		if editKey(st.edits) == key {
			return true
		}
	}
	return false
}

func (b *beam) closest() scored {
	if len(b.sets) == 0 {
		return scored{dist: math.Inf(1)}
	}
	return b.sets[0]
}

// better is the closer of the beam's closest and x, fewer edits first
// among equals.
func (b *beam) better(x scored) scored {
	c := b.closest()
	if c.dist < x.dist || c.dist == x.dist && len(c.edits) < len(x.edits) {
		return c
	}
	return x
}

// editKey names a set of edits whatever their order.
func editKey(es []crt.Edit) string {
	keys := make([]string, len(es))
	for i, e := range es {
		keys[i] = fmt.Sprintf("%d/%d/%d:%s", e.Cell.Kind, e.Cell.Row, e.Cell.Col, e.Result)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

func hasCell(es []crt.Edit, c crt.Cell) bool {
	for _, e := range es {
		if e.Cell == c {
			return true
		}
	}
	return false
}
