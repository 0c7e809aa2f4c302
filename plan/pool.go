package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wifodds/wifodds/scenario"
)

// Item is a unit or support a plan may send.
type Item struct {
	ID      string
	Unit    *scenario.Unit    // a land unit, or nil
	Support *scenario.Support // support (factors, aircraft, ship or HQ), or nil
	Factors float64           // its committed factors: a unit's attack factors, support's tactical or shore bombardment factors, 0 for an HQ
	Cost    float64           // its build-point cost (docs/scenario-format.md, Plans)
	class   int
}

// class is a set of interchangeable items: the same combat attributes and
// the same targets. Its items are sorted cheapest first, so a force that
// sends k of them sends the k cheapest.
type class struct {
	items  []int     // indices into pool.items, cheapest first
	prefix []float64 // prefix[k]: build points of the k cheapest
	key    string
	can    []bool // by target: whether the class can attack it
}

// pool is a plan's choices grouped into classes.
type pool struct {
	items   []Item
	classes []class
}

// newPool groups a plan's available units and support into classes of
// interchangeable items. targets are the front's target ids (nil for one
// hex: every item can attack it).
func newPool(s *scenario.Scenario, targets []string) *pool {
	p := &pool{}
	byKey := map[string]int{}
	add := func(it Item, key string, canAttack []string) {
		can := make([]bool, max(len(targets), 1))
		for t := range can {
			can[t] = len(canAttack) == 0 || len(targets) > 0 && slices.Contains(canAttack, targets[t])
		}
		key += fmt.Sprint(can)
		c, ok := byKey[key]
		if !ok {
			c = len(p.classes)
			byKey[key] = c
			p.classes = append(p.classes, class{key: key, can: can})
		}
		it.class = c
		p.classes[c].items = append(p.classes[c].items, len(p.items))
		p.items = append(p.items, it)
	}
	for i := range s.Attacker.Available {
		u := &s.Attacker.Available[i]
		add(Item{ID: u.ID, Unit: u, Factors: u.Factors, Cost: u.Cost}, unitKey(u), u.CanAttack)
	}
	for i := range s.Attacker.SupportAvailable {
		sp := &s.Attacker.SupportAvailable[i]
		// Committed factors: tactical for an aircraft, shore bombardment
		// for a ship, none for an HQ.
		f := sp.Factors
		switch {
		case sp.Aircraft:
			f = sp.Tactical
		case sp.IsShip():
			f = sp.ShoreBombardment
		}
		key := fmt.Sprintf("support %v %v %v %v %v %v", sp.Aircraft, sp.Factors, sp.A2A, sp.Tactical, sp.ShoreBombardment, sp.HQ)
		add(Item{ID: sp.ID, Support: sp, Factors: f, Cost: sp.Cost}, key, sp.CanSupport)
	}
	for c := range p.classes {
		cl := &p.classes[c]
		slices.SortStableFunc(cl.items, func(a, b int) int {
			if d := p.items[a].Cost - p.items[b].Cost; d != 0 {
				if d < 0 {
					return -1
				}
				return 1
			}
			return strings.Compare(p.items[a].ID, p.items[b].ID)
		})
		cl.prefix = make([]float64, len(cl.items)+1)
		for k, i := range cl.items {
			cl.prefix[k+1] = cl.prefix[k] + p.items[i].Cost
		}
	}
	return p
}

// isHQ reports whether class c is HQs: a target takes at most one HQ's
// support (stateSpace.room).
func (p *pool) isHQ(c int) bool {
	sp := p.items[p.classes[c].items[0]].Support
	return sp != nil && sp.HQ
}

// unitKey is what makes two units interchangeable in a combat: every
// attribute but the ones that only name or cost it.
func unitKey(u *scenario.Unit) string {
	return fmt.Sprintf("unit %+v", u.Combatant())
}

// counts is a force as the number of items sent from each class.
type counts []uint8

func (x counts) key() string { return string(x) }

// size is the number of items sent.
func (x counts) size() int {
	n := 0
	for _, k := range x {
		n += int(k)
	}
	return n
}

// items lists the items a force sends: the cheapest of each class, in the
// order the plan file lists them.
func (p *pool) itemsOf(x counts) []int { return p.appendItems(nil, x) }

// appendItems appends the items of force x to dst, as itemsOf lists them.
func (p *pool) appendItems(dst []int, x counts) []int {
	n := len(dst)
	for c, k := range x {
		dst = append(dst, p.classes[c].items[:k]...)
	}
	slices.Sort(dst[n:])
	return dst
}

// ids names the items of a force.
func (p *pool) ids(items []int) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = p.items[it].ID
	}
	return out
}

// force builds the scenario of a target attacked by the committed units
// and a force's items, in the order the plan file lists them.
func (p *pool) force(target *scenario.Scenario, committed []scenario.Unit, items []int) *scenario.Scenario {
	s := &scenario.Scenario{}
	p.forceInto(s, target, committed, items)
	return s
}

// forceInto is force written into s, reusing its unit and aircraft lists.
func (p *pool) forceInto(s *scenario.Scenario, target *scenario.Scenario, committed []scenario.Unit, items []int) {
	units, aircraft := s.Attacker.Units[:0], s.Attacker.Aircraft[:0]
	*s = *target
	s.Plan, s.Targets = nil, nil
	a := &s.Attacker
	a.Available, a.SupportAvailable = nil, nil
	a.Units = append(units, committed...)
	// Appends below must not write into target's array.
	a.Aircraft = append(aircraft, target.Attacker.Aircraft...)
	for _, i := range items {
		it := &p.items[i]
		switch {
		case it.Unit != nil:
			u := it.Unit.Combatant()
			u.Name, u.Line = it.Unit.Name, it.Unit.Line
			a.Units = append(a.Units, u)
		case it.Support.Aircraft:
			a.Aircraft = append(a.Aircraft, scenario.Aircraft{Name: it.ID, A2A: it.Support.A2A, Tactical: it.Support.Tactical, Line: it.Support.Line})
		case it.Support.IsShip():
			a.ShoreBombardment += it.Support.ShoreBombardment
		case it.Support.HQ:
			a.HQSupport = true
		default:
			a.GroundSupport += it.Support.Factors
		}
	}
}

// buildPoints is what a force's items cost in build points.
func (p *pool) buildPoints(x counts) float64 {
	b := 0.0
	for c, k := range x {
		b += p.classes[c].prefix[k]
	}
	return b
}

// factors is a force's committed factors.
func (p *pool) factors(x counts) float64 {
	f := 0.0
	for c, k := range x {
		if k > 0 {
			f += float64(k) * p.items[p.classes[c].items[0]].Factors
		}
	}
	return f
}

// binom is n choose k, for counting the subsets a force stands for.
func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}
