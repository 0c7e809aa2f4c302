package plan

import (
	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/operation"
	"github.com/wifodds/wifodds/stats"
)

// Result is a plan's answer (docs/planner.md): for one hex, or a front.
// Its top-level keys are the plan under the first table; Plans holds the
// plan under every table the plan file names.
type Result struct {
	*TablePlan
	Plans []*TablePlan `json:"plans"`
}

// TablePlan is the plan under one CRT.
type TablePlan struct {
	CRT         string   `json:"crt"`
	Cost        string   `json:"cost_measure"`
	Target      *float64 `json:"target"` // P(hex taken), or expected hexes on a front
	Recommended *Force   `json:"recommended"`
	// Unreached says why there is no recommendation when a target was set.
	Unreached string   `json:"unreached,omitempty"`
	Frontier  []*Force `json:"frontier"`
	// Candidates are every force weighed (one hex): the points of the chart.
	Candidates []Point `json:"-"`
	// Marginal is what one more (or one less) unit does to the
	// recommended force.
	Marginal []Change `json:"marginal,omitempty"`
	// Front: the hexes, and the order of attack: every target after those
	// it requires, among the ready the first in the file.
	Targets []string `json:"targets,omitempty"`
	Order   []string `json:"order,omitempty"`
	// Objective names the chance a front's chance objective (all,
	// at_least K, set) weighs, which each Force's Chance is, e.g. "P(every
	// hex taken)"; empty for the expected hexes taken. ExpectedPlan is then the assignment that takes the most
	// expected hexes for no more than the recommendation costs: what the
	// expected objective would send instead.
	Objective    string `json:"objective,omitempty"`
	ExpectedPlan *Force `json:"expected_objective_plan,omitempty"`
	// EvaluatedSubsets are the subsets of the available units the search
	// covered; Forces the forces it offered to the frontier (one hex: one
	// per state holding a land unit; a front: one per state whose
	// hexes taken are worth something);
	// DistinctCombats the combats it compiled and weighed (one hex: one per
	// distinct combat state); Sampled of them were over the path budget and
	// sampled.
	EvaluatedSubsets float64 `json:"evaluated_subsets"`
	Forces           int     `json:"forces_weighed"`
	// States are the distinct states of the forces (one hex) or
	// assignments (a front) the search kept: see docs/planner.md.
	States int `json:"states,omitempty"`
	// Pruned are the states of a front's search dropped because no
	// completion of theirs can reach the frontier (docs/planner.md).
	Pruned          int      `json:"pruned_states,omitempty"`
	DistinctCombats int      `json:"distinct_combats"`
	Sampled         int      `json:"sampled_combats"`
	Skipped         int      `json:"skipped_forces"` // forces with no land unit: not an attack
	Warnings        []string `json:"warnings"`
}

// Point is a weighed force on the chart: its cost and value.
type Point struct {
	Cost, Value float64
}

// Force is a force the report lists: a frontier point or the
// recommendation. On one hex the combat's figures are on the Force; on a
// front each hex's are in Hexes and Value is the expected hexes taken.
type Force struct {
	Units            []string    `json:"units"` // ids of the available units and support sent
	Cost             float64     `json:"cost"`
	CommittedFactors float64     `json:"committed_factors"`
	CommittedUnits   int         `json:"committed_units"`
	BuildPoints      float64     `json:"build_points"`
	Shortfall        *float64    `json:"shortfall,omitempty"` // target less P(hex taken), for forces cheaper than the recommendation
	Value            *float64    `json:"expected_hexes_taken,omitempty"`
	Chance           *float64    `json:"objective_chance,omitempty"` // a chance objective's figure, which the frontier then weighs
	Hexes            []*HexForce `json:"hexes,omitempty"`
	// Joint are a front's joint figures of the hexes taken, requires
	// followed.
	Joint *FrontJoint `json:"joint,omitempty"`
	*HexFigures
}

// FrontJoint are the figures of the exact joint distribution of the hexes
// a front's assignment takes (docs/planner.md): a hex is attacked only
// once every target it requires is taken, so with requires the hexes do
// not fall independently. Taken and Attacked are by target, in file
// order.
type FrontJoint struct {
	Exactly       []float64        `json:"exactly"`  // P(exactly k taken), k = 0..n
	AtLeast       []float64        `json:"at_least"` // P(k or more taken), k = 0..n
	All           float64          `json:"all"`
	ExpectedTaken float64          `json:"expected_taken"` // the expected number of hexes taken
	Taken         []float64        `json:"p_taken"`        // P(hex taken) in the plan: P(attacked) x its own
	Attacked      []float64        `json:"p_attacked"`     // P(every target it requires taken); 1 with none
	Sets          []operation.SetP `json:"sets"`           // the front's named sets (sets:)
}

// HexFigures are a force's figures against one hex: the numbers `wifodds
// run --exact` reports for it.
type HexFigures struct {
	HexTaken                    stats.Estimate          `json:"hex_taken"`
	Breakthrough                float64                 `json:"breakthrough"`
	AttackerFaceUp              float64                 `json:"attacker_face_up"`
	Attack                      float64                 `json:"attack"`
	Defence                     float64                 `json:"defence"`
	Odds                        string                  `json:"odds"`
	OddsLevels                  analysis.Keyed[float64] `json:"odds_levels"`
	Table                       string                  `json:"table"`
	Tables                      analysis.Keyed[float64] `json:"tables"`
	ExpectedAttackerUnitsLost   float64                 `json:"expected_attacker_units_lost"`
	ExpectedAttackerFactorsLost float64                 `json:"expected_attacker_factors_lost"`
	ExpectedDefenderUnitsLost   float64                 `json:"expected_defender_units_lost"`
	ExpectedDefenderFactorsLost float64                 `json:"expected_defender_factors_lost"`
	Method                      string                  `json:"method"` // exact, or monte-carlo over the path budget
}

// HexForce is the part of a front's force that attacks one hex.
type HexForce struct {
	Target   string   `json:"target"`
	Units    []string `json:"units"`
	Value    float64  `json:"value"`              // what taking the hex is worth
	Requires []string `json:"requires,omitempty"` // attacked only once these are taken; its figures are if attacked
	*HexFigures
}

// Change is what adding or dropping one unit does to the recommended
// force.
type Change struct {
	Unit           string  `json:"unit"`
	Action         string  `json:"action"` // add or drop
	HexTaken       float64 `json:"hex_taken"`
	HexTakenChange float64 `json:"hex_taken_change"`
	CostChange     float64 `json:"cost_change"`
	// OverCap: adding the unit goes past plan.max_units.
	OverCap bool `json:"over_max_units,omitempty"`
	// NoAttack: dropping the unit leaves no land unit to attack.
	NoAttack bool `json:"no_attack,omitempty"`
}
