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
	index := func(c crt.Cell) int { return (int(c.Kind)*rows+c.Row)*cols + c.Col }
	w := &Weights{Table: t, TableName: t.Name}
	for _, m := range Metrics {
		w.Metrics = append(w.Metrics, m.Name)
	}
	alts := t.Codes()
	n := 2 * cols * rows
	attSum, defSum := make([]float64, n), make([]float64, n)
	deltaSum := make([][][]float64, n) // by cell, alternative, metric
	for _, s := range scs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if s.Combat.CRT != t {
			return nil, fmt.Errorf("%s: compiled on table %s, not the one weighed (%s)", s.Name, s.Combat.CRT.Name, t.Name)
		}
		att, def := make([]uint64, n), make([]uint64, n)
		base := Figures{Num: make([]int64, len(Metrics)), Size: s.reads.Size}
		s.weigh(nil, base.Num, func(a, d crt.Cell, k uint64) {
			att[index(a)] += k
			def[index(d)] += k
		})
		sw := ScenarioWeights{Name: s.Name}
		var reached uint64
		sw.Figures = base.Values()
		for i := range att {
			reached += att[i]
		}
		sw.Fixed = float64(s.reads.Size-reached) / float64(s.reads.Size)
		w.Fixed += sw.Fixed / float64(len(scs))
		for kind := range 2 {
			for row := range rows {
				for col := range cols {
					c := crt.Cell{Kind: crt.Kind(kind), Row: row, Col: col}
					i := index(c)
					if att[i] == 0 && def[i] == 0 && !s.readsCell(c) {
						continue
					}
					cw := newCellWeight(t, c)
					cw.AttackerRoll = float64(att[i]) / float64(s.reads.Size)
					cw.DefenderRoll = float64(def[i]) / float64(s.reads.Size)
					cw.Weight = (cw.AttackerRoll + cw.DefenderRoll) / 2
					attSum[i] += cw.AttackerRoll
					defSum[i] += cw.DefenderRoll
					if deltaSum[i] == nil {
						deltaSum[i] = make([][]float64, len(alts))
					}
					for j, r := range alts {
						ch := Change{Result: r.String(), Delta: make([]float64, len(Metrics))}
						if r != t.Cell(c) {
							f := s.Figures([]crt.Edit{{Cell: c, Result: r}})
							for m := range Metrics {
								ch.Delta[m] = float64(f.Num[m]-base.Num[m]) / float64(f.Size)
							}
						}
						if deltaSum[i][j] == nil {
							deltaSum[i][j] = make([]float64, len(Metrics))
						}
						for m, d := range ch.Delta {
							deltaSum[i][j][m] += d
						}
						cw.Changes = append(cw.Changes, ch)
					}
					sw.Cells = append(sw.Cells, cw)
				}
			}
		}
		w.Scenarios = append(w.Scenarios, sw)
	}
	for kind := range 2 {
		for row := range rows {
			for col := range cols {
				c := crt.Cell{Kind: crt.Kind(kind), Row: row, Col: col}
				i := index(c)
				cw := newCellWeight(t, c)
				cw.AttackerRoll = attSum[i] / float64(len(scs))
				cw.DefenderRoll = defSum[i] / float64(len(scs))
				cw.Weight = (cw.AttackerRoll + cw.DefenderRoll) / 2
				for j, r := range alts {
					ch := Change{Result: r.String(), Delta: make([]float64, len(Metrics))}
					if deltaSum[i] != nil {
						copy(ch.Delta, deltaSum[i][j])
					}
					cw.Changes = append(cw.Changes, ch)
				}
				w.Cells = append(w.Cells, cw)
			}
		}
	}
	return w, nil
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
