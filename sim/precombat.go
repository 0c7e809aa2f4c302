package sim

import (
	"fmt"
	"math/bits"
	"path/filepath"
	"sort"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// maxPreStates bounds the pre-combat states compiled in advance.
const maxPreStates = 4096

// preCombat holds a combat's pre-combat random steps (RULES.md 3; dice in
// the order SCENARIO.md fixes): the fractional-odds die, artillery ground
// strikes, naval ground strikes, then AA fire at the ground-support
// aircraft. Each combination of their effects is a State compiled in
// advance, so a trial only rolls and looks one up.
type preCombat struct {
	fracSides   int       // the fractional-odds die is rolled first (0: no option)
	strikes     []float64 // factors of each ART making a ground strike, in list order
	ships       []float64 // shore bombardment factors of each ship making a naval ground strike
	targets     []int     // defending units in the combat face-up at the start
	strikeOrder []int     // positions in targets, in the order ground strikes turn them
	aircraft    []scenario.Aircraft
	air         *crt.AirTables
	aaFactors   int
	aaDice      int
	aaTable     int
	fullSupport float64

	states []State
	index  map[preKey]int
}

type preKey struct {
	mask    uint32
	hit     int8
	aborted int8
	support float64
}

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
	p := &preCombat{index: map[preKey]int{}}
	for i := range s.Attacker.Units {
		if u := &s.Attacker.Units[i]; u.Role == "strike" {
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
		if u := &s.Defender.Units[i]; u.Type == "AA" && inCombat(u) {
			aa += u.Factors
		}
	}
	p.aaFactors = int(crt.RoundNearest.Round(aa))
	if len(s.Attacker.Aircraft) > 0 && p.aaFactors > 0 {
		air, err := airTables(s)
		if err != nil {
			return err
		}
		fire, err := air.Fire(p.aaFactors, len(s.Attacker.Aircraft))
		if err != nil {
			return fmt.Errorf("sim: %s: %w", s.File, err)
		}
		p.air, p.aaDice, p.aaTable = air, fire.Dice, fire.Table
		p.aircraft = append(p.aircraft, s.Attacker.Aircraft...)
		// AA fire takes the lowest air-to-air aircraft first; on ties the
		// owner loses the fewest tactical factors (RULES.md 5).
		sort.SliceStable(p.aircraft, func(i, j int) bool {
			a, b := p.aircraft[i], p.aircraft[j]
			if a.A2A != b.A2A {
				return a.A2A < b.A2A
			}
			return a.Tactical < b.Tactical
		})
	}
	if len(p.strikes) == 0 && len(p.ships) == 0 && p.aaDice == 0 {
		return nil
	}
	for i := range s.Defender.Units {
		if u := &s.Defender.Units[i]; inCombat(u) && !u.FaceDown {
			p.targets = append(p.targets, i)
		}
	}
	if len(p.targets) > 12 {
		return fmt.Errorf("sim: %s: ground strikes against %d face-up defending units: at most 12", s.File, len(p.targets))
	}
	p.strikeOrder = c.strikePriority(p.targets)
	p.fracSides = c.fractionalSides()
	c.pre = p
	return nil
}

func airTables(s *scenario.Scenario) (*crt.AirTables, error) {
	if s.AirTables == "" || s.AirTables == "strategic" {
		return crt.BuiltinAir("strategic")
	}
	p := s.AirTables
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(s.File), p)
	}
	t, err := crt.LoadAir(p)
	if err != nil {
		return nil, fmt.Errorf("%s: air_tables: %w", s.File, err)
	}
	return t, nil
}

// strikePriority orders the targets of ground strikes: the attacker turns
// first the unit whose factor falls most when face-down (an unsupplied
// division or artillery unit falls to 1), then the first listed.
func (c *Combat) strikePriority(targets []int) []int {
	us := c.Scenario.Defender.Units
	drop := func(i int) float64 {
		u := &us[i]
		if !u.Supply && (u.IsArtillery() || c.Scenario.Kind == scenario.Land && !u.IsCorps()) {
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
// effects, the base one (nothing happened) with the working shown.
func (c *Combat) compilePreCombat() error {
	p, s := c.pre, c.Scenario
	c.explainPreCombat()
	type air struct {
		hit, aborted int8
		support      float64
	}
	airs := []air{{0, 0, p.fullSupport}}
	if p.aaDice > 0 {
		maxT := p.aaDice * 5
		seen := map[air]bool{airs[0]: true}
		for gone := 0; gone <= len(p.aircraft); gone++ {
			left := 0.0
			for _, a := range p.aircraft[gone:] {
				left += a.Tactical
			}
			for hit := 0; hit <= gone; hit++ {
				for t := 0; t <= maxT; t++ {
					a := air{int8(hit), int8(gone - hit), max(0, left-float64(t))}
					if !seen[a] {
						seen[a] = true
						airs = append(airs, a)
					}
				}
			}
		}
	}
	masks := 1 << len(p.targets)
	if masks*len(airs) > maxPreStates {
		return fmt.Errorf("sim: %s: the ground strikes and AA fire can end %d ways; at most %d are compiled", s.File, masks*len(airs), maxPreStates)
	}
	for mask := 0; mask < masks; mask++ {
		for _, a := range airs {
			c.quiet = mask != 0 || a != airs[0]
			for i := range s.Defender.Units {
				c.faceDown[i] = s.Defender.Units[i].FaceDown
			}
			for j, i := range p.targets {
				if mask&(1<<j) != 0 {
					c.faceDown[i] = true
				}
			}
			c.cur = preResult{struck: int8(bits.OnesCount(uint(mask))), support: a.support, hit: a.hit, aborted: a.aborted}
			c.compileState()
			p.index[preKey{uint32(mask), a.hit, a.aborted, a.support}] = len(p.states)
			p.states = append(p.states, c.State)
		}
	}
	c.quiet = false
	c.State = p.states[0]
	c.cur = preResult{support: p.fullSupport}
	return nil
}

func (c *Combat) explainPreCombat() {
	p, s := c.pre, c.Scenario
	c.step("pre-combat random steps, in this order of dice; the working below is for the case where none of them does anything", "SCENARIO.md dice")
	if p.fracSides > 0 {
		c.step(fmt.Sprintf("the fractional-odds d%d is rolled first and used once the odds are known", p.fracSides), "RULES 1, AsA 3.15")
	}
	us := s.Defender.Units
	var order []string
	for _, k := range p.strikeOrder {
		order = append(order, us[p.targets[k]].Label())
	}
	for i, f := range p.strikes {
		c.step(fmt.Sprintf("ground strike %d: a d6 of %s or less turns a face-up defender face-down (%v, in that order)", i+1, num(f/2), order), "RULES 3, AsA 3.2.3")
	}
	for i, f := range p.ships {
		c.step(fmt.Sprintf("naval ground strike by %s: a d6 for each defender face-up at the start; %s or less turns it face-down", s.Attacker.NavalStrikes[i].Name, num(f/2)), "RULES 3, AsA 3.13")
	}
	if p.aaDice > 0 {
		c.step(fmt.Sprintf("AA fire at the ground support: %d AA factors against %d aircraft, %s on the %d table; 6s destroy and asterisks abort the lowest air-to-air aircraft, the rest of the total does not press the attack",
			p.aaFactors, len(p.aircraft), dice(p.aaDice), p.aaTable), "RULES 3, 5, AsA 3.2.2")
	}
}

// fire applies AA fire (RULES.md 5 steps 3-6) to the ground-support
// aircraft for the rolled AA dice.
func (p *preCombat) fire(rolls []int) (hit, aborted int8, support float64) {
	total, sixes, stars := 0, 0, 0
	sixStar := false
	for _, die := range rolls {
		r := p.air.AATables[p.aaTable-1][die-1]
		total += r.Factors
		if r.Star {
			stars++
		}
		if die == 6 {
			sixes++
			sixStar = r.Star
		}
	}
	tf := float64(total)
	next := 0
	for k := 0; k < sixes && next < len(p.aircraft); k++ {
		a := p.aircraft[next]
		if float64(a.A2A) >= tf {
			break
		}
		tf -= a.Tactical
		next++
		hit++
		if sixStar {
			stars--
		}
	}
	for ; stars > 0 && next < len(p.aircraft); stars-- {
		tf -= p.aircraft[next].Tactical
		next++
		aborted++
	}
	for _, a := range p.aircraft[next:] {
		support += a.Tactical
	}
	return hit, aborted, max(0, support-max(tf, 0))
}

func dice(n int) string {
	if n == 1 {
		return "1 die"
	}
	return fmt.Sprintf("%d dice", n)
}
