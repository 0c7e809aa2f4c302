package answer

import (
	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// appendSummaryJSON appends a land combat's summary as WriteJSON writes
// it, without reflection: the web app answers every edit on its page with
// one (docs/performance.md). The members follow the struct tags of
// analysis.Summary in field order, omitempty as tagged; the tests hold it
// to encoding/json's bytes on every example and on generated summaries
// that fill every field, so a field added to the types and not here fails
// them.
func appendSummaryJSON(b []byte, s *analysis.Summary) ([]byte, error) {
	w := jsonWriter{b: b}
	w.open('{')
	writeHeadJSON(&w, s)
	writeProbabilitiesJSON(&w, &s.Probabilities)
	writeDistributionsJSON(&w, s)
	writeLossesJSON(&w, s)
	writeNotesJSON(&w, s)
	w.close('}')
	w.b = append(w.b, '\n')
	if w.err != nil {
		return b, w.err
	}
	return w.b, nil
}

// writeHeadJSON writes what was asked and how: the scenario, tables, run,
// odds and the result mix.
func writeHeadJSON(w *jsonWriter, s *analysis.Summary) {
	w.field("scenario")
	w.str(s.Scenario)
	w.field("kind")
	w.str(s.Kind)
	w.field("crt")
	w.str(s.CRT)
	w.field("table")
	w.str(s.Table)
	w.field("options")
	w.strs(s.Options)
	writeRunJSON(w, &s.Run)
	if s.Notional != nil {
		w.field("notional_unit")
		w.float(*s.Notional)
	}
	w.field("odds")
	w.open('{')
	w.field("attack")
	w.float(s.Odds.Attack)
	w.field("defence")
	w.float(s.Odds.Defence)
	w.close('}')
	w.field("odds_levels")
	w.keyedFloats(s.OddsLevels)
	w.field("tables")
	w.keyedFloats(s.Tables)
	w.field("table_choices")
	w.tableChoices(s.TableChoices)
	w.field("results")
	w.keyedFloats(s.Results)
	w.field("result_intervals")
	w.keyedEstimates(s.ResultCIs)

}

// writeProbabilitiesJSON writes the headline probabilities.
func writeProbabilitiesJSON(w *jsonWriter, p *analysis.Probabilities) {
	w.field("probabilities")
	w.open('{')
	w.field("hex_taken")
	w.estimate(p.HexTaken)
	w.field("breakthrough")
	w.estimate(p.Breakthrough)
	w.field("attacker_face_up")
	w.estimate(p.AttackerFaceUp)
	w.field("defender_retreated")
	w.estimate(p.DefenderRetreated)
	w.field("defender_shattered")
	w.estimate(p.DefenderShattered)
	if p.NotAllowed != nil {
		w.field("not_allowed")
		w.estimate(*p.NotAllowed)
	}
	w.close('}')

}

// writeDistributionsJSON writes the loss distributions and their intervals.
func writeDistributionsJSON(w *jsonWriter, s *analysis.Summary) {
	d := &s.Distributions
	w.field("distributions")
	w.open('{')
	w.field("attacker_units_lost")
	w.floats(d.AttackerUnitsLost)
	w.field("defender_units_lost")
	w.floats(d.DefenderUnitsLost)
	w.field("attacker_factors_lost")
	w.keyedFloats(d.AttackerFactorsLost)
	w.field("defender_factors_lost")
	w.keyedFloats(d.DefenderFactorsLost)
	if len(d.AttackerUnitsReduced) > 0 {
		w.field("attacker_units_reduced")
		w.floats(d.AttackerUnitsReduced)
	}
	if len(d.DefenderUnitsReduced) > 0 {
		w.field("defender_units_reduced")
		w.floats(d.DefenderUnitsReduced)
	}
	w.close('}')

	di := &s.DistCIs
	w.field("distribution_intervals")
	w.open('{')
	w.field("attacker_units_lost")
	w.estimates(di.AttackerUnitsLost)
	w.field("defender_units_lost")
	w.estimates(di.DefenderUnitsLost)
	w.field("attacker_factors_lost")
	w.keyedEstimates(di.AttackerFactorsLost)
	w.field("defender_factors_lost")
	w.keyedEstimates(di.DefenderFactorsLost)
	w.close('}')

}

// writeLossesJSON writes the expected losses and the losses by unit type.
func writeLossesJSON(w *jsonWriter, s *analysis.Summary) {
	w.field("means")
	w.open('{')
	w.field("attacker_units_lost")
	w.mean(s.Means.AttackerUnitsLost)
	w.field("defender_units_lost")
	w.mean(s.Means.DefenderUnitsLost)
	w.field("attacker_factors_lost")
	w.mean(s.Means.AttackerFactorsLost)
	w.field("defender_factors_lost")
	w.mean(s.Means.DefenderFactorsLost)
	w.close('}')

	w.field("losses_by_type")
	w.open('{')
	w.field("attacker")
	w.keyedTypeLosses(s.LossesByType.Attacker)
	w.field("defender")
	w.keyedTypeLosses(s.LossesByType.Defender)
	w.close('}')

}

// writeNotesJSON writes the pre-combat figures, the reconstructed-value
// note, the replay, the warnings and the working.
func writeNotesJSON(w *jsonWriter, s *analysis.Summary) {
	if pc := s.PreCombat; pc != nil {
		w.field("pre_combat")
		w.open('{')
		w.field("defenders_struck")
		w.floats(pc.DefendersStruck)
		w.field("aircraft_destroyed")
		w.floats(pc.AircraftDestroyed)
		w.field("aircraft_aborted")
		w.floats(pc.AircraftAborted)
		w.field("support_factors")
		w.keyedFloats(pc.SupportFactors)
		w.close('}')
	}

	w.field("reconstructed")
	w.open('{')
	w.field("used")
	w.boolean(s.Reconstructed.Used)
	w.field("probability")
	w.estimate(s.Reconstructed.Probability)
	w.close('}')

	if r := s.Replay; r != nil {
		writeReplayJSON(w, r)
	}
	w.field("warnings")
	w.strs(s.Warnings)
	if len(s.Working) > 0 {
		w.field("working")
		w.strs(s.Working)
	}
}

// writeRunJSON writes the members of an embedded sim.Run.
func writeRunJSON(w *jsonWriter, r *sim.Run) {
	w.field("method")
	w.str(r.Method)
	if r.Trials != 0 {
		w.field("trials")
		w.uint(r.Trials)
	}
	if r.Seed != nil {
		w.field("seed")
		w.uint(*r.Seed)
	}
	if r.Workers != 0 {
		w.field("workers")
		w.int(r.Workers)
	}
	if r.Chunk != 0 {
		w.field("chunk_size")
		w.int(r.Chunk)
	}
	if r.Paths != 0 {
		w.field("paths")
		w.int(r.Paths)
	}
	w.field("elapsed_seconds")
	w.float(r.Elapsed)
	w.field("partial")
	w.boolean(r.Partial)
	if p := r.Precision; p != nil {
		w.field("precision")
		w.open('{')
		w.field("target")
		w.float(p.Target)
		w.field("reached")
		w.boolean(p.Reached)
		w.field("achieved")
		w.float(p.Achieved)
		w.close('}')
	}
}

func writeReplayJSON(w *jsonWriter, r *analysis.Replayed) {
	w.field("replay")
	w.open('{')
	w.field("dice")
	w.ints(r.Dice)
	w.field("dice_used")
	w.int(r.DiceUsed)
	w.field("random_rolls")
	w.int(r.RandomRolls)
	w.field("unused_dice")
	w.int(r.UnusedDice)
	w.field("result")
	w.str(r.Result)
	w.field("words")
	w.str(r.Words)
	w.field("table")
	w.str(r.Table)
	w.field("odds")
	w.str(r.Odds)
	w.field("hex_taken")
	w.boolean(r.HexTaken)
	w.field("attacker_units_lost")
	w.int(r.AttackerLost)
	w.field("defender_units_lost")
	w.int(r.DefenderLost)
	w.field("attacker_face_up")
	w.boolean(r.AttackerUp)
	w.field("probability")
	w.float(r.Probability)
	w.field("at_least_as_good")
	w.float(r.AtLeastAsGood)
	if c := r.CRTRoll; c != nil {
		w.field("crt_roll")
		w.open('{')
		w.field("dice")
		w.ints(c.Dice)
		w.field("modifier")
		w.int(c.Modifier)
		w.field("read_as")
		w.ints(c.ReadAs)
		w.close('}')
	}
	w.close('}')
}

// The Keyed figures, written as their MarshalJSON writes them: an
// object in key order, null when nil.

// tableChoices writes who chose each odds level's table and why.
func (w *jsonWriter) tableChoices(v []combat.TableChoice) {
	if w.start('[', v == nil) {
		for _, c := range v {
			w.elem()
			w.open('{')
			w.field("odds")
			w.str(c.Odds)
			w.field("table")
			w.str(c.Table)
			w.field("chooser")
			w.str(string(c.Chooser))
			w.field("reason")
			w.str(c.Reason)
			w.close('}')
		}
		w.close(']')
	}
}

func (w *jsonWriter) keyedFloats(k analysis.Keyed[float64]) {
	if w.start('{', k == nil) {
		for _, e := range k {
			w.key(e.Key)
			w.float(e.Value)
		}
		w.close('}')
	}
}

func (w *jsonWriter) keyedEstimates(k analysis.Keyed[stats.Estimate]) {
	if w.start('{', k == nil) {
		for _, e := range k {
			w.key(e.Key)
			w.estimate(e.Value)
		}
		w.close('}')
	}
}

func (w *jsonWriter) keyedTypeLosses(k analysis.Keyed[analysis.TypeLoss]) {
	if w.start('{', k == nil) {
		for _, e := range k {
			w.key(e.Key)
			w.typeLoss(e.Value)
		}
		w.close('}')
	}
}

func (w *jsonWriter) estimates(v []stats.Estimate) {
	if w.start('[', v == nil) {
		for _, x := range v {
			w.elem()
			w.estimate(x)
		}
		w.close(']')
	}
}

func (w *jsonWriter) estimate(e stats.Estimate) {
	w.open('{')
	w.field("p")
	w.float(e.P)
	w.field("lo")
	w.float(e.Lo)
	w.field("hi")
	w.float(e.Hi)
	w.close('}')
}

func (w *jsonWriter) mean(m stats.Mean) {
	w.open('{')
	w.field("mean")
	w.float(m.Mean)
	w.field("se")
	w.float(m.SE)
	w.field("lo")
	w.float(m.Lo)
	w.field("hi")
	w.float(m.Hi)
	w.close('}')
}

func (w *jsonWriter) typeLoss(t analysis.TypeLoss) {
	w.open('{')
	w.field("mean")
	w.mean(t.Mean)
	w.field("at_least_one")
	w.estimate(t.AnyOf)
	w.close('}')
}
