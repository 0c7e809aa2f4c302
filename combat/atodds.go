package combat

import (
	"fmt"
	"slices"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// atOdds compiles the combat at one final odds level: both tables' outcome
// grids, then the table docs/rules.md §2.3 says is used. threeToOne reports odds
// of 3:1 or better, for clause (d).
func (c *Combat) atOdds(odds string, level int, threeToOne bool) AtOdds {
	return c.atOddsAt(odds, level, threeToOne, false)
}

// atOddsAt is atOdds; belowOneToOne marks final odds under 1:1, where an
// airdrop on enemy units may not be made under the A World at War rules.
func (c *Combat) atOddsAt(odds string, level int, threeToOne, belowOneToOne bool) AtOdds {
	v := AtOdds{Odds: odds, Level: level, auto: -1}
	if belowOneToOne && c.AirdropLimited() {
		o := c.internOutcome(Outcome{Level: int8(level), Table: crt.Assault, NotAllowed: true,
			Struck: c.cur.struck, Support: c.cur.support, AirHit: c.cur.hit, AirAborted: c.cur.aborted})
		v.Chooser, v.Reason = ChooserRules, "the airdrop is not allowed below 1:1 (AWAW 10.55C)"
		v.auto = o
		if c.working() {
			c.stepf("rules §6, AWAW 10.55C", "at %s: below 1:1 the airdrop may not be made (AWAW 10.55C); reported as not allowed, not as a failure", odds)
		}
		return v
	}
	var grids [2][]int32
	var terms [2][]crt.Term
	forced, chooser, reason, ok := c.forcedTable()
	for _, k := range crt.Kinds {
		if ok && k != forced {
			// A forced table is the only one read: the other's outcomes
			// could never happen, and nothing weighs one against the other.
			continue
		}
		terms[k] = c.CRT.Modifiers.Terms(c.situation(k))
		mod := crt.Sum(terms[k])
		v.mods[k] = int16(mod)
		grids[k] = c.grid(k, level, mod)
		v.Compare[k] = c.tableStats(grids[k])
	}
	if ok {
		v.Table, v.Chooser, v.Reason = forced, chooser, reason
	} else {
		v.Table, v.Chooser, v.Reason = c.chooseTable(&v, threeToOne)
	}
	v.Terms, v.Modifier = terms[v.Table], crt.Sum(terms[v.Table])
	if c.Automatic {
		v.auto = grids[v.Table][0]
	} else {
		v.cells = grids[v.Table]
	}
	if c.working() {
		c.explainAtOdds(&v, odds)
	}
	return v
}

// explainAtOdds writes the working for one final odds level: the table
// chosen and why, what each table would give when the choice was the
// players', and the modifiers.
func (c *Combat) explainAtOdds(v *AtOdds, odds string) {
	prefix := ""
	if len(c.AtOdds) > 0 || c.Fraction.Chance > 0 {
		prefix = "at " + odds + ": "
	}
	c.stepf("rules §2.3", "%s%s table, chosen by %s: %s", prefix, v.Table, v.Chooser, v.Reason)
	if c.Scenario.Table == "auto" && v.Chooser != ChooserTerrain {
		for _, k := range crt.Kinds {
			st := v.Compare[k]
			c.stepf("rules §2.3", "%s  %s would give P(hex taken) %.4f, expected attacking units lost %.4f, P(breakthrough) %.4f",
				prefix, k, st.HexTaken, st.AttackerLost, st.Breakthrough)
		}
	}
	if c.Automatic {
		return
	}
	for _, t := range v.Terms {
		c.step(prefix+"modifier "+t.String(), "")
	}
	mod := fmt.Sprintf("%+d", v.Modifier)
	if c.CRT.Method == crt.ByModifier {
		mod += fmt.Sprintf(", plus the odds modifier %+d", c.CRT.Levels[v.Level].Modifier)
	}
	c.stepf(c.tableSection(), "%sdie-roll modifier %s; rolls are read at %d..%d", prefix, mod, c.CRT.MinRow, c.CRT.MaxRow)
}

// grid settles every dice total at an odds level on table k with the other
// modifiers mod. The single-roll index is the dice total; under wild results
// it is attacker total*stride + defender total. An automatic result has one
// cell.
func (c *Combat) grid(k crt.Kind, level, mod int) []int32 {
	t := c.CRT
	if c.Automatic {
		return []int32{c.settle(level, k, t.Automatic[k], true, t.AutoSrc.Provenance == crt.Reconstructed)}
	}
	// Both odds levels of a fractional-odds step can read the same CRT
	// level (at the table's ends): the grid is read once a state.
	for _, g := range c.grids {
		if g.k == k && g.level == level && g.mod == mod {
			return g.cells
		}
	}
	cells := c.readGrid(k, level, mod)
	c.grids = append(c.grids, grid{k, level, mod, cells})
	return cells
}

// grid is a state's grid of outcomes on one table at one odds level.
type grid struct {
	k          crt.Kind
	level, mod int
	cells      []int32
}

// readGrid is grid, read afresh.
func (c *Combat) readGrid(k crt.Kind, level, mod int) []int32 {
	t := c.CRT
	lo, hi := c.diceRange()
	// A state reads each table at each odds level once, and a settled
	// key holds both, so only this grid's own settlings can match.
	from := len(c.settled)
	if !c.wild {
		cells := make([]int32, stride)
		for d := lo; d <= hi; d++ {
			r := t.Lookup(k, level, d+mod)
			cells[d] = c.settleOnce(from, level, k, r, t.SourceOf(k, level, d+mod).Provenance == crt.Reconstructed)
		}
		return cells
	}
	// Wild results (docs/rules.md §2.4): the attacker's roll picks the defender
	// part, the defender's roll the attacker part; a "*" in either picked
	// row keeps the attackers face-up if they lost nothing.
	// Most dice totals read one of a few distinct rows: each side's roll
	// is reduced to its row's index first, and each pair of rows settled
	// once.
	type row struct {
		r     crt.Result
		recon bool
	}
	var rows []row
	var of [stride]int // a dice total's index in rows
	for d := lo; d <= hi; d++ {
		x := row{t.Lookup(k, level, d+mod), t.SourceOf(k, level, d+mod).Provenance == crt.Reconstructed}
		of[d] = slices.Index(rows, x)
		if of[d] < 0 {
			of[d] = len(rows)
			rows = append(rows, x)
		}
	}
	pair := make([]int32, len(rows)*len(rows))
	for i := range pair {
		pair[i] = -1
	}
	cells := make([]int32, stride*stride)
	for a := lo; a <= hi; a++ {
		for b := lo; b <= hi; b++ {
			p := &pair[of[a]*len(rows)+of[b]]
			if *p < 0 {
				ra, rd := rows[of[a]], rows[of[b]]
				*p = c.settleOnce(from, level, k, Composite(ra.r, rd.r), ra.recon || rd.recon)
			}
			cells[a*stride+b] = *p
		}
	}
	return cells
}

// hexTaken reports whether result r takes the hex: every defender
// destroyed, retreated or shattered (docs/rules.md §2). In an invasion or
// a paradrop any defender part but "-" destroys the notional unit, which
// does not count as a loss, and the hex falls only with it (§4).
func (c *Combat) hexTaken(r crt.Result, auto bool) bool {
	taken := min(int(r.DefenderLoss), len(c.DefOrder)) == len(c.DefOrder) || r.Effect != crt.NoEffect
	if c.Scenario.Kind != scenario.Land && !auto {
		taken = taken && (r.DefenderLoss > 0 || r.Effect != crt.NoEffect)
	}
	return taken
}

// invadersTurned reports a successful invasion whose invaders turn
// face-down whatever the result: outside clear and desert, unless the
// success was automatic (docs/rules.md §4, AsA 3.11). It is an invasion
// rule: paradroppers follow the CRT's "*" and "-" like any attacker.
func (c *Combat) invadersTurned(hexTaken, auto bool) bool {
	s := c.Scenario
	return s.Kind == scenario.Invasion && hexTaken && !auto && s.Hex.Terrain != "clear" && s.Hex.Terrain != "desert"
}

// settleKey is what a settled outcome depends on within one state.
type settleKey struct {
	level int
	k     crt.Kind
	r     crt.Result
	recon bool
}

// settleOnce settles a rolled result, once per state: many cells of a
// table, and most of a wild-results grid, read the same result, and the
// first settling interns the outcome in the order the cells are read.
// Results settled before index from (other tables or odds levels) cannot
// match and are not compared.
func (c *Combat) settleOnce(from, level int, k crt.Kind, r crt.Result, recon bool) int32 {
	// A "*" means nothing beside an attacker loss (settle drops it), so
	// 1/- and a composite "1*/-" settle as one.
	r.FaceUp = r.FaceUp && r.AttackerLoss == 0
	if c.wild && c.invadersTurned(c.hexTaken(r, false), false) {
		// Nor beside invaders turned face-down (settle drops it too).
		r.FaceUp = false
	}
	key := settleKey{level, k, r, recon}
	// A grid settles a few dozen distinct results at most: a scan beats
	// hashing the key.
	for i := from; i < len(c.settled); i++ {
		if c.settled[i].key == key {
			return c.settled[i].o
		}
	}
	o := c.settle(level, k, r, false, recon)
	c.settled = append(c.settled, settled{key, o})
	return o
}

// settled is a result settled in the state being compiled.
type settled struct {
	key settleKey
	o   int32
}

// diceRange is the range of one side's dice total.
func (c *Combat) diceRange() (lo, hi int) {
	if c.twoDice {
		return 2, 12
	}
	return 1, 6
}

// totalProb is the probability of a dice total.
func (c *Combat) totalProb(d int) float64 {
	if c.twoDice {
		return float64(6-abs(d-7)) / 36
	}
	return 1.0 / 6
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// tableStats is the exact P(hex taken), P(breakthrough) and expected
// attacking units lost of an outcome grid.
func (c *Combat) tableStats(cells []int32) TableStats {
	var st TableStats
	add := func(o *Outcome, p float64) {
		if o.HexTaken {
			st.HexTaken += p
		}
		if o.Breakthrough {
			st.Breakthrough += p
		}
		st.AttackerLost += p * float64(o.AttackerLost)
	}
	if c.Automatic {
		add(&c.Outcomes[cells[0]], 1)
		return st
	}
	lo, hi := c.diceRange()
	for a := lo; a <= hi; a++ {
		if !c.wild {
			add(&c.Outcomes[cells[a]], c.totalProb(a))
			continue
		}
		for b := lo; b <= hi; b++ {
			add(&c.Outcomes[cells[a*stride+b]], c.totalProb(a)*c.totalProb(b))
		}
	}
	return st
}

// Chooser is who picked the table at an odds level (docs/rules.md §2.3).
type Chooser string

// The choosers of a table.
const (
	ChooserScenario Chooser = "scenario" // the scenario forces a table
	ChooserTerrain  Chooser = "terrain"  // terrain forces the Assault table
	ChooserAttacker Chooser = "attacker"
	ChooserDefender Chooser = "defender"
	ChooserRules    Chooser = "rules" // no table: the rules forbid the combat (an airdrop below 1:1)
)

// forcedTable is the table the scenario or the terrain sets, before any
// choice (docs/rules.md §2.3 (a)); ok is false when the players choose.
func (c *Combat) forcedTable() (k crt.Kind, chooser Chooser, reason string, ok bool) {
	s := c.Scenario
	switch s.Table {
	case "assault":
		return crt.Assault, ChooserScenario, "the scenario sets table: assault", true
	case "blitz":
		return crt.Blitz, ChooserScenario, "the scenario sets table: blitz", true
	}
	if s.ForcesAssault() {
		return crt.Assault, ChooserTerrain, "(a) " + forcingTerrain(&s.Hex) + " forces the Assault table", true
	}
	return 0, "", "", false
}

// chooseTable applies docs/rules.md §2.3 (b)-(e) in priority order, when
// no table is forced (forcedTable). A chooser picks the
// table better for it: the attacker the higher P(hex taken), then fewer
// expected attacking losses, then the higher P(breakthrough); the defender
// the reverse. A full tie goes to Assault.
func (c *Combat) chooseTable(v *AtOdds, threeToOne bool) (crt.Kind, Chooser, string) {
	s := c.Scenario
	att, def := armCount(s.Attacker.Units, false), armCount(s.Defender.Units, true)
	var chooser Chooser
	var reason string
	switch {
	case att > def:
		chooser, reason = ChooserAttacker, "(b) the attacker has more ARM ("+num(att)+" against "+num(def)+")"
	case def > att:
		chooser, reason = ChooserDefender, "(c) the defender has more ARM ("+num(def)+" against "+num(att)+")"
	case threeToOne && att > 0:
		chooser, reason = ChooserAttacker, "(d) odds of 3:1 or better and the attacker has ARM"
	default:
		chooser, reason = ChooserDefender, "(e) otherwise (ARM "+num(att)+" against "+num(def)+")"
	}
	pick := PickTable(chooser, v.Compare[crt.Assault], v.Compare[crt.Blitz])
	return pick, chooser, reason
}

// settle applies a result: losses allocated in each side's loss order, the
// surviving defenders' effect, and the hex's fate (docs/rules.md §2).
func (c *Combat) settle(level int, k crt.Kind, r crt.Result, auto, recon bool) int32 {
	s := c.Scenario
	att, def := s.Attacker.Units, s.Defender.Units
	o := Outcome{Level: int8(level), Table: k, Automatic: auto, Reconstructed: recon,
		Struck: c.cur.struck, Support: c.cur.support, AirHit: c.cur.hit, AirAborted: c.cur.aborted}
	// Kampfgruppe (AsA 3.1.1, docs/rules.md §3): a corps or army lost with
	// a division available is destroyed and that division takes its place,
	// reported as reduced, so the factors lost are the corps' less the
	// division's; a defending one must retreat, or it is destroyed after all.
	na := min(int(r.AttackerLoss), len(c.AttOrder))
	for _, i := range c.AttOrder[:na] {
		if c.replaced(&att[i], false) {
			o.AttackerReduced++
		}
		o.AttackerFactorsLost += c.lossCost(&att[i], false)
	}
	nd := min(int(r.DefenderLoss), len(c.DefOrder))
	for _, i := range c.DefOrder[:nd] {
		if c.replaced(&def[i], true) {
			o.DefenderReduced++
		}
		o.DefenderFactorsLost += c.lossCost(&def[i], true)
	}
	o.AttackerLost, o.DefenderLost = int8(na)-o.AttackerReduced, int8(nd)-o.DefenderReduced
	if survivors := len(c.DefOrder) - nd; survivors > 0 && r.Effect != crt.NoEffect {
		switch {
		case !s.Defender.CanRetreat:
			// Units that cannot retreat are destroyed (docs/rules.md §2, AfA 8.3).
			for _, i := range c.DefOrder[nd:] {
				o.DefenderFactorsLost += def[i].Factors
			}
			o.DefenderLost += int8(survivors)
		case r.Effect == crt.Retreat:
			o.DefenderRetreated = int8(survivors)
		default:
			o.DefenderShattered = int8(survivors)
		}
	}
	o.HexTaken = c.hexTaken(r, auto)
	o.Breakthrough = r.Effect == crt.Breakthrough && o.HexTaken
	r.FaceUp = r.FaceUp && r.AttackerLoss == 0
	turned := c.invadersTurned(o.HexTaken, auto)
	o.AttackerFaceUp = r.FaceUp && na < len(c.AttOrder) && !turned
	if c.wild && turned {
		// A wild-results code is composed to say what happens
		// (docs/rules.md §2.4): invaders turned face-down keep no "*".
		r.FaceUp = false
	}
	o.Result = r
	if c.pre == nil {
		// One state: settleOnce settles each result once, and an outcome
		// records its level, table, result (as applied) and provenance, so
		// no two settlings give equal outcomes and there is nothing to
		// intern (TestOutcomesDistinct).
		c.Outcomes = append(c.Outcomes, o)
		return int32(len(c.Outcomes) - 1)
	}
	return c.internOutcome(o)
}

// internOutcome returns the index of o in c.Outcomes, adding it if new.
func (c *Combat) internOutcome(o Outcome) int32 {
	if c.intern == nil {
		// A plain combat has a few dozen outcomes: a scan beats hashing
		// the whole Outcome. Past internScan the map takes over, so combats
		// with many pre-combat states stay linear.
		for i := range c.Outcomes {
			if c.Outcomes[i] == o {
				return int32(i)
			}
		}
	} else if i, ok := c.intern[o]; ok {
		return i
	}
	i := int32(len(c.Outcomes))
	c.Outcomes = append(c.Outcomes, o)
	switch {
	case c.intern != nil:
		c.intern[o] = i
	case len(c.Outcomes) > internScan:
		c.intern = make(map[Outcome]int32, 2*len(c.Outcomes))
		for j, p := range c.Outcomes {
			c.intern[p] = int32(j)
		}
	}
	return i
}

// internScan is the most outcomes interned by scanning.
const internScan = 48

// tableSection cites the rules section of the combat's table: the 2D6
// table (§2.1) or the one-die standard table (§2.2).
func (c *Combat) tableSection() string {
	if c.twoDice {
		return "rules §2.1, AfA 3.11"
	}
	return "rules §2.2"
}
