package combat

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// maxPreStates bounds the pre-combat states compiled in advance.
const maxPreStates = 4096

// preCombat holds a combat's pre-combat random steps (docs/rules.md §3; dice in
// the order docs/scenario-format.md fixes): the fractional-odds die, artillery ground
// strikes, naval ground strikes, then AA fire at the ground-support
// aircraft. Each combination of their effects is a State compiled in
// advance, so a trial only rolls and looks one up.
type preCombat struct {
	fracSides   int         // the fractional-odds die is rolled first (0: no option)
	strikes     []float64   // factors of each ART making a ground strike, in list order
	ships       []float64   // shore bombardment factors of each ship making a naval ground strike
	targets     []int       // defending units in the combat face-up at the start, or notionalTarget
	strikeOrder []int       // positions in targets, in the order ground strikes turn them
	planes      []crt.Plane // ground-support aircraft in the order AA fire takes them
	air         *crt.AirTables
	aaFactors   int
	aaDice      int
	aaTable     int
	fullSupport float64

	// airOf[code] is the AA fire outcome (an index into airs) of the AA
	// dice whose rolls, less one, are the base-6 digits of code, least
	// significant first. Every roll sequence has an entry, so a lookup
	// cannot miss.
	airOf []int32
	airs  []airOutcome
	// states[mask*len(airs)+a] is the State for the face-up targets turned
	// face-down in mask and AA fire outcome a: dense, so no lookup misses.
	states []State
}

// d6s is how many d6 the pre-combat steps roll, every path all of them:
// a die per ground strike, per ship and face-up target, and per AA die.
func (p *preCombat) d6s() int { return len(p.strikes) + len(p.ships)*len(p.targets) + p.aaDice }

// airOutcome is what AA fire did to the ground support.
type airOutcome struct {
	hit, aborted int8
	support      float64
}

// notionalTarget stands in targets for the notional defending unit, which
// may be ground-struck when no real land unit is in the hex (docs/rules.md
// §4; AsA 3.11, 3.13).
const notionalTarget = -1

// maxAADice bounds the AA dice fired at ground support: each of the 6^k
// roll sequences is worked out in advance.
const maxAADice = 7

// preResult is what the pre-combat steps did, in the state being compiled.
type preResult struct {
	struck  int8
	support float64
	hit     int8
	aborted int8
}

// planPreCombat works out the pre-combat steps; c.pre stays nil when there
// are none.
func (c *Combat) planPreCombat() error {
	s := c.Scenario
	// Built on the stack and kept only when there are steps: most
	// combats have none.
	var p preCombat
	for i := range s.Attacker.Units {
		if u := &s.Attacker.Units[i]; u.Role == scenario.RoleStrike {
			p.strikes = append(p.strikes, u.Factors)
		}
	}
	for _, sh := range s.Attacker.NavalStrikes {
		p.ships = append(p.ships, sh.Factors)
	}
	for _, a := range s.Attacker.Aircraft {
		p.fullSupport += a.Tactical
	}
	c.cur = preResult{support: p.fullSupport}
	aa := 0.0
	for i := range s.Defender.Units {
		if u := &s.Defender.Units[i]; u.Type == scenario.AA && inCombat(u) {
			aa += u.Factors
		}
	}
	p.aaFactors = int(crt.RoundNearest.Round(aa))
	if len(s.Attacker.Aircraft) > 0 && p.aaFactors > 0 {
		air, err := c.airTables()
		if err != nil {
			return err
		}
		fire, err := air.Fire(p.aaFactors, len(s.Attacker.Aircraft))
		if err != nil {
			return fmt.Errorf("%s: %w", s.File, err)
		}
		if fire.Dice > maxAADice {
			return fmt.Errorf("%s: AA fire at the ground support rolls %d dice; at most %d are worked out", s.File, fire.Dice, maxAADice)
		}
		p.air, p.aaDice, p.aaTable = air, fire.Dice, fire.Table
		for _, a := range s.Attacker.Aircraft {
			p.planes = append(p.planes, crt.Plane{A2A: a.A2A, Factors: a.Tactical})
		}
		// AA fire takes the lowest air-to-air aircraft first; on ties the
		// owner loses the fewest tactical factors (docs/rules.md §5).
		slices.SortStableFunc(p.planes, func(a, b crt.Plane) int {
			if a.A2A != b.A2A {
				return cmp.Compare(a.A2A, b.A2A)
			}
			return cmp.Compare(a.Factors, b.Factors)
		})
	}
	if len(p.strikes) == 0 && len(p.ships) == 0 && p.aaDice == 0 {
		return nil
	}
	real := false
	for i := range s.Defender.Units {
		if u := &s.Defender.Units[i]; inCombat(u) {
			real = true
			if !u.FaceDown {
				p.targets = append(p.targets, i)
			}
		}
	}
	if !real && s.Kind != scenario.Land {
		// No real land unit in the hex: the notional unit is struck as if
		// it were one, for this combat only (AsA 3.11).
		p.targets = append(p.targets, notionalTarget)
	}
	if len(p.targets) > 12 {
		return fmt.Errorf("%s: ground strikes against %d face-up defending units: at most 12", s.File, len(p.targets))
	}
	p.strikeOrder = c.strikePriority(p.targets)
	p.fracSides = c.fractionalSides()
	kept := p
	c.pre = &kept
	return nil
}

// airTables are the tables AA fire at the ground support reads: those the
// caller loaded, or the built-in strategic tables when the scenario names
// them. A scenario that names a file the caller did not load is an error,
// never a silent switch to the built-in tables.
func (c *Combat) airTables() (*crt.AirTables, error) {
	s := c.Scenario
	if c.air != nil {
		return c.air, nil
	}
	if _, file := s.AirTablesFile(); !file {
		return crt.BuiltinAir("strategic")
	}
	return nil, fmt.Errorf("%s: air_tables: %s is not loaded; pass its tables to Compile", s.AirTablesPos, s.AirTables)
}

// strikePriority orders the targets of ground strikes: the attacker turns
// first the unit whose factor falls most when face-down (an unsupplied
// division or artillery unit falls to 1), then the first listed.
func (c *Combat) strikePriority(targets []int) []int {
	us := c.Scenario.Defender.Units
	drop := func(i int) float64 {
		if i == notionalTarget {
			return 0
		}
		u := &us[i]
		if !u.Supply && (u.IsArtillery() || !u.IsCorps()) {
			return u.Factors - 1
		}
		return 0
	}
	order := make([]int, len(targets))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, b int) bool { return drop(targets[order[a]]) > drop(targets[order[b]]) })
	return order
}

// compilePreCombat compiles a State for every combination of pre-combat
// effects, the base one (nothing happened) with the working shown. The AA
// fire outcomes are those the procedure returns for some roll of the AA
// dice, found by running it on every roll sequence, so each outcome a
// trial can meet has its State.
func (c *Combat) compilePreCombat() error {
	p, s := c.pre, c.Scenario
	c.explainPreCombat()
	p.airs = []airOutcome{{0, 0, p.fullSupport}}
	if p.aaDice > 0 {
		seen := map[airOutcome]int32{p.airs[0]: 0}
		n := 1
		for range p.aaDice {
			n *= 6
		}
		p.airOf = make([]int32, n)
		var rolls [maxAADice]int
		for code := range n {
			for i, x := 0, code; i < p.aaDice; i, x = i+1, x/6 {
				rolls[i] = x%6 + 1
			}
			shot := p.air.Shoot(p.aaTable, rolls[:p.aaDice], p.planes)
			a := airOutcome{int8(shot.Hit), int8(shot.Aborted), shot.Press}
			k, ok := seen[a]
			if !ok {
				k = int32(len(p.airs))
				seen[a] = k
				p.airs = append(p.airs, a)
			}
			p.airOf[code] = k
		}
	}
	masks := 1 << len(p.targets)
	if masks*len(p.airs) > maxPreStates {
		return fmt.Errorf("%s: the ground strikes and AA fire can end %d ways; at most %d are compiled", s.File, masks*len(p.airs), maxPreStates)
	}
	p.states = make([]State, 0, masks*len(p.airs))
	for mask := 0; mask < masks; mask++ {
		for k, a := range p.airs {
			c.quiet = mask != 0 || k != 0
			for i := range s.Defender.Units {
				c.faceDown[i] = s.Defender.Units[i].FaceDown
			}
			c.notionalDown = false
			for j, i := range p.targets {
				switch {
				case mask&(1<<j) == 0:
				case i == notionalTarget:
					c.notionalDown = true
				default:
					c.faceDown[i] = true
				}
			}
			c.cur = preResult{struck: int8(bits.OnesCount(uint(mask))), support: a.support, hit: a.hit, aborted: a.aborted}
			c.compileState()
			p.states = append(p.states, c.State)
		}
	}
	c.quiet, c.notionalDown = false, false
	c.State = p.states[0]
	c.cur = preResult{support: p.fullSupport}
	return nil
}

func (c *Combat) explainPreCombat() {
	p, s := c.pre, c.Scenario
	c.step("pre-combat random steps, in this order of dice; the working below is for the case where none of them does anything", "docs/scenario-format.md dice")
	if p.fracSides > 0 {
		if c.working() {
			c.stepf("rules §1, AsA 3.15", "the fractional-odds d%d is rolled first and used once the odds are known", p.fracSides)
		}
	}
	us := s.Defender.Units
	var order []string
	for _, k := range p.strikeOrder {
		if i := p.targets[k]; i == notionalTarget {
			order = append(order, "the notional unit")
		} else {
			order = append(order, us[i].Label())
		}
	}
	for i, f := range p.strikes {
		if c.working() {
			c.stepf("rules §3, AsA 3.2.3", "ground strike %d: %s turns a face-up defender face-down (%v, in that order)", i+1, strikeRoll(f), order)
		}
	}
	for i, f := range p.ships {
		if c.working() {
			c.stepf("rules §3, AsA 3.13", "naval ground strike by %s: a d6 for each defender face-up at the start; %s turns it face-down", s.Attacker.NavalStrikes[i].Name, strikeRoll(f))
		}
	}
	if p.aaDice > 0 {
		if c.working() {
			c.stepf("rules §3, 5, AsA 3.2.2", "AA fire at the ground support: %d AA factors against %d aircraft, %s on the %d table; 6s destroy and asterisks abort the lowest air-to-air aircraft, the rest of the total does not press the attack",
				p.aaFactors, len(p.planes), dice(p.aaDice), p.aaTable)
		}
	}
}

func dice(n int) string {
	if n == 1 {
		return "1 die"
	}
	return fmt.Sprintf("%d dice", n)
}

// strikeRoll words the d6 a strike of f factors needs: at most half its
// factors, so a whole number of pips (6.5 factors need a 3 or less).
func strikeRoll(f float64) string {
	n := int(math.Floor(f / 2))
	switch {
	case n < 1:
		return fmt.Sprintf("no roll (%s factors: half is below 1, so the strike cannot succeed)", num(f))
	case n >= 6:
		return "any roll"
	}
	return fmt.Sprintf("a d6 of %d or less", n)
}
