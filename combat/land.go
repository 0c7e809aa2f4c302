package combat

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// Combat is a land combat compiled for resolution: everything that does not
// depend on the dice is decided here, once, so Resolve only reads dice and
// indexes tables. A Combat is immutable after Compile and safe to share
// between goroutines.
type Combat struct {
	Scenario *scenario.Scenario
	CRT      *crt.Table
	// State is the combat as it stands when every pre-combat random step
	// (ground strikes, AA fire at the ground support) has done nothing: for
	// a plain combat, the combat.
	State
	// AttOrder and DefOrder list each side's units in the combat (indices
	// into the scenario's lists) in the order they are lost.
	AttOrder, DefOrder []int
	Notional           float64   // the notional defending unit of an invasion or paradrop (docs/rules.md §4), after its modifiers
	Outcomes           []Outcome // every outcome settled while compiling
	Reachable          []bool    // by outcome: whether Resolve can return it
	Steps              []Step    // the working, for --explain

	twoDice     bool
	wild        bool
	kampfgruppe bool           // the option, read by every settling
	flat        *lazyFlat      // the whole dice tree as one table, built when first sampled
	factored    *lazyFactored  // the tree in two levels, when too large for one table
	weighed     *lazyWeights   // the pre-combat states' weights (preWeights), worked out once
	air         *crt.AirTables // loaded air tables for AA fire at the ground support, or nil
	pre         *preCombat     // pre-combat random steps, or nil

	// Scratch while compiling (after the fields trials read, which it
	// would otherwise push onto other cache lines).
	intern   map[Outcome]int32 // Outcomes by value once there are more than internScan
	settled  []settled         // rolled results settled in the state being compiled
	grids    []grid            // the grids read in the state being compiled
	gridBuf  [4]grid           // room for them: two tables at two odds levels
	factors  []float64         // each unit's factor in the state being compiled
	quiet    bool              // compiling a state other than the base: no working
	explain  bool              // write the working (Steps)
	faceDown []bool            // defenders face-down in the state being compiled
	// notionalDown: the notional unit was ground-struck in the state being
	// compiled (docs/rules.md §4, AsA 3.11).
	notionalDown bool
	cur          preResult
}

// State is a combat after its pre-combat random steps: the totals, the
// fractional-odds step and the variants at each final odds level.
type State struct {
	RawAttack  float64      // attack total before rounding
	RawDefence float64      // defence total before rounding
	Attack     float64      // totals the odds are computed from
	Defence    float64      //
	Automatic  bool         // a zero defence: an automatic result, no roll
	Fraction   crt.Fraction // the fractional-odds step (Chance 0 when off or exact)
	AtOdds     []AtOdds     // [0] at the base odds; [1] after a successful fractional-odds roll
}

// AtOdds is the combat at one final odds level: the table used, the
// modifiers, and the outcome of every dice total.
type AtOdds struct {
	Odds     string // the final odds, e.g. "6:1"
	Level    int    // CRT odds level index read
	Table    crt.Kind
	Chooser  Chooser       // who picked the table
	Reason   string        // the docs/rules.md §2.3 clause
	Terms    []crt.Term    // the other modifiers on the chosen table
	Modifier int           // their sum
	Compare  [2]TableStats // what each table would give, by crt.Kind; a forced table's alone (the other is not read)
	auto     int32         // outcome of an automatic result, or -1
	// mods is, by crt.Kind, the other modifiers' sum on each table read
	// (Reads); it fills auto's padding, so AtOdds is no larger.
	mods  [2]int16
	cells []int32 // outcome by dice total; under wild results by attacker*stride + defender
}

// TableStats is what a table gives at one odds level, used to choose it.
type TableStats struct {
	HexTaken     float64
	Breakthrough float64
	AttackerLost float64 // expected attacking units lost
}

// stride is the width of the dice-total index: totals run 1..12.
const stride = 13

// Compile validates a land scenario against a CRT and compiles it. air are
// the air tables the scenario names for AA fire at its ground support; nil
// when it names the built-in ones (or has no such fire). Compile does no
// I/O: the caller loads the tables.
func Compile(s *scenario.Scenario, t *crt.Table, air *crt.AirTables) (*Combat, error) {
	return CompileWith(s, t, air, Options{Explain: true})
}

// Options tune what Compile does beyond the rules.
type Options struct {
	// Explain writes the working into Steps. It costs most of a plain
	// combat's compile time, so answers that show no working (a planner's
	// thousands of combats, an API call) leave it off.
	Explain bool
}

// CompileWith is Compile with options.
func CompileWith(s *scenario.Scenario, t *crt.Table, air *crt.AirTables, opts Options) (*Combat, error) {
	switch s.Kind {
	case scenario.Land, scenario.Invasion, scenario.Paradrop:
	default:
		return nil, fmt.Errorf("%s: %s scenarios are not supported yet", s.File, s.Kind)
	}
	if s.IsOperation() {
		return nil, fmt.Errorf("%s: an operation (several combats, each with its force) is run target by target by wifodds run, not compiled as one combat", s.File)
	}
	if s.IsPlan() {
		return nil, fmt.Errorf("%s: a plan file (it lists units the attack may add) is weighed by wifodds plan, not compiled as one combat", s.File)
	}
	for i := range s.Attacker.Units {
		if u := &s.Attacker.Units[i]; !inCombat(u) && !s.Has(scenario.Artillery) {
			return nil, fmt.Errorf("%s: %s has role %s, which needs the artillery option", s.File, u.Label(), u.Role)
		}
	}
	for i := range s.Defender.Units {
		if u := &s.Defender.Units[i]; !inCombat(u) && !s.Has(scenario.Artillery) {
			return nil, fmt.Errorf("%s: %s has role %s, which needs the artillery option", s.File, u.Label(), u.Role)
		}
	}
	if len(s.Attacker.NavalStrikes) > 0 && !s.Has(scenario.NavalGroundStrike) {
		return nil, fmt.Errorf("%s: naval_strikes need the naval-ground-strike option", s.File)
	}
	if s.ForcesAssault() && s.Table == "blitz" {
		return nil, fmt.Errorf("%s: table: blitz is not allowed: %s forces the Assault table (docs/rules.md §2.3 (a))", s.File, forcingTerrain(&s.Hex))
	}
	if err := t.Modifiers.Covers(s.Hex.Weather, s.Hex.Terrain); err != nil {
		return nil, fmt.Errorf("%s: %w (%s)", s.File, err, t.File)
	}
	c := &Combat{Scenario: s, CRT: t, air: air, explain: opts.Explain, twoDice: t.Dice == 2, wild: s.Has(scenario.WildResults), kampfgruppe: s.Has(scenario.Kampfgruppe),
		// Room for a plain combat's outcomes and settled results, so
		// compiling one grows no slice.
		Outcomes: make([]Outcome, 0, 32), settled: make([]settled, 0, 32)}
	if c.working() {
		c.stepf(c.tableSection(), "CRT %s (%s), %d d6, rows %d..%d", t.Name, t.Title, t.Dice, t.MinRow, t.MaxRow)
	}
	c.lossOrders()
	c.faceDown = make([]bool, len(s.Defender.Units))
	for i := range s.Defender.Units {
		c.faceDown[i] = s.Defender.Units[i].FaceDown
	}
	if err := c.planPreCombat(); err != nil {
		return nil, err
	}
	if c.pre != nil {
		if err := c.compilePreCombat(); err != nil {
			return nil, err
		}
	} else {
		c.compileState()
	}
	if c.RawAttack == 0 {
		// With nothing attacking, a zero defence would read as an
		// automatic success; there is no combat to resolve.
		return nil, fmt.Errorf("%s:%d: attacker: the attackers bring no factors (attack total 0); a combat needs attacking factors", s.File, s.Attacker.Line)
	}
	c.finish()
	return c, nil
}

// compileState compiles c.State from the scratch state (c.faceDown, c.cur):
// totals, odds, modifiers, table choice and outcomes.
func (c *Combat) compileState() {
	t := c.CRT
	c.State = State{}
	c.settled, c.grids = c.settled[:0], c.gridBuf[:0]
	c.totals()
	if c.Defence <= 0 {
		c.Automatic = true
		c.step("defence total 0: automatic result, */2S on Assault, */2B on Blitz; no roll", "rules §1, WiF errata 11.16.5")
		c.AtOdds = []AtOdds{c.atOdds("infinite", len(t.Levels)-1, true)}
		return
	}
	if sides := c.fractionalSides(); sides > 0 {
		c.Fraction = crt.Fractional(c.Attack, c.Defence, t.Ratios(), sides)
	}
	if c.Fraction.Chance > 0 {
		f := c.Fraction
		if c.working() {
			c.stepf("rules §1, AsA 3.15", "fractional odds: %s:%s is %s and %d/%d; a d%d of %d or less raises the odds to %s (probability %d/%d)",
				num(c.Attack), num(c.Defence), f.Low, f.Chance, f.Sides, f.Sides, f.Chance, f.High, f.Chance, f.Sides)
		}
		lo, hi := t.LevelForRatio(f.Low), t.LevelForRatio(f.High)
		three := crt.Ratio{Num: 3, Den: 1}
		one := crt.Ratio{Num: 1, Den: 1}
		c.AtOdds = []AtOdds{c.atOddsAt(f.Low.String(), lo, !f.Low.Less(three), f.Low.Less(one)), c.atOddsAt(f.High.String(), hi, !f.High.Less(three), f.High.Less(one))}
	} else {
		lv := t.LevelFor(c.Attack, c.Defence)
		if c.working() {
			c.stepf("rules §1", "odds %s:%s = %.3g, read in the %s level", num(c.Attack), num(c.Defence), c.Attack/c.Defence, t.Levels[lv])
		}
		c.AtOdds = []AtOdds{c.atOddsAt(t.Levels[lv].String(), lv, crt.Ratio{Num: 3, Den: 1}.AtMost(c.Attack, c.Defence), !crt.Ratio{Num: 1, Den: 1}.AtMost(c.Attack, c.Defence))}
	}
}

// fractionalSides is the die of the fractional-odds option, or 0.
func (c *Combat) fractionalSides() int {
	switch {
	case c.Scenario.Has(scenario.FractionalOdds):
		return 6
	case c.Scenario.Has(scenario.FractionalOddsD10):
		return 10
	}
	return 0
}

// finish marks the reachable outcomes and readies the flat table, which
// is built the first time Monte Carlo asks for it: an exact answer needs
// none (Tabulate, or enumeration).
func (c *Combat) finish() {
	c.markReachable()
	l := &lazyTables{}
	c.flat, c.factored, c.weighed = &l.flat, &l.factored, &l.weighed
}

// lazyTables holds a combat's lazily built tables, allocated together.
type lazyTables struct {
	flat     lazyFlat
	factored lazyFactored
	weighed  lazyWeights
}

// lazyWeights is preWeights of a combat's pre-combat steps, worked out
// once on first use: Tabulate, which choosing an engine (sim.Fits) and the
// exact answer (sim.Exact) both call, and Factored read the same weights.
type lazyWeights struct {
	once    sync.Once
	weights []uint64
	size    uint64
	ok      bool
}

// lazyFactored is a combat's two-level table, built once on first use.
type lazyFactored struct {
	once sync.Once
	f    *sim.Factored
}

// lazyFlat is a combat's flat table, built once on first use; copies of
// the combat share it.
type lazyFlat struct {
	once sync.Once
	f    *sim.Flat
}

// markReachable records which settled outcomes the chosen tables can give;
// the others were settled only to compare tables.
func (c *Combat) markReachable() {
	c.Reachable = make([]bool, len(c.Outcomes))
	lo, hi := c.diceRange()
	states := []State{c.State}
	if c.pre != nil {
		states = c.pre.states
	}
	for _, st := range states {
		c.markAtOdds(st.AtOdds, lo, hi)
	}
}

func (c *Combat) markAtOdds(vs []AtOdds, lo, hi int) {
	for i := range vs {
		v := &vs[i]
		if v.auto >= 0 {
			c.Reachable[v.auto] = true
			continue
		}
		for a := lo; a <= hi; a++ {
			if !c.wild {
				c.Reachable[v.cells[a]] = true
				continue
			}
			for b := lo; b <= hi; b++ {
				c.Reachable[v.cells[a*stride+b]] = true
			}
		}
	}
}

func (c *Combat) step(text, rule string) {
	if c.working() {
		c.Steps = append(c.Steps, Step{text, rule})
	}
}

// stepf adds a step of the working; callers guard it with working, so its
// arguments are not even formatted when no working is wanted.
func (c *Combat) stepf(rule, format string, args ...any) {
	c.step(fmt.Sprintf(format, args...), rule)
}

// working reports whether the working is being written: asked for, and
// for the base state (the one the working describes).
func (c *Combat) working() bool { return c.explain && !c.quiet }

func forcingTerrain(h *scenario.Hex) string {
	switch {
	case h.City:
		return "a city hex"
	case h.Fortress:
		return "a fortress hex"
	}
	return "an attack through a fortified hexside"
}

// totals computes both sides' totals (docs/rules.md §1 and 3).
func (c *Combat) totals() {
	s, t := c.Scenario, c.CRT
	na, nd := len(s.Attacker.Units), len(s.Defender.Units)
	if cap(c.factors) < na+nd {
		c.factors = make([]float64, na+nd)
	}
	att, steps := unitFactors(c.factors[:na:na], s.Attacker.Units, s.Defender.Units, false, "attacker", nil, c.awaw(), c.working())
	c.addSteps(steps)
	def, steps := unitFactors(c.factors[na:na+nd:na+nd], s.Defender.Units, s.Attacker.Units, true, "defender", c.faceDown, c.awaw(), c.working())
	c.addSteps(steps)
	// ART bombarding (the artillery option) is not in the combat: a
	// ground strike adds nothing, support adds its factors unmodified after
	// every halving (AsA 3.2.3).
	attSupport := c.artilleryApart(s.Attacker.Units, att, "attacker")
	defSupport := c.artilleryApart(s.Defender.Units, def, "defender")
	a := sum(att)
	if s.Kind == scenario.Invasion {
		a = c.invadingFactors(att)
	}
	if s.Hex.AcrossRiver {
		a /= 2
		if c.working() {
			c.stepf("rules §3", "attacking across a river: attackers halved to %s", num(a))
		}
	}
	if s.Hex.Fortified && s.Kind == scenario.Paradrop {
		c.step("paradropping units are never halved by a fortification", "rules §3, AfA 3.6")
	} else if s.Hex.Fortified {
		a /= 2
		if c.working() {
			c.stepf("rules §3, AfA 3.6", "attacking through a fortified hexside: attackers halved to %s", num(a))
		}
	}
	if gs := s.Attacker.GroundSupport; gs > 0 {
		a += gs
		if c.working() {
			c.stepf("rules §3", "attacker ground support +%s = %s", num(gs), num(a))
		}
	}
	if len(s.Attacker.Aircraft) > 0 {
		a += c.cur.support
		if c.working() {
			c.stepf("rules §3, AsA 3.2.2", "ground-support aircraft +%s tactical factors = %s", num(c.cur.support), num(a))
		}
	}
	if attSupport > 0 {
		a += attSupport
		if c.working() {
			c.stepf("rules §3, AsA 3.2.3", "artillery support +%s, not halved = %s", num(attSupport), num(a))
		}
	}
	if sb := s.Attacker.ShoreBombardment; sb > 0 {
		a += sb
		if c.working() {
			c.stepf("rules §3", "shore bombardment +%s = %s", num(sb), num(a))
		}
	}
	d := sum(def)
	if s.Kind != scenario.Land {
		c.notional()
		d += c.Notional
		if c.working() {
			c.stepf("rules §4, AsA 3.11", "defence: real units %s + notional unit %s = %s", num(sum(def)), num(c.Notional), num(d))
		}
	}
	if m := s.Hex.Multiplier(); m != 1 {
		d *= m
		if c.working() {
			c.stepf("rules §3", "%s multiplies the defence by %s: %s", s.Hex.Terrain, num(m), num(d))
		}
	}
	if gs := s.Defender.GroundSupport; gs > 0 {
		d += gs
		if c.working() {
			c.stepf("rules §3", "defender ground support +%s = %s", num(gs), num(d))
		}
	}
	if defSupport > 0 {
		d += defSupport
		if c.working() {
			c.stepf("rules §3, AsA 3.2.3", "defensive artillery support +%s = %s", num(defSupport), num(d))
		}
	}
	c.RawAttack, c.RawDefence = a, d
	c.Attack, c.Defence = t.Rounding.Round(a), t.Rounding.Round(d)
	if t.Rounding == crt.RoundNearest {
		if c.working() {
			c.stepf("rules §1", "totals rounded after all halving (0.5 up): attack %s -> %s, defence %s -> %s", num(a), num(c.Attack), num(d), num(c.Defence))
		}
	} else {
		if c.working() {
			c.stepf("rules §1, AfA 8.1c", "totals keep their fractions: attack %s, defence %s", num(a), num(d))
		}
	}
}

func (c *Combat) addSteps(steps []Step) {
	for _, st := range steps {
		c.step(st.Text, st.Rule)
	}
}

// artilleryApart takes ART units that bombard instead of fighting out of a
// side's factors (setting them to 0) and returns the support they add.
func (c *Combat) artilleryApart(us []scenario.Unit, fs []float64, who string) float64 {
	support := 0.0
	for i := range us {
		switch us[i].Role {
		case scenario.RoleStrike:
			fs[i] = 0
			if c.working() {
				c.stepf("rules §3, AsA 3.2.3", "%s %s makes a ground strike instead of joining the combat", who, us[i].Label())
			}
		case scenario.RoleSupport:
			fs[i] = 0
			support += us[i].Factors
			if c.working() {
				c.stepf("rules §3, AsA 3.2.3", "%s %s bombards as ground support: %s, unmodified by stacking, weather, rivers or fortifications", who, us[i].Label(), num(us[i].Factors))
			}
		}
	}
	return support
}

// inCombat reports a unit that fights in the combat: not an ART unit
// bombarding under the artillery option.
func inCombat(u *scenario.Unit) bool { return u.Role == "" || u.Role == scenario.RoleCombat }

func sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}

// lossOrders fixes which units each side loses first: the owner's default
// policy loses the unit whose loss costs the fewest combat factors (a
// corps a Kampfgruppe division replaces costs its factors less the
// division's, lossCost), ties by fewest build points where given, then
// input order (docs/rules.md §2, §3). Under the winter "attack as mud"
// election the attacker's first loss must be a ski, white-print or
// Scandinavian unit (AfA 3.11).
func (c *Combat) lossOrders() {
	att, def := c.Scenario.Attacker.Units, c.Scenario.Defender.Units
	orders := make([]int, len(att)+len(def))
	c.AttOrder = cheapestFirst(orders[:0:len(att)], att, func(u *scenario.Unit) float64 { return c.lossCost(u, false) })
	c.DefOrder = cheapestFirst(orders[len(att):len(att)], def, func(u *scenario.Unit) float64 { return c.lossCost(u, true) })
	if c.Scenario.Attacker.AttackAsMud {
		us := c.Scenario.Attacker.Units
		for k, i := range c.AttOrder {
			if us[i].ColdWeather() {
				copy(c.AttOrder[1:k+1], c.AttOrder[:k])
				c.AttOrder[0] = i
				break
			}
		}
		if c.working() {
			c.stepf("rules §2.1, AfA 3.11", "attack as if in mud: the first attacking loss is %s", us[c.AttOrder[0]].Label())
		}
	}
}

// replaced reports a unit whose loss Kampfgruppe turns into a reduction
// (AsA 3.1.1, docs/rules.md §3): a corps or army with a division available;
// a defending one must be able to retreat, or it is destroyed after all.
func (c *Combat) replaced(u *scenario.Unit, defending bool) bool {
	return c.kampfgruppe && u.IsCorps() && u.DivisionAvailable && (!defending || c.Scenario.Defender.CanRetreat)
}

// lossCost is the combat factors a unit's loss costs its owner: its
// printed factors, less the replacing division's when Kampfgruppe
// replaces it (docs/rules.md §3).
func (c *Combat) lossCost(u *scenario.Unit, defending bool) float64 {
	if c.replaced(u, defending) {
		return u.Factors - u.DivisionFactors
	}
	return u.Factors
}

// cheapestFirst appends the units in combat to order, cheapest loss (by
// cost) first, then fewest build points where given, then as listed.
func cheapestFirst(order []int, us []scenario.Unit, cost func(*scenario.Unit) float64) []int {
	for i := range us {
		if inCombat(&us[i]) {
			order = append(order, i)
		}
	}
	bp := func(u *scenario.Unit) float64 {
		if u.BP > 0 {
			return u.BP
		}
		return 1e9
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ua, ub := &us[a], &us[b]
		if ca, cb := cost(ua), cost(ub); ca != cb {
			return cmp.Compare(ca, cb)
		}
		return cmp.Compare(bp(ua), bp(ub))
	})
	return order
}

// armCount counts ARM for the choice of table (docs/rules.md §2.3): a corps or
// army 1, an ARM division ½, and for the defender each AT and AA ½.
func armCount(us []scenario.Unit, defending bool) float64 {
	n := 0.0
	for i := range us {
		u := &us[i]
		switch {
		case u.MechNegated:
			// Negated armour acts as infantry (AWAW 10.32).
		case u.Type == scenario.ARM && u.IsCorps():
			n++
		case u.Type == scenario.ARM:
			n += 0.5
		case defending && (u.Type == scenario.AT || u.Type == scenario.AA):
			n += 0.5
		}
	}
	return n
}

// blitzCount counts for the optional blitz modifier (docs/rules.md §2.1): a corps
// or army 2, a division or brigade 1, over ARM units only or over ARM, AT
// and AA units.
func blitzCount(us []scenario.Unit, antiArmour bool) int {
	n := 0
	for i := range us {
		u := &us[i]
		if u.Type == scenario.ARM && !u.MechNegated || antiArmour && (u.Type == scenario.AT || u.Type == scenario.AA) {
			if u.IsCorps() {
				n += 2
			} else {
				n++
			}
		}
	}
	return n
}

// situation gathers what the modifier schedule needs (docs/rules.md §2.1).
func (c *Combat) situation(k crt.Kind) crt.Situation {
	s := c.Scenario
	att, def := s.Attacker.Units, s.Defender.Units
	sit := crt.Situation{
		Table:              k,
		AttackerHQ:         s.Attacker.HQSupport,
		DefenderHQ:         s.Defender.HQSupport,
		Weather:            s.Hex.Weather,
		AttackAsMud:        s.Attacker.AttackAsMud,
		Terrain:            s.Hex.Terrain,
		AllJapanese:        true,
		BlitzOption:        s.Has(scenario.BlitzModifier),
		AttackerArmour:     blitzCount(att, false),
		DefenderArmour:     blitzCount(def, false),
		AttackerAntiArmour: blitzCount(att, true),
		DefenderAntiArmour: blitzCount(def, true),
		TerritorialOption:  s.Has(scenario.TerritorialModifiers),
		AllDefendersTerr:   true,
		AllAttackersTerr:   true,
		Extra:              s.Modifier,
		More:               c.awawTerms(),
	}
	// The attacking and defending units these modifiers read are those in
	// the combat: an ART bombarding from an adjacent hex adds factors as
	// ground support does, and like aircraft it is no attacking or
	// defending unit (docs/rules.md §8). With no such unit on a side (the
	// notional unit alone, or only bombardment) no "every unit is ..."
	// modifier applies: the notional unit is no territorial (§4).
	// Nation codes are upper case (scenario.LookupNation); a stack has few.
	nations := make([]string, 0, 4)
	attacking, defending := 0, 0
	for i := range att {
		if !inCombat(&att[i]) {
			continue
		}
		attacking++
		if !slices.Contains(nations, att[i].Nation) {
			nations = append(nations, att[i].Nation)
		}
		sit.AllJapanese = sit.AllJapanese && att[i].Japanese()
		sit.AllAttackersTerr = sit.AllAttackersTerr && att[i].IsTerritorial()
		sit.AnyAttackerTerr = sit.AnyAttackerTerr || att[i].IsTerritorial()
	}
	sit.Nationalities = len(nations)
	if c.notionalDown {
		sit.FaceDownDefenders++
	}
	for i := range def {
		if !inCombat(&def[i]) {
			continue
		}
		defending++
		if c.faceDown[i] {
			sit.FaceDownDefenders++
		}
		sit.AllDefendersTerr = sit.AllDefendersTerr && def[i].IsTerritorial()
		sit.AnyDefenderTerr = sit.AnyDefenderTerr || def[i].IsTerritorial()
	}
	sit.AllJapanese = sit.AllJapanese && attacking > 0
	sit.AllAttackersTerr = sit.AllAttackersTerr && attacking > 0
	sit.AllDefendersTerr = sit.AllDefendersTerr && defending > 0
	return sit
}
