package cells

import (
	"context"
	"fmt"

	"github.com/wifodds/wifodds/crt"
)

// Weights is a battery's cell weights and sensitivities for one table.
type Weights struct {
	Table     *crt.Table        `json:"-"`
	TableName string            `json:"table"`
	Metrics   []string          `json:"metrics"`
	Scenarios []ScenarioWeights `json:"scenarios"`
	// Cells are the battery's: each cell's weight the mean of the
	// scenarios' (so they sum, with Fixed, to 1), each sensitivity the
	// sum of the scenarios' changes.
	Cells []CellWeight `json:"cells"`
	Fixed float64      `json:"fixed"` // the mean mass no cell decides (automatic results, forbidden airdrops)
}

// ScenarioWeights is one scenario's: its figures, the mass no cell
// decides, and every cell it reads on a table it uses or weighs.
type ScenarioWeights struct {
	Name    string       `json:"name"`
	Figures []float64    `json:"figures"` // by metric
	Fixed   float64      `json:"fixed"`
	Cells   []CellWeight `json:"cells"`
}

// CellWeight is one cell's weight and sensitivities.
type CellWeight struct {
	Cell   crt.Cell `json:"-"`
	Label  string   `json:"cell"`   // TABLE/ODDS/ROLL
	Result string   `json:"result"` // the cell's result
	// Weight is the probability that a roll reads the cell. Under wild
	// results a roll reads two cells, the attacker's roll's (which gives
	// the defender part) and the defender's roll's (which gives the
	// attacker part): AttackerRoll and DefenderRoll are the masses with
	// which the cell plays each part, each summing to 1 over the cells
	// with Fixed, and Weight is their mean. Without wild results the
	// three are equal.
	Weight       float64 `json:"weight"`
	AttackerRoll float64 `json:"attacker_roll"`
	DefenderRoll float64 `json:"defender_roll"`
	// Changes are the exact change of every figure if this cell alone
	// read another result the table uses, one per alternative.
	Changes []Change `json:"changes"`
}

// Change is the figures' change under one alternative result.
type Change struct {
	Result string    `json:"result"`
	Delta  []float64 `json:"change"` // by metric: the figure with the edit less without it
}

// MaxCells bounds the cells the lab weighs: every printed table has far fewer.
const MaxCells = 4096

// MaxScenarios bounds the battery the lab weighs and searches: each
// scenario keeps every cell it reads with a change per alternative
// result and metric (a few kilobytes), and the design search weighs
// every scenario for every set of edits.
const MaxScenarios = 5000

// Weigh weighs every scenario's reads of t (each scenario must be
// compiled on t) and the battery's totals.
func Weigh(ctx context.Context, t *crt.Table, scs []*Scenario) (*Weights, error) {
	if len(scs) == 0 || len(scs) > MaxScenarios {
		return nil, fmt.Errorf("%d scenarios: the lab weighs 1 to %d", len(scs), MaxScenarios)
	}
	cols := t.Columns()
	rows := t.MaxRow - t.MinRow + 1
	if 2*cols*rows > MaxCells {
		return nil, fmt.Errorf("table %s has %d cells: the lab weighs at most %d", t.Name, 2*cols*rows, MaxCells)
	}
	w := &Weights{Table: t, TableName: t.Name}
	for _, m := range Metrics {
		w.Metrics = append(w.Metrics, m.Name)
	}
	sums := newBatterySums(t)
	for _, s := range scs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if s.Combat.CRT != t {
			return nil, fmt.Errorf("%s: compiled on table %s, not the one weighed (%s)", s.Name, s.Combat.CRT.Name, t.Name)
		}
		sw := sums.weigh(s)
		w.Fixed += sw.Fixed / float64(len(scs))
		w.Scenarios = append(w.Scenarios, sw)
	}
	w.Cells = sums.cells(len(scs))
	return w, nil
}

// batterySums adds up the scenarios' weights and changes cell by cell,
// for the battery's means.
type batterySums struct {
	t              *crt.Table
	rows, cols     int
	alts           []crt.Result
	attSum, defSum []float64
	deltaSum       [][][]float64 // by cell, alternative, metric
}

func newBatterySums(t *crt.Table) *batterySums {
	b := &batterySums{t: t, rows: t.MaxRow - t.MinRow + 1, cols: t.Columns(), alts: t.Codes()}
	n := 2 * b.cols * b.rows
	b.attSum, b.defSum, b.deltaSum = make([]float64, n), make([]float64, n), make([][][]float64, n)
	return b
}

func (b *batterySums) index(c crt.Cell) int { return (int(c.Kind)*b.rows+c.Row)*b.cols + c.Col }

// weigh is one scenario's weights: how often each roll reads each cell,
// and what each figure does if the cell read another result; it adds
// them to the sums.
func (b *batterySums) weigh(s *Scenario) ScenarioWeights {
	t := b.t
	n := len(b.attSum)
	att, def := make([]uint64, n), make([]uint64, n)
	base := Figures{Num: make([]int64, len(Metrics)), Size: s.reads.Size}
	s.weigh(nil, base.Num, func(a, d crt.Cell, k uint64) {
		att[b.index(a)] += k
		def[b.index(d)] += k
	})
	sw := ScenarioWeights{Name: s.Name}
	var reached uint64
	sw.Figures = base.Values()
	for i := range att {
		reached += att[i]
	}
	sw.Fixed = float64(s.reads.Size-reached) / float64(s.reads.Size)
	for kind := range 2 {
		for row := range b.rows {
			for col := range b.cols {
				c := crt.Cell{Kind: crt.Kind(kind), Row: row, Col: col}
				i := b.index(c)
				if att[i] == 0 && def[i] == 0 && !s.readsCell(c) {
					continue
				}
				cw := newCellWeight(t, c)
				cw.AttackerRoll = float64(att[i]) / float64(s.reads.Size)
				cw.DefenderRoll = float64(def[i]) / float64(s.reads.Size)
				cw.Weight = (cw.AttackerRoll + cw.DefenderRoll) / 2
				b.attSum[i] += cw.AttackerRoll
				b.defSum[i] += cw.DefenderRoll
				if b.deltaSum[i] == nil {
					b.deltaSum[i] = make([][]float64, len(b.alts))
				}
				for j, r := range b.alts {
					ch := Change{Result: r.String(), Delta: make([]float64, len(Metrics))}
					if r != t.Cell(c) {
						f := s.Figures([]crt.Edit{{Cell: c, Result: r}})
						for m := range Metrics {
							ch.Delta[m] = float64(f.Num[m]-base.Num[m]) / float64(f.Size)
						}
					}
					if b.deltaSum[i][j] == nil {
						b.deltaSum[i][j] = make([]float64, len(Metrics))
					}
					for m, d := range ch.Delta {
						b.deltaSum[i][j][m] += d
					}
					cw.Changes = append(cw.Changes, ch)
				}
				sw.Cells = append(sw.Cells, cw)
			}
		}
	}
	return sw
}

// cells are the battery's weights of every cell: the means over its
// scenarios.
func (b *batterySums) cells(scenarios int) []CellWeight {
	var out []CellWeight
	for kind := range 2 {
		for row := range b.rows {
			for col := range b.cols {
				c := crt.Cell{Kind: crt.Kind(kind), Row: row, Col: col}
				i := b.index(c)
				cw := newCellWeight(b.t, c)
				cw.AttackerRoll = b.attSum[i] / float64(scenarios)
				cw.DefenderRoll = b.defSum[i] / float64(scenarios)
				cw.Weight = (cw.AttackerRoll + cw.DefenderRoll) / 2
				for j, r := range b.alts {
					ch := Change{Result: r.String(), Delta: make([]float64, len(Metrics))}
					if b.deltaSum[i] != nil {
						copy(ch.Delta, b.deltaSum[i][j])
					}
					cw.Changes = append(cw.Changes, ch)
				}
				out = append(out, cw)
			}
		}
	}
	return out
}

func newCellWeight(t *crt.Table, c crt.Cell) CellWeight {
	return CellWeight{Cell: c, Label: t.CellLabel(c), Result: t.Cell(c).String()}
}

// Cell is the battery's weight of cell c.
func (w *Weights) Cell(c crt.Cell) (CellWeight, bool) {
	for _, cw := range w.Cells {
		if cw.Cell == c {
			return cw, true
		}
	}
	return CellWeight{}, false
}
