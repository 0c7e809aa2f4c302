package plan

import (
	"context"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// Figures are the figures of the combat s under table t, as `wifodds run`
// reports them.
func Figures(ctx context.Context, s *scenario.Scenario, t Table, air *crt.AirTables, req analysis.Request) (*HexFigures, error) {
	sc := *s
	sc.CRT = t.Name
	c, err := combat.CompileWith(&sc, t.Table, air, combat.Options{})
	if err != nil {
		return nil, err
	}
	sum, err := analysis.RunCombat(ctx, c, req)
	if err != nil {
		return nil, err
	}
	if sum.Partial {
		return nil, ctx.Err()
	}
	m := &sum.Means
	f := &HexFigures{
		HexTaken: sum.Probabilities.HexTaken, Breakthrough: sum.Probabilities.Breakthrough.P,
		AttackerFaceUp: sum.Probabilities.AttackerFaceUp.P,
		Attack:         c.Attack, Defence: c.Defence, Odds: c.AtOdds[0].Odds, OddsLevels: sum.OddsLevels,
		Table: c.AtOdds[0].Table.String(), Tables: analysis.Keyed[float64]{},
		ExpectedAttackerUnitsLost: m.AttackerUnitsLost.Mean, ExpectedAttackerFactorsLost: m.AttackerFactorsLost.Mean,
		ExpectedDefenderUnitsLost: m.DefenderUnitsLost.Mean, ExpectedDefenderFactorsLost: m.DefenderFactorsLost.Mean,
		Method: sum.Method,
	}
	for _, e := range sum.Tables {
		if e.Value > 0 {
			f.Tables = append(f.Tables, e)
		}
	}
	return f, nil
}
