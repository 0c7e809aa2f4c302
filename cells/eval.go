package cells

import (
	"fmt"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
)

// Metrics are the headline figures weighed: compare's and battery's
// (analysis.CompareMetrics), in their order.
var Metrics = analysis.CompareMetrics

// Figures are a combat's headline figures as exact counts: Num[m] is the
// number of dice sequences times the metric's value, summed; the figure
// is Num[m]/Size.
type Figures struct {
	Num  []int64
	Size uint64
}

// Value is metric m's figure.
func (f Figures) Value(m int) float64 { return float64(f.Num[m]) / float64(f.Size) }

// Values are every metric's figure, in Metrics' order.
func (f Figures) Values() []float64 {
	v := make([]float64, len(f.Num))
	for m := range v {
		v[m] = f.Value(m)
	}
	return v
}

// Scenario is one combat of a battery, ready to be weighed and reweighed
// under edits of its table without compiling it again. It caches what it
// settles, so one goroutine uses it at a time.
type Scenario struct {
	Name   string
	Combat *combat.Combat
	reads  combat.Reads
	// settled caches what each result settles to: the metrics' values
	// and the table-choice statistics' inputs. A scenario settles a few
	// dozen results: a scan beats hashing.
	settled []settled
	// span is, by branch and table, the column and the rows its rolls
	// read: an edit outside them changes nothing in the branch.
	span [][2]span
	// base is, by branch, its figures' numerators on the unedited
	// table; a branch no edit touches adds them as they are.
	base [][]int64
}

type span struct{ col, lo, hi int }

func (s span) has(c crt.Cell) bool { return c.Col == s.col && c.Row >= s.lo && c.Row <= s.hi }

type settleKey struct {
	level int
	k     crt.Kind
	r     crt.Result
}

type settled struct {
	key          settleKey
	values       []int64
	hex, through bool
	attLost      float64
}

// NewScenario prepares a compiled combat. It fails when the combat's
// pre-combat dice are too many to count exactly (the exact answer's own
// limit).
func NewScenario(name string, c *combat.Combat) (*Scenario, error) {
	r, ok := c.Reads()
	if !ok {
		return nil, fmt.Errorf("%s: too many pre-combat dice sequences to weigh its cells exactly", name)
	}
	s := &Scenario{Name: name, Combat: c, reads: r}
	s.span = make([][2]span, len(r.Branches))
	s.base = make([][]int64, len(r.Branches))
	lo, hi := r.DiceRange()
	l := lookup{t: c.CRT}
	for i := range r.Branches {
		b := &r.Branches[i]
		for _, k := range crt.Kinds {
			row, col := c.CRT.RowFor(b.Level, lo+b.Mod[k])
			top, _ := c.CRT.RowFor(b.Level, hi+b.Mod[k])
			s.span[i][k] = span{col, row, top}
			if b.Fixed >= 0 || !b.Read[k] {
				s.span[i][k] = span{col: -1}
			}
		}
		s.base[i] = make([]int64, len(Metrics))
		s.branch(l, i, s.base[i], nil)
	}
	return s, nil
}

func values(o *combat.Outcome) []int64 {
	v := make([]int64, len(Metrics))
	for m := range Metrics {
		v[m] = int64(Metrics[m].Value(o))
	}
	return v
}

// settle is what result r read at level on table k settles to.
func (s *Scenario) settle(level int, k crt.Kind, r crt.Result) *settled {
	key := settleKey{level, k, r}
	for i := range s.settled {
		if s.settled[i].key == key {
			return &s.settled[i]
		}
	}
	o := s.Combat.Settle(level, k, r)
	s.settled = append(s.settled, settled{key, values(&o), o.HexTaken, o.Breakthrough, float64(o.AttackerLost)})
	return &s.settled[len(s.settled)-1]
}

// lookup is a table with edits: the result read for an odds level and a
// modified roll.
type lookup struct {
	t     *crt.Table
	edits []crt.Edit
}

func (l lookup) read(k crt.Kind, level, roll int) (crt.Result, crt.Cell) {
	row, col := l.t.RowFor(level, roll)
	c := crt.Cell{Kind: k, Row: row, Col: col}
	for i := len(l.edits) - 1; i >= 0; i-- {
		if l.edits[i].Cell == c {
			return l.edits[i].Result, c
		}
	}
	return l.t.Grids[k].Rows[row].Cells[col], c
}

// roll is one CRT roll of a branch: the result read, the cells that gave
// it (the attacker's roll's, then the defender's; the same cell twice
// without wild results), and its dice sequences.
type roll struct {
	r        crt.Result
	att, def crt.Cell
	ways     uint64
	p        float64 // its probability, as the table choice weighs it
}

// rolls calls f for every CRT roll of a branch on table k, in the order
// the combat's own table statistics add them.
func (s *Scenario) rolls(l lookup, b *combat.Branch, k crt.Kind, f func(roll)) {
	rd := &s.reads
	lo, hi := rd.DiceRange()
	mod := b.Mod[k]
	for a := lo; a <= hi; a++ {
		ra, ca := l.read(k, b.Level, a+mod)
		if !rd.Wild {
			f(roll{ra, ca, ca, rd.Ways(a), rd.TotalProb(a)})
			continue
		}
		for d := lo; d <= hi; d++ {
			rdd, cd := l.read(k, b.Level, d+mod)
			f(roll{combat.Composite(ra, rdd), ca, cd, rd.Ways(a) * rd.Ways(d), rd.TotalProb(a) * rd.TotalProb(d)})
		}
	}
}

// table is the table a branch uses under l: the one forced, or the one
// its chooser picks from what each gives (docs/rules.md §2.3).
func (s *Scenario) table(l lookup, i int) crt.Kind {
	b := &s.reads.Branches[i]
	if !b.Read[crt.Assault] || !b.Read[crt.Blitz] {
		return b.Table
	}
	st := b.Compare
	for _, k := range crt.Kinds {
		if !s.touchedTable(i, k, l.edits) {
			// What the unedited table gives, as the combat weighed it.
			continue
		}
		st[k] = combat.TableStats{}
		s.rolls(l, b, k, func(x roll) {
			o := s.settle(b.Level, k, x.r)
			if o.hex {
				st[k].HexTaken += x.p
			}
			if o.through {
				st[k].Breakthrough += x.p
			}
			st[k].AttackerLost += x.p * o.attLost
		})
	}
	return combat.PickTable(b.Chooser, st[crt.Assault], st[crt.Blitz])
}

// Figures weighs the scenario's headline figures with its table read
// through edits: exactly what compiling the combat with the edited table
// gives (TestReweighEqualsRecompile).
func (s *Scenario) Figures(edits []crt.Edit) Figures {
	f := Figures{Num: make([]int64, len(Metrics)), Size: s.reads.Size}
	s.weigh(edits, f.Num, nil)
	return f
}

// weigh adds the figures' numerators into num and, when mass is not nil,
// calls it with every roll's cells and dice sequences. A branch whose
// reads no edit touches adds its figures on the unedited table.
func (s *Scenario) weigh(edits []crt.Edit, num []int64, mass func(att, def crt.Cell, n uint64)) {
	l := lookup{s.Combat.CRT, edits}
	for i := range s.reads.Branches {
		if mass == nil && !s.touched(i, edits) {
			for m, v := range s.base[i] {
				num[m] += v
			}
			continue
		}
		s.branch(l, i, num, mass)
	}
}

// touched reports whether an edit is of a cell branch i reads.
func (s *Scenario) touched(i int, edits []crt.Edit) bool {
	return s.touchedTable(i, crt.Assault, edits) || s.touchedTable(i, crt.Blitz, edits)
}

// touchedTable reports whether an edit is of a cell branch i reads on
// table k.
func (s *Scenario) touchedTable(i int, k crt.Kind, edits []crt.Edit) bool {
	for _, e := range edits {
		if e.Cell.Kind == k && s.span[i][k].has(e.Cell) {
			return true
		}
	}
	return false
}

// branch adds branch i's figures under l into num.
func (s *Scenario) branch(l lookup, i int, num []int64, mass func(att, def crt.Cell, n uint64)) {
	b := &s.reads.Branches[i]
	if b.Fixed >= 0 {
		for m := range Metrics {
			num[m] += int64(b.Ways*s.reads.Rolled) * int64(Metrics[m].Value(&s.Combat.Outcomes[b.Fixed]))
		}
		return
	}
	k := s.table(l, i)
	s.rolls(l, b, k, func(x roll) {
		n := b.Ways * x.ways
		for m, v := range s.settle(b.Level, k, x.r).values {
			num[m] += int64(n) * v
		}
		if mass != nil {
			mass(x.att, x.def, n)
		}
	})
}

// readsCell reports whether any branch can read cell c on either table
// it reads: a cell no branch reads cannot change the scenario's figures.
func (s *Scenario) readsCell(c crt.Cell) bool {
	for i := range s.span {
		if s.span[i][c.Kind].has(c) {
			return true
		}
	}
	return false
}
