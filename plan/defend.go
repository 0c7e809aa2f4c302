package plan

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// Defence is the answer to a defender's plan (plan.side: defender,
// docs/planner.md, The defender's question). Its top-level keys are the
// answer under the first table; Plans holds the answer under every table
// the plan file names.
type Defence struct {
	*DefencePlan
	Plans []*DefencePlan `json:"plans"`
}

// DefencePlan is the defender's answer under one CRT.
type DefencePlan struct {
	Side string `json:"side"` // "defender"
	CRT  string `json:"crt"`
	Cost string `json:"cost_measure"`
	// Target is the P(hex held) wanted; MaxTaken is 1 - Target, the most
	// the attacker's best response may take the hex with.
	Target   *float64 `json:"target"`
	MaxTaken *float64 `json:"max_hex_taken"`
	// Attacker says how the attacker answers each reserve set:
	// "best-response" (the subset of attacker.available most likely to
	// take the hex) or "fixed" (the units listed under attacker.units).
	Attacker    string     `json:"attacker"`
	Recommended *Reserve   `json:"recommended"`
	Unreached   string     `json:"unreached,omitempty"`
	Frontier    []*Reserve `json:"frontier"`
	// ReserveSets are the subsets of defender.available weighed (within
	// plan.max_units and the stacking limit); DistinctDefences the
	// defending stacks among them, each answered once; OverStacking the
	// subsets skipped for breaking the stacking limit (AsA 3.4).
	ReserveSets      int `json:"reserve_sets"`
	DistinctDefences int `json:"distinct_defences"`
	OverStacking     int `json:"over_stacking_limit"`
	// AttackerCombats are the combats weighed for the attacker's best
	// responses, summed over the distinct defences.
	AttackerCombats int      `json:"attacker_combats"`
	Warnings        []string `json:"warnings"`
}

// Reserve is a set of reserves the defender may add, with the attacker's
// best response to it.
type Reserve struct {
	Units            []string `json:"units"` // ids of the reserves added
	Cost             float64  `json:"cost"`
	CommittedFactors float64  `json:"committed_factors"`
	CommittedUnits   int      `json:"committed_units"`
	BuildPoints      float64  `json:"build_points"`
	HexTaken         float64  `json:"hex_taken"` // by the attacker's best response
	HexHeld          float64  `json:"hex_held"`  // 1 - HexTaken
	// Shortfall is the target less P(hex held), for reserve sets cheaper
	// than the recommendation.
	Shortfall *float64 `json:"shortfall,omitempty"`
	// Response is the attacker's best response and its figures; nil when
	// no force the attacker may send can take the hex.
	Response *Force `json:"response"`
}

// Defend answers a defender's plan: for every subset of defender.available
// (within plan.max_units and, under the stacking option, the stacking
// limit), the attacker's best response — the force from attacker.available
// that takes the hex with the highest chance, found by Plan — or the fixed
// attacker's chance; the frontier of P(hex held) against the reserves'
// cost; and the cheapest reserves holding the hex with at least the
// target chance. It does no I/O. cfg.Target, when > 0, is the P(hex held)
// wanted; cfg.MaxForces bounds the reserve sets times the attacker's
// subsets, checked before anything is weighed.
func Defend(ctx context.Context, s *scenario.Scenario, cfg Config) (*Defence, error) {
	if !s.IsPlan() || s.Plan.Side != scenario.DefenderSide {
		return nil, fmt.Errorf("%s: not a defender's plan: give plan.side: defender and the reserves under defender.available (docs/scenario-format.md, Plans)", s.File)
	}
	cfg, target, err := cfg.settled(s)
	if err != nil {
		return nil, err
	}
	if target > 1 {
		return nil, fmt.Errorf("%s: target %v: the chance of holding the hex is at most 1", s.File, target)
	}
	d := &defender{ctx: ctx, s: s, cfg: cfg, reserves: s.Defender.Available, fixed: len(s.Attacker.Available) == 0 && len(s.Attacker.SupportAvailable) == 0}
	if err := d.checkSize(); err != nil {
		return nil, err
	}
	if err := d.weighAll(); err != nil {
		return nil, err
	}
	res := &Defence{}
	for k := range cfg.Tables {
		res.Plans = append(res.Plans, d.answer(k, target))
	}
	res.DefencePlan = res.Plans[0]
	return res, nil
}

// Chances within chanceTol and costs within reserveCostTol count as equal,
// as on the attack planner's frontier (docs/planner.md), so that sums in a
// different order never split a tie. They are the defender's own, so that
// this file does not lean on the attack planner's internals.
const (
	chanceTol      = 1e-12
	reserveCostTol = 1e-9
)

func within(a, b, tol float64) bool { return a-b <= tol && b-a <= tol }

// defender weighs a defender's plan.
type defender struct {
	ctx      context.Context
	s        *scenario.Scenario
	cfg      Config
	reserves []scenario.Unit
	fixed    bool // the attacker's force is attacker.units
	sets     []reserveSet
	defences []*defence // distinct defending stacks, in the order first met
	stacked  int        // subsets over the stacking limit
}

// reserveSet is one subset of the reserves the defender may add.
type reserveSet struct {
	mask    uint32 // bit i: reserve i is added
	defence int    // index into defender.defences
}

// defence is a distinct defending stack and the attacker's best response
// to it under each table.
type defence struct {
	units    []int     // reserve indices of the first subset met with this stack
	taken    []float64 // by table: the best response's P(hex taken)
	response []*Force  // by table
	combats  int
	warnings []string
}

// checkSize bounds the work before anything is allocated: at most
// scenario.MaxReserves reserves, and the reserve subsets times the
// attacker's subsets within cfg.MaxForces.
func (d *defender) checkSize() error {
	n := len(d.reserves)
	if n == 0 || n > scenario.MaxReserves {
		return fmt.Errorf("%s: %d reserves under defender.available: want 1 to %d", d.s.File, n, scenario.MaxReserves)
	}
	attacker := len(d.s.Attacker.Available) + len(d.s.Attacker.SupportAvailable)
	work := math.Ldexp(1, n+attacker)
	if work > d.cfg.MaxForces {
		return fmt.Errorf("%s: %w: %d reserves and %d units and support the attacker may send make %.0f pairs of reserve set and attacking force, over the limit of %.0f; cap plan.max_units, list fewer reserves or attackers, or raise the limit (--max-forces; max_forces= over HTTP)",
			d.s.File, ErrTooLarge, n, attacker, work, d.cfg.MaxForces)
	}
	return nil
}

// maxUnits is the most reserves a set may add.
func (d *defender) maxUnits() int {
	if m := d.s.Plan.MaxUnits; m > 0 {
		return m
	}
	return len(d.reserves)
}

// weighAll answers every reserve set, each distinct defending stack once:
// interchangeable reserves (the same combat attributes) make the same
// stack whichever of them is added.
func (d *defender) weighAll() error {
	n := len(d.reserves)
	byKey := map[string]int{}
	planned := uint64(1) << n
	for mask := uint32(0); mask < 1<<n; mask++ {
		if d.cfg.Progress != nil {
			d.cfg.Progress(uint64(mask), planned)
		}
		if bits.OnesCount32(mask) > d.maxUnits() {
			continue
		}
		idx := indices(mask)
		units := d.stack(idx)
		if d.s.Has(scenario.Stacking) && !scenario.StackWithinLimit(units) {
			d.stacked++
			continue
		}
		key := stackKey(units)
		k, ok := byKey[key]
		if !ok {
			df, err := d.weigh(units, idx)
			if err != nil {
				return err
			}
			k = len(d.defences)
			byKey[key] = k
			d.defences = append(d.defences, df)
		}
		d.sets = append(d.sets, reserveSet{mask: mask, defence: k})
	}
	if d.cfg.Progress != nil {
		d.cfg.Progress(planned, planned)
	}
	return nil
}

// indices lists the reserves a mask adds, in listed order.
func indices(mask uint32) []int {
	var out []int
	for m := mask; m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros32(m))
	}
	return out
}

// stack is the defending stack with the reserves idx added after the
// defender's units.
func (d *defender) stack(idx []int) []scenario.Unit {
	units := slices.Clone(d.s.Defender.Units)
	for _, i := range idx {
		r := &d.reserves[i]
		u := r.Combatant()
		u.Name, u.Line = r.ID, r.Line
		units = append(units, u)
	}
	return units
}

// stackKey names a defending stack by what fights: two stacks with the
// same key are the same combat for any attacker.
func stackKey(units []scenario.Unit) string {
	keys := make([]string, len(units))
	for i := range units {
		keys[i] = fmt.Sprintf("%+v", units[i].Combatant())
	}
	slices.Sort(keys)
	return strings.Join(keys, "\n")
}

// DefendedScenario is the scenario s with the defending stack units: the
// defender's reserves are no longer a choice. The attacker's side, and the
// plan block when the attacker chooses its force, are kept, so that Plan
// finds the attacker's best response to the stack.
func DefendedScenario(s *scenario.Scenario, units []scenario.Unit) *scenario.Scenario {
	t := *s
	t.Defender.Units = units
	t.Defender.Available = nil
	if len(s.Attacker.Available) == 0 && len(s.Attacker.SupportAvailable) == 0 {
		t.Plan = nil
		return &t
	}
	// The attacker answers with the force most likely to take the hex;
	// among equally likely forces, the one committing fewest factors.
	t.Plan = &scenario.Plan{Side: scenario.AttackerSide, Cost: scenario.CommittedFactors, CRTs: s.Plan.CRTs, CRTPos: s.Plan.CRTPos}
	return &t
}

// weigh finds the attacker's best response to a defending stack under
// every table.
func (d *defender) weigh(units []scenario.Unit, idx []int) (*defence, error) {
	df := &defence{units: idx}
	t := DefendedScenario(d.s, units)
	if d.fixed {
		for _, tb := range d.cfg.Tables {
			f, err := Figures(d.ctx, t, tb, d.cfg.Air, analysis.Request{Engine: analysis.Auto, Budget: d.cfg.Budget, Sample: d.cfg.Sample})
			if err != nil {
				return nil, fmt.Errorf("the reserves %v: %w", d.ids(idx), err)
			}
			df.combats++
			if f.Method != sim.MethodExact {
				df.warnings = append(df.warnings, "the combat's dice tree is over the path budget (--budget) and was sampled by Monte Carlo: its figures are estimates with intervals")
			}
			df.taken = append(df.taken, f.HexTaken.P)
			df.response = append(df.response, &Force{Units: []string{}, HexFigures: f})
		}
		return df, nil
	}
	cfg := d.cfg
	cfg.Target, cfg.Progress = 0, nil
	res, err := Plan(d.ctx, t, cfg)
	if err != nil {
		return nil, fmt.Errorf("the reserves %v: %w", d.ids(idx), err)
	}
	for _, tp := range res.Plans {
		df.combats += tp.DistinctCombats
		df.warnings = append(df.warnings, tp.Warnings...)
		best := -1
		for i, f := range tp.Frontier {
			if best < 0 || f.HexTaken.P > tp.Frontier[best].HexTaken.P+chanceTol {
				best = i
			}
		}
		if best < 0 {
			df.taken = append(df.taken, 0)
			df.response = append(df.response, nil)
			continue
		}
		df.taken = append(df.taken, tp.Frontier[best].HexTaken.P)
		df.response = append(df.response, tp.Frontier[best])
	}
	return df, nil
}

// ids names reserves.
func (d *defender) ids(idx []int) []string {
	out := make([]string, len(idx))
	for i, r := range idx {
		out[i] = d.reserves[r].ID
	}
	return out
}

// costOf is what the reserves idx cost under the plan's measure.
func (d *defender) costOf(idx []int) (cost, factors, bp float64) {
	for _, i := range idx {
		factors += d.reserves[i].Factors
		bp += d.reserves[i].Cost
	}
	switch d.s.Plan.Cost {
	case scenario.CommittedUnits:
		return float64(len(idx)), factors, bp
	case scenario.CommittedBuildPoints:
		return bp, factors, bp
	}
	return factors, factors, bp
}

// answer is the frontier and the recommendation under table k.
func (d *defender) answer(k int, target float64) *DefencePlan {
	dp := &DefencePlan{Side: string(scenario.DefenderSide), CRT: d.cfg.Tables[k].Name, Cost: string(d.s.Plan.Cost), Attacker: "best-response",
		ReserveSets: len(d.sets), DistinctDefences: len(d.defences), OverStacking: d.stacked, Frontier: []*Reserve{}, Warnings: []string{}}
	if d.fixed {
		dp.Attacker = "fixed"
	}
	seen := map[string]bool{}
	for _, df := range d.defences {
		dp.AttackerCombats += df.combats
		for _, w := range df.warnings {
			if !seen[w] {
				seen[w] = true
				dp.Warnings = append(dp.Warnings, w)
			}
		}
	}
	type point struct {
		idx     []int
		cost    float64
		taken   float64
		defence int
	}
	points := make([]point, len(d.sets))
	for i, rs := range d.sets {
		idx := indices(rs.mask)
		c, _, _ := d.costOf(idx)
		points[i] = point{idx, c, d.defences[rs.defence].taken[k], rs.defence}
	}
	// Cheapest first; at one cost the reserves the attacker takes the hex
	// from least, then fewer units, then the earlier listed.
	sort.SliceStable(points, func(i, j int) bool {
		a, b := &points[i], &points[j]
		switch {
		case !within(a.cost, b.cost, reserveCostTol):
			return a.cost < b.cost
		case !within(a.taken, b.taken, chanceTol):
			return a.taken < b.taken
		case len(a.idx) != len(b.idx):
			return len(a.idx) < len(b.idx)
		}
		return slices.Compare(a.idx, b.idx) < 0
	})
	reserve := func(p point) *Reserve {
		c, f, bp := d.costOf(p.idx)
		return &Reserve{Units: d.ids(p.idx), Cost: c, CommittedFactors: f, CommittedUnits: len(p.idx), BuildPoints: bp,
			HexTaken: p.taken, HexHeld: 1 - p.taken, Response: d.defences[p.defence].response[k]}
	}
	// The frontier: P(hex held) rises strictly along it as the cost does.
	best := math.Inf(1)
	for _, p := range points {
		if p.taken < best-chanceTol {
			best = p.taken
			dp.Frontier = append(dp.Frontier, reserve(p))
		}
	}
	if target <= 0 {
		return dp
	}
	t, most := target, 1-target
	dp.Target, dp.MaxTaken = &t, &most
	for i, r := range dp.Frontier {
		if r.HexTaken <= most+chanceTol {
			dp.Recommended = r
			for _, c := range dp.Frontier[:i] {
				short := target - c.HexHeld
				c.Shortfall = &short
			}
			return dp
		}
	}
	top := dp.Frontier[len(dp.Frontier)-1]
	dp.Unreached = fmt.Sprintf("no reserves hold the hex with P >= %.4g under %s: the attacker's best response still takes it with %.4g against the best reserves (%s)",
		target, dp.CRT, top.HexTaken, strings.Join(top.Units, ", "))
	return dp
}
