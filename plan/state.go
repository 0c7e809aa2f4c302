package plan

import (
	"math"
	"reflect"
	"slices"
	"sync"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// A combat state is what the compiled combat of a force depends on: two
// forces with the same state give the same P(hex taken), table choice,
// breakthrough chance and distribution of attacking units lost
// (docs/planner.md, "One hex: a search over combat states"). The planner
// weighs one force per combat instead of one per subset.
//
// The state is built from each class's contribution. A class is "plain"
// when its unit differs from a default land unit only in the fields
// aggregated below (foldedFields); plain units are folded into sums,
// counts and flags. Every other class (aircraft, units with any other
// field set, every unit of an invasion, a paradrop or a combat under
// Kampfgruppe) is kept in the state as its own count, so a field the
// planner does not know about can only make it merge less, never wrongly.

// foldedFields are the scenario.Unit fields a plain unit may set, with
// what the compiled land combat reads of them (combat.Compile, land.go,
// factors.go, atodds.go):
//   - Factors: the attack total (a plain unit's factor is not halved or
//     doubled on its own: its red circle, face-down and supply fields are
//     at their defaults) and the factors lost, in loss order cheapest first.
//   - Type and Size: the ARM count choosing the table (armCount), the blitz
//     modifier's counts (blitzCount), whether any attacker is armoured (the
//     defenders' red circles), territorial units (TERR).
//   - Nation: the number of nations and whether all are Japanese.
//   - BP: only the order of units of equal factors lost, which changes no
//     figure without Kampfgruppe (where no unit is plain).
var foldedFields = []string{"Type", "Size", "Factors", "Nation", "BP"}

// plainResidual is a unit with its folded fields cleared, as the parser
// makes a unit that gives only them (in supply, face-up, in the combat),
// so a default the parser adds never splits plain units. ok is false if
// the parser refuses the stand-in: then nothing folds.
var plainResidual = sync.OnceValues(func() (scenario.Unit, bool) {
	s, err := scenario.Parse("plain.yaml", []byte("kind: land\nhex: {terrain: clear}\ndefender: {units: [{type: INF, factors: 1, nation: USSR}]}\nattacker: {units: [{type: INF, factors: 1, nation: GE}]}\n"))
	if err != nil || len(s.Attacker.Units) != 1 {
		return scenario.Unit{}, false
	}
	return residual(&s.Attacker.Units[0]), true
})

// residual is a unit as it fights with its folded fields cleared.
func residual(u *scenario.Unit) scenario.Unit {
	r := u.Combatant()
	v := reflect.ValueOf(&r).Elem()
	for _, f := range foldedFields {
		fv := v.FieldByName(f)
		fv.Set(reflect.Zero(fv.Type()))
	}
	return r
}

// quarterScale is how factors are summed exactly: a plain unit's factors are
// a whole number of quarters, so sums in any order are the same number.
const quarterScale = 4

// isPlain reports whether unit u folds into a state's sums (see above).
func isPlain(u *scenario.Unit) bool {
	plain, ok := plainResidual()
	return ok && reflect.DeepEqual(residual(u), plain) && isQuarters(u.Factors)
}

// contribution is what one item of a class adds to a force's state.
type contribution struct {
	exact    int  // the class's place among the exact counts, or -1 when folded
	unit     bool // a land unit (a force needs one)
	inCombat bool // a land unit in the combat: in the loss order
	quarters int32
	// Folded land unit.
	plainUnit       bool
	arm2            uint8 // ARM count, doubled: a corps or army 2, a division 1
	blitz, anti     uint8 // the blitz modifier's counts
	armoured        bool
	japanese        bool
	territorial     bool
	nation          int // bit in the nations mask
	gsQuarters      int32
	plainGroundSupp bool
	// A ship's shore bombardment, whole quarters: the combat reads only
	// the sum (docs/rules.md §3, §8). An HQ: the attacker's HQ support,
	// a flag (docs/rules.md §2.1), at most one HQ a target.
	sbQuarters int32
	plainShip  bool
	hq         bool
}

// stateSpace describes the states of a plan's forces against one hex.
type stateSpace struct {
	contrib []contribution // by class
	nExact  int
	low     int // how many of the smallest in-combat factors a state keeps: the most units a result can destroy
	base    stateKey
	// What the target's combat reads of the folded sums: each count is
	// kept up to a cap past which no comparison the combat makes changes
	// (0: not read at all), each flag only where it is read.
	capN, capArm, capBlitz, capAnti uint16
	armoured, terr, jap, nations    bool
}

// stateKey is a force's state, as the search builds it.
type stateKey struct {
	n, size           uint8 // folded units; items sent
	arm2, blitz, anti uint16
	armoured, anyTerr bool
	allTerr, allJap   bool
	quarters, gs      int32 // folded units' factors; folded ground support
	sb                int32 // ships' shore bombardment, in quarters
	hq                bool  // the attacker's HQ support
	nations           uint64
	exact             []uint8 // counts of the classes kept exactly
	low               []int32 // the smallest factors (quarters) of the units in the combat, ascending
}

// newStateSpace works out each class's contribution against a target
// scenario under table t. committed units are already in the combat.
func newStateSpace(p *pool, target *scenario.Scenario, t *crt.Table, committed []scenario.Unit) *stateSpace {
	sp := &stateSpace{contrib: make([]contribution, len(p.classes)), low: maxAttackerLoss(t)}
	fold := target.Kind == scenario.Land && !target.Has(scenario.Kampfgruppe)
	if !fold {
		sp.low = 0 // every state is one force, which has its own figures
	}
	sp.readsOf(target, t)
	nations := map[string]int{}
	for c := range p.classes {
		it := &p.items[p.classes[c].items[0]]
		k := contribution{exact: -1}
		switch {
		case it.Unit != nil && fold && isPlain(it.Unit) && nationBit(nations, it.Unit.Nation):
			u := it.Unit
			k.unit, k.inCombat, k.plainUnit = true, true, true
			k.quarters = int32(u.Factors * quarterScale)
			if u.Type == scenario.ARM {
				k.arm2, k.blitz = 1, 1
				if u.IsCorps() {
					k.arm2, k.blitz = 2, 2
				}
			}
			if u.Type == scenario.ARM || u.Type == scenario.AT || u.Type == scenario.AA {
				k.anti = 1
				if u.IsCorps() {
					k.anti = 2
				}
			}
			k.armoured = u.Type == scenario.ARM || u.Type == scenario.MECH
			k.japanese, k.territorial = u.Japanese(), u.IsTerritorial()
			k.nation = nations[u.Nation]
		case it.Support != nil && it.Support.IsShip() && isQuarters(it.Support.ShoreBombardment):
			k.plainShip = true
			k.sbQuarters = int32(it.Support.ShoreBombardment * quarterScale)
		case it.Support != nil && it.Support.HQ:
			k.hq = true
		case it.Support != nil && fold && !it.Support.Aircraft && it.Support.Factors > 0 && isQuarters(it.Support.Factors):
			k.plainGroundSupp = true
			k.gsQuarters = int32(it.Support.Factors * quarterScale)
		default:
			k.exact = sp.nExact
			sp.nExact++
			if it.Unit != nil {
				k.unit = true
				k.inCombat = it.Unit.Role == "" || it.Unit.Role == scenario.RoleCombat
				k.quarters = int32(min(max(it.Unit.Factors*quarterScale, 0), 1e9))
			}
		}
		sp.contrib[c] = k
	}
	b := stateKey{allTerr: true, allJap: true, exact: make([]uint8, sp.nExact), hq: target.Attacker.HQSupport}
	for i := range committed {
		if u := &committed[i]; u.Role == "" || u.Role == scenario.RoleCombat {
			b.low = insertLow(b.low, int32(min(max(u.Factors*quarterScale, 0), 1e9)), sp.low)
		}
	}
	sp.base = b
	return sp
}

// readsOf works out what target's combat under t reads of the folded
// sums (combat.Compile; crt.Schedule.Terms):
//   - the number of units in the combat only through min(losses, units)
//     and whether a unit survives: up to the most units a result destroys,
//     plus one;
//   - the ARM count only compared with the defender's, and with 0, when
//     the players choose the table (docs/rules.md §2.3 (b)-(e); not read
//     where the scenario or the terrain sets it, (a)): up to one past the
//     most the defenders could count, doubled (an ARM unit 2, an AT or AA
//     unit 1: combat's armCount, bounded from above);
//   - the blitz counts only under the blitz option in clear weather, each
//     compared with twice the defender's (docs/rules.md §2.1);
//   - whether an attacker is armoured only when a defender has a red circle
//     (AsA 3.2.1); territorial units only under the territorial option;
//     all-Japanese only in jungle; the nations only when the table has a
//     modifier per extra nationality.
func (sp *stateSpace) readsOf(target *scenario.Scenario, t *crt.Table) {
	nd := uint16(min(len(target.Defender.Units), 1000))
	sp.capN = uint16(sp.low) + 1
	if target.Table != "assault" && target.Table != "blitz" && !target.ForcesAssault() {
		var def uint16
		for i := range target.Defender.Units[:nd] {
			switch target.Defender.Units[i].Type {
			case scenario.ARM:
				def += 2
			case scenario.AT, scenario.AA:
				def++
			}
		}
		sp.capArm = def + 1
	}
	if target.Has(scenario.BlitzModifier) && target.Hex.Weather == "clear" {
		sp.capBlitz, sp.capAnti = 4*nd+1, 2*nd+1
	}
	for i := range target.Defender.Units {
		sp.armoured = sp.armoured || target.Defender.Units[i].RedCircle != ""
	}
	sp.terr = target.Has(scenario.TerritorialModifiers)
	sp.jap = target.Hex.Terrain == "jungle"
	sp.nations = t.Modifiers.ExtraNationality != 0
}

// nationBit gives nation a bit in the nations mask, when one is left.
func nationBit(nations map[string]int, nation string) bool {
	if _, ok := nations[nation]; ok {
		return true
	}
	if len(nations) == 64 {
		return false
	}
	nations[nation] = len(nations)
	return true
}

// maxAttackerLoss is the most attacking units any result of t destroys.
func maxAttackerLoss(t *crt.Table) int {
	m := 0
	for _, r := range t.Automatic {
		m = max(m, int(r.AttackerLoss))
	}
	for _, g := range t.Grids {
		for _, row := range g.Rows {
			for _, r := range row.Cells {
				m = max(m, int(r.AttackerLoss))
			}
		}
	}
	return m
}

// insertLow adds factor q to the ascending list of the smallest factors,
// keeping at most m.
func insertLow(low []int32, q int32, m int) []int32 {
	i, _ := slices.BinarySearch(low, q)
	if i >= m {
		return low
	}
	if len(low) < m {
		low = append(low, 0)
	}
	copy(low[i+1:], low[i:len(low)-1])
	low[i] = q
	return low
}

// add adds k items of class c to state s, in place.
func (sp *stateSpace) add(s *stateKey, c, k int) {
	if k == 0 {
		return
	}
	d := &sp.contrib[c]
	s.size += uint8(k)
	switch {
	case d.plainUnit:
		s.n = uint8(satAdd(uint16(s.n), k, 1, sp.capN))
		s.quarters += int32(k) * d.quarters
		s.arm2 = satAdd(s.arm2, k, d.arm2, sp.capArm)
		s.blitz = satAdd(s.blitz, k, d.blitz, sp.capBlitz)
		s.anti = satAdd(s.anti, k, d.anti, sp.capAnti)
		s.armoured = s.armoured || d.armoured && sp.armoured
		if sp.terr {
			s.anyTerr = s.anyTerr || d.territorial
			s.allTerr = s.allTerr && d.territorial
		}
		if sp.jap {
			s.allJap = s.allJap && d.japanese
		}
		if sp.nations {
			s.nations |= 1 << d.nation
		}
	case d.plainGroundSupp:
		s.gs += int32(k) * d.gsQuarters
	case d.plainShip:
		s.sb += int32(k) * d.sbQuarters
	case d.hq:
		s.hq = true
	default:
		s.exact[d.exact] += uint8(k)
	}
	if d.inCombat {
		for range min(k, sp.low) {
			s.low = insertLow(s.low, d.quarters, sp.low)
		}
	}
}

// room is the most items of class c state s may still take: an HQ's
// support counts once, so a target takes at most one HQ, none where the
// attacker's HQ support is given already; any other class is bounded
// only by its size and plan.max_units.
func (sp *stateSpace) room(s *stateKey, c int) int {
	if !sp.contrib[c].hq {
		return math.MaxInt
	}
	if s.hq {
		return 0
	}
	return 1
}

// isQuarters reports whether f is a whole number of quarters that the
// state's sums hold exactly.
func isQuarters(f float64) bool {
	q := f * quarterScale
	return q == math.Trunc(q) && q >= 0 && q <= 1e6
}

// satAdd is v plus k times d, kept at most limit.
func satAdd(v uint16, k int, d uint8, limit uint16) uint16 {
	return uint16(min(int(v)+k*int(d), int(limit)))
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}
