package scenario

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/internal/yamlx"
	"go.yaml.in/yaml/v3"
)

// CostMeasure is what a force costs the player in a plan
// (docs/scenario-format.md, Plans).
type CostMeasure string

// Cost measures.
const (
	CommittedFactors     CostMeasure = "committed_factors"
	CommittedUnits       CostMeasure = "committed_units"
	CommittedBuildPoints CostMeasure = "committed_build_points"
	ExpectedFactorsLost  CostMeasure = "expected_factors_lost"
	ExpectedUnitsLost    CostMeasure = "expected_units_lost"
)

// CostMeasures lists every cost measure.
var CostMeasures = []string{string(CommittedFactors), string(CommittedUnits), string(CommittedBuildPoints),
	string(ExpectedFactorsLost), string(ExpectedUnitsLost)}

// maxTargets bounds the hexes of a front.
const maxTargets = 8

// MaxAvailable bounds the units and support a plan may choose from: one
// hex's search over combat states plans 60 distinct units in a few
// seconds and well under 256 MiB (docs/planner.md, Limits).
const MaxAvailable = 60

// MaxAvailableShared bounds them on a front and in the defender's
// question, whose searches were not measured past 40.
const MaxAvailableShared = 40

var (
	planKeys     = []string{"side", "cost", "target", "max_units", "crts", "objective"}
	frontKeys    = []string{"id", "name", "kind", "value", "hex", "defender", "options", "modifier", "requires"}
	supportKeys  = []string{"id", "name", "factors", "a2a", "tactical", "shore_bombardment", "hq_support", "cost", "can_support"}
	planUnitKeys = []string{"id", "cost", "can_attack"}
)

// Plan is what a plan file asks of `wifodds plan`: how to cost a force,
// the chance of taking the hex wanted, and the tables to plan under. The
// forces to choose from are the attacker's Available units and
// SupportAvailable.
type Plan struct {
	Side     PlanSide // whose plan: the attacker's (default) or the defender's
	Cost     CostMeasure
	Target   float64  // the P(hex taken) wanted, in (0, 1]; 0 when none
	MaxUnits int      // most available units and support sent (0: no cap)
	CRTs     []string // tables to plan under; empty: the scenario's crt
	CRTPos   []string // where each is named, for errors about the tables
	// Objective is what a front's plan aims for: ObjectiveExpected (the
	// default, also when empty), ObjectiveAll, ObjectiveAtLeast with
	// AtLeast, or ObjectiveSet with Set (target ids).
	Objective string
	AtLeast   int
	Set       []string
	// Order is a front's order of attack: every target after those it
	// requires, among the ready the first in the file (indices into
	// Scenario.Targets). Sets are the front's named sets, whose P(every
	// hex taken) the answer gives.
	Order []int
	Sets  []TargetSet
}

// Plan objectives (docs/scenario-format.md, Plans: plan.objective).
const (
	ObjectiveExpected = "expected"
	ObjectiveAll      = "all"
	ObjectiveAtLeast  = "at_least"
	ObjectiveSet      = "set"
)

// ObjectiveKinds lists every plan objective.
var ObjectiveKinds = []string{ObjectiveExpected, ObjectiveAll, ObjectiveAtLeast, ObjectiveSet}

// IsChance reports whether the plan's objective is a chance (all,
// at_least, set), which target then names, rather than the expected
// hexes taken.
func (p *Plan) IsChance() bool {
	return p.Objective != "" && p.Objective != ObjectiveExpected
}

// Support is what a plan may add to an attack besides land units, each
// item usable at one target: plain ground-support factors (Factors), an
// aircraft facing the defending AA (Aircraft: A2A and Tactical), a ship's
// shore bombardment (ShoreBombardment, coastal targets only) or an HQ's
// support (HQ). docs/scenario-format.md, Plans.
type Support struct {
	ID               string
	Name             string
	Factors          float64 // plain ground-support factors; 0 for the other kinds
	Aircraft         bool
	A2A              int
	Tactical         float64
	ShoreBombardment float64 // a ship's shore bombardment factors; 0 for the other kinds
	HQ               bool    // an HQ's support: sets the attacker's HQ support at its target
	Cost             float64
	// CanSupport are the target ids (a front) it may reach; empty: any.
	// A ship's default is the coastal targets, filled in by the parser.
	CanSupport []string
	Line       int
	idPos      pos // where id and can_support are written, for errors
	canPos     pos
}

// IsShip reports whether the support is a ship's shore bombardment.
func (sp *Support) IsShip() bool { return sp.ShoreBombardment > 0 }

// Coastal reports whether ships may bombard the scenario's hex: an
// invasion's, or a hex marked coastal (docs/rules.md §8, AsA 3.13).
func (s *Scenario) Coastal() bool { return s.Kind == Invasion || s.Hex.Coastal }

// pos is where a key's value is written.
type pos struct{ line, col int }

func posOf(n *yaml.Node) pos {
	if n == nil {
		return pos{}
	}
	return pos{n.Line, n.Column}
}

// node is a stand-in node at p (or at line when p is unset), for errors.
func (p pos) node(line int) *yaml.Node {
	if p.line == 0 {
		return &yaml.Node{Line: line, Column: 1}
	}
	return &yaml.Node{Line: p.line, Column: p.col}
}

// FrontTarget is one hex of a front: a defender stack with its own hex,
// options and modifier, compiled as a scenario of its own.
type FrontTarget struct {
	ID       string
	Value    float64 // what taking the hex is worth (default 1)
	Requires []int   // the targets (indices) that must be taken before it is attacked
	Line     int
	Scenario *Scenario // the target as a scenario with no attacking units
}

// IsPlan reports whether s is a plan file: it lists units or support the
// attacker may send, a plan block or a front of targets. Such a file is
// for `wifodds plan`; the other commands refuse it rather than ignore
// what it lists.
func (s *Scenario) IsPlan() bool { return s.Plan != nil }

// parsePlan reads the plan block and the targets of a front, and checks
// what a plan needs as a whole.
func parsePlan(d *yamlx.Decoder, m *yamlx.Map, root *yaml.Node, s *Scenario) {
	pn := m.Get("plan")
	isPlan := pn != nil || m.Has("targets") || len(s.Attacker.Available) > 0 || len(s.Attacker.SupportAvailable) > 0 ||
		len(s.Defender.Available) > 0
	if !isPlan {
		return
	}
	p := &Plan{Side: AttackerSide, Cost: CommittedFactors, Objective: ObjectiveExpected}
	s.Plan = p
	pm := d.Map(pn, "plan")
	var side string
	if pm.Enum("side", "side", PlanSides, &side) {
		p.Side = PlanSide(side)
	} else if pm.Has("side") {
		p.Side = "" // unknown: already an error, so checkSide says no more
	}
	var cost string
	if pm.Enum("cost", "cost measure", CostMeasures, &cost) {
		p.Cost = CostMeasure(cost)
	}
	hasTarget := pm.Float("target", &p.Target)
	if pm.Int("max_units", &p.MaxUnits) && (p.MaxUnits < 1 || p.MaxUnits > MaxAvailable) {
		d.Errorf(pm.Get("max_units"), "plan.max_units", "%d is outside 1..%d", p.MaxUnits, MaxAvailable)
	}
	for i, n := range pm.Seq("crts") {
		key := yamlx.Index("plan.crts", i)
		name, ok := d.Scalar(n, key)
		if !ok {
			continue
		}
		if b, ok := crt.BuiltinName(name); ok {
			name = b
		} else if s.noFiles {
			d.Errorf(n, key, "%q names a file, which a plan sent over the network may not; plan under standard or 2d6", name)
		} else if st, err := os.Stat(ResolvePath(d.File, name)); err != nil || !st.Mode().IsRegular() {
			d.Errorf(n, key, "%q is neither a built-in table (standard, 2d6) nor a readable file", name)
		}
		for _, c := range p.CRTs {
			if c == name {
				d.Errorf(n, key, "%s is listed twice", name)
			}
		}
		p.CRTs = append(p.CRTs, name)
		p.CRTPos = append(p.CRTPos, d.Pos(n))
	}
	on := parseObjective(d, pm, p)
	pm.Close(planKeys...)
	if s.Attacker.AttackAsMud {
		d.Errorf(root, "attacker.attack_as_mud", "plans do not take the attack-as-mud election yet: it depends on which units are sent (AfA 3.11)")
	}
	parseFront(d, m, s)
	checkObjective(d, on, s)
	if hasTarget {
		checkTarget(d, pm, s)
	}
	checkSide(d, m, pm, root, s)
	if p.Side != AttackerSide {
		// The attacker's force may be fixed (checkSide checked it), or the
		// side is unknown, which is error enough.
	} else if len(s.Attacker.Available) == 0 && len(s.Attacker.SupportAvailable) == 0 {
		at := pn
		if at == nil {
			at = root
		}
		d.Errorf(at, "attacker.available", "a plan needs units or support to choose from: list them under attacker.available (or attacker.support_available)")
	}
	n := len(s.Attacker.Available) + len(s.Attacker.SupportAvailable)
	switch {
	case n > MaxAvailable:
		d.Errorf(root, "attacker.available", "%d units and support to choose from: at most %d", n, MaxAvailable)
	case n > MaxAvailableShared && len(s.Targets) > 0:
		d.Errorf(root, "attacker.available", "%d units and support to choose from: at most %d on a front (%d on one hex)", n, MaxAvailableShared, MaxAvailable)
	case n > MaxAvailableShared && p.Side == DefenderSide:
		d.Errorf(root, "attacker.available", "%d units and support to choose from: at most %d in the defender's question (%d in the attacker's)", n, MaxAvailableShared, MaxAvailable)
	}
	checkPlanIDs(d, m, s)
}

// parseObjective reads plan.objective: a word (expected, all) or a
// mapping of one key (at_least: K, set: [ids]). It returns the node, for
// checkObjective's errors once the targets are known.
func parseObjective(d *yamlx.Decoder, pm *yamlx.Map, p *Plan) *yaml.Node {
	n := pm.Get("objective")
	if n == nil {
		return nil
	}
	const key = "plan.objective"
	if n.Kind != yaml.MappingNode {
		v, ok := d.Enum(n, key, "objective", ObjectiveKinds)
		switch {
		case !ok:
			p.Objective = ""
		case v == ObjectiveAtLeast:
			d.Errorf(n, key, "at_least needs its K: write objective: {at_least: 2}")
			p.Objective = ""
		case v == ObjectiveSet:
			d.Errorf(n, key, "set needs its targets: write objective: {set: [id, id]}")
			p.Objective = ""
		default:
			p.Objective = v
		}
		return n
	}
	om := d.Map(n, key)
	p.Objective = ""
	switch {
	case om.Has(ObjectiveAtLeast) && om.Has(ObjectiveSet):
		d.Errorf(n, key, "give either at_least or set, not both")
	case om.Has(ObjectiveAtLeast):
		if om.Int(ObjectiveAtLeast, &p.AtLeast) {
			p.Objective = ObjectiveAtLeast
		}
	case om.Has(ObjectiveSet):
		items := om.Seq(ObjectiveSet)
		if len(items) == 0 {
			d.Errorf(om.Get(ObjectiveSet), key+".set", "name at least one target")
		}
		if len(items) > maxTargets {
			d.Errorf(om.Get(ObjectiveSet), key+".set", "%d targets: a front has at most %d", len(items), maxTargets)
			items = items[:maxTargets]
		}
		for i, sn := range items {
			k := yamlx.Index(key+".set", i)
			id, ok := d.Scalar(sn, k)
			if !ok {
				continue
			}
			for _, x := range p.Set {
				if x == id {
					d.Errorf(sn, k, "%q is listed twice", id)
				}
			}
			p.Set = append(p.Set, id)
		}
		if !d.Failed() {
			p.Objective = ObjectiveSet
		}
	default:
		d.Errorf(n, key, "a mapping objective is at_least: K or set: [ids]; expected and all are plain words")
	}
	om.Close(ObjectiveAtLeast, ObjectiveSet)
	return n
}

// checkObjective checks the objective against the plan's targets: only a
// front has a choice of objective, K is among its hexes and a set names
// them.
func checkObjective(d *yamlx.Decoder, n *yaml.Node, s *Scenario) {
	p := s.Plan
	if n == nil || !p.IsChance() {
		return
	}
	const key = "plan.objective"
	if len(s.Targets) == 0 {
		d.Errorf(n, key, "%s is for a front of several targets; a plan for one hex already aims at P(hex taken): drop the objective, or list the hexes under targets", p.Objective)
		return
	}
	var ids []string
	for _, t := range s.Targets {
		ids = append(ids, t.ID)
	}
	switch p.Objective {
	case ObjectiveAtLeast:
		if p.AtLeast < 1 || p.AtLeast > len(ids) {
			d.Errorf(n, key+".at_least", "%d is outside 1..%d (the targets)", p.AtLeast, len(ids))
		}
	case ObjectiveSet:
		for i, id := range p.Set {
			if slices.Contains(ids, id) {
				continue
			}
			at := n
			if sq := setNode(n); sq != nil && i < len(sq.Content) {
				at = sq.Content[i]
			}
			d.Errorf(at, yamlx.Index(key+".set", i), "%s", unknownTarget(id, ids))
		}
	}
}

// setNode is the sequence under an objective's set key, or nil.
func setNode(n *yaml.Node) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == ObjectiveSet && n.Content[i+1].Kind == yaml.SequenceNode {
			return n.Content[i+1]
		}
	}
	return nil
}

// checkTarget checks plan.target: a chance in (0, 1] for one hex or a
// front's chance objective, the expected value of the hexes taken (at
// most all of them) on a front by default.
func checkTarget(d *yamlx.Decoder, pm *yamlx.Map, s *Scenario) {
	p := s.Plan
	if len(s.Targets) == 0 || p.IsChance() {
		if len(s.Targets) > 0 && (p.Target <= 0 || p.Target > 1) {
			d.Errorf(pm.Get("target"), "plan.target", "%v is outside (0, 1]: with objective %s the target is the chance to reach, e.g. 0.75", p.Target, p.Objective)
			return
		}
		if p.Target <= 0 || p.Target > 1 {
			d.Errorf(pm.Get("target"), "plan.target", "%v is outside (0, 1]: the chance of taking the hex wanted, e.g. 0.75", p.Target)
		}
		return
	}
	total := 0.0
	for _, t := range s.Targets {
		total += t.Value
	}
	if p.Target <= 0 || p.Target > total {
		d.Errorf(pm.Get("target"), "plan.target", "%v is outside (0, %v]: on a front the target is the expected hexes taken (each worth its value)", p.Target, total)
	}
}

// parseFront reads targets: a front of several hexes.
func parseFront(d *yamlx.Decoder, m *yamlx.Map, s *Scenario) {
	items := m.Seq("targets")
	if !m.Has("targets") {
		return
	}
	if len(items) == 0 {
		d.Errorf(m.Get("targets"), "targets", "a front needs at least one target")
	}
	if len(items) > maxTargets {
		d.Errorf(m.Get("targets"), "targets", "%d targets: at most %d", len(items), maxTargets)
		items = items[:maxTargets]
	}
	for _, k := range []string{"hex", "defender"} {
		if m.Has(k) {
			d.Errorf(m.Get(k), k, "with targets, give each target its own %s", k)
		}
	}
	if len(s.Attacker.Units) > 0 {
		d.Errorf(m.Get("attacker"), "attacker.units", "with targets, list every attacking unit under attacker.available with the targets it can_attack")
	}
	index := map[string]int{}
	var requires [][]*yaml.Node
	for i, n := range items {
		key := yamlx.Index("targets", i)
		tm := d.Map(n, key)
		ft := FrontTarget{Value: 1, Line: n.Line}
		ft.ID = targetID(d, tm, n, key, "can_attack", index, i)
		if tm.Float("value", &ft.Value) && (ft.Value <= 0 || ft.Value > 1000) {
			d.Errorf(tm.Get("value"), key+".value", "%v is outside (0, 1000]", ft.Value)
		}
		ts := *s
		ts.Plan = nil
		ts.Attacker.Available, ts.Attacker.SupportAvailable = nil, nil
		ts.Name = ft.ID
		tm.Str("name", &ts.Name)
		var kind string
		if tm.Enum("kind", "kind", []string{string(Land), string(Invasion), string(Paradrop)}, &kind) {
			// The available units are read once, under the file's kind
			// (an invading unit's section): a target may fight as the
			// file says or overland, which reads no more of a unit.
			if Kind(kind) != s.Kind && Kind(kind) != Land {
				d.Errorf(tm.Get("kind"), key+".kind", "%s under a file of kind %s: the available units are read under the file's kind, so give kind: %s at the top and kind: land on the targets attacked overland", kind, s.Kind, kind)
			}
			ts.Kind = Kind(kind)
		}
		parseTargetHex(d, tm, key, s, &ts)
		ts.Defender = parseSide(d, tm.Get("defender"), key+".defender", "defender", &ts)
		if tm.Get("defender") == nil && ts.Kind == Land {
			d.Errorf(n, key+".defender", "missing")
		}
		requires = append(requires, tm.Seq("requires"))
		if tm.Has("attacker") {
			d.Errorf(tm.Get("attacker"), key+".attacker", "a target with its own attacker belongs to a fixed operation, which has no top-level attacker; a plan lists the units to choose from under attacker.available with can_attack")
		}
		tm.Close(frontKeys...)
		if !d.Failed() {
			checkDefender(d, tm, key+".defender", &ts)
		}
		ft.Scenario = &ts
		s.Targets = append(s.Targets, ft)
	}
	var ids []string
	for _, t := range s.Targets {
		ids = append(ids, t.ID)
	}
	var reqs [][]int
	reqs, s.Plan.Sets, s.Plan.Order = linkTargets(d, m, index, ids, requires)
	for i := range s.Targets {
		s.Targets[i].Requires = reqs[i]
	}
}

// parseTargetHex reads what a target of a front or an operation adds to
// the keys it shares with the scenario s: options (on top of s's), its
// modifier and its hex, into ts.
func parseTargetHex(d *yamlx.Decoder, tm *yamlx.Map, key string, s, ts *Scenario) {
	ts.Options = map[string]bool{}
	for o, on := range s.Options {
		ts.Options[o] = on
	}
	for j, on := range tm.Seq("options") {
		k := yamlx.Index(key+".options", j)
		if o, ok := d.Enum(on, k, "option", AllOptions); ok {
			ts.Options[o] = true
		}
	}
	if tm.Int("modifier", &ts.Modifier) && (ts.Modifier < -30 || ts.Modifier > 30) {
		d.Errorf(tm.Get("modifier"), key+".modifier", "%d is outside -30..30", ts.Modifier)
	}
	parseHexAt(d, tm.Get("hex"), key+".hex", ts)
}

// checkPlanIDs gives every choice an id, refuses duplicates and checks
// that can_attack names targets.
func checkPlanIDs(d *yamlx.Decoder, m *yamlx.Map, s *Scenario) {
	targets := map[string]bool{}
	var ids []string
	for _, t := range s.Targets {
		targets[t.ID] = true
		ids = append(ids, t.ID)
	}
	used := map[string]bool{}
	given := map[string]bool{}
	for i := range s.Attacker.Available {
		if id := s.Attacker.Available[i].ID; id != "" {
			given[id] = true
		}
	}
	for i := range s.Attacker.SupportAvailable {
		if id := s.Attacker.SupportAvailable[i].ID; id != "" {
			given[id] = true
		}
	}
	for i := range s.Defender.Available {
		if id := s.Defender.Available[i].ID; id != "" {
			given[id] = true
		}
	}
	name := func(id *string, label, key string, at *yaml.Node) {
		if *id == "" {
			base := label
			*id = base
			for n := 2; used[*id] || given[*id]; n++ {
				*id = fmt.Sprintf("%s #%d", base, n)
			}
		} else if used[*id] {
			d.Errorf(at, key+".id", "%q is used twice: ids name the units in a plan's answer", *id)
		}
		used[*id] = true
	}
	canAttack := func(list []string, key string, at *yaml.Node) {
		for _, t := range list {
			switch {
			case len(s.Targets) == 0:
				d.Errorf(at, key, "%s names targets; this plan has none", key[strings.LastIndex(key, ".")+1:])
				return
			case !targets[t]:
				d.Errorf(at, key, "%s", unknownTarget(t, ids))
			}
		}
	}
	for i := range s.Attacker.Available {
		u := &s.Attacker.Available[i]
		key := yamlx.Index("attacker.available", i)
		name(&u.ID, u.Label(), key, u.idPos.node(u.Line))
		canAttack(u.CanAttack, key+".can_attack", u.canPos.node(u.Line))
	}
	for i := range s.Attacker.SupportAvailable {
		sp := &s.Attacker.SupportAvailable[i]
		key := yamlx.Index("attacker.support_available", i)
		label := sp.Name
		if label == "" {
			label = fmt.Sprintf("support %d", i+1)
		}
		name(&sp.ID, label, key, sp.idPos.node(sp.Line))
		canAttack(sp.CanSupport, key+".can_support", sp.canPos.node(sp.Line))
		checkReach(d, s, sp, key)
	}
	for i := range s.Defender.Available {
		u := &s.Defender.Available[i]
		name(&u.ID, u.Label(), yamlx.Index("defender.available", i), u.idPos.node(u.Line))
	}
}

// checkReach checks where a ship or an HQ may go: a ship bombards coastal
// targets only (docs/rules.md §8, AsA 3.13), so on a front its default
// can_support is the coastal targets and naming another is an error; an
// HQ adds nothing where the attacker's HQ support is already given.
func checkReach(d *yamlx.Decoder, s *Scenario, sp *Support, key string) {
	at := sp.canPos.node(sp.Line)
	if sp.HQ && s.Attacker.HQSupport {
		d.Errorf(sp.idPos.node(sp.Line), key+".hq_support", "attacker.hq_support is already true at every target, so this HQ would add nothing: drop one of them")
	}
	if !sp.IsShip() {
		return
	}
	if len(s.Targets) == 0 {
		if !s.Coastal() {
			d.Errorf(sp.idPos.node(sp.Line), key+".shore_bombardment", "ships bombard coastal hexes only (AsA 3.13): mark the hex coastal: true, or drop the ship")
		}
		return
	}
	var coastal []string
	for _, t := range s.Targets {
		if t.Scenario.Coastal() {
			coastal = append(coastal, t.ID)
		}
	}
	if len(sp.CanSupport) == 0 {
		if len(coastal) == 0 {
			d.Errorf(sp.idPos.node(sp.Line), key+".shore_bombardment", "no target is coastal and ships bombard coastal hexes only (AsA 3.13): mark a target's hex coastal: true, or drop the ship")
		}
		sp.CanSupport = coastal
		return
	}
	for _, id := range sp.CanSupport {
		for _, t := range s.Targets {
			if t.ID == id && !t.Scenario.Coastal() {
				d.Errorf(at, key+".can_support", "target %q is not coastal and ships bombard coastal hexes only (AsA 3.13): mark its hex coastal: true, or leave it out (coastal targets: %s)", id, orNone(coastal))
			}
		}
	}
}

// orNone lists ids, or says there are none.
func orNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// parsePlanUnit reads the keys an available unit adds: id, cost and
// can_attack. A unit's cost defaults to its factors.
func parsePlanUnit(d *yamlx.Decoder, m *yamlx.Map, path string, u *Unit) {
	m.Str("id", &u.ID)
	u.idPos, u.canPos = posOf(m.Get("id")), posOf(m.Get("can_attack"))
	u.Cost = u.Factors
	if m.Float("cost", &u.Cost) && (u.Cost < 0 || u.Cost > 1000) {
		d.Errorf(m.Get("cost"), path+".cost", "%v is outside 0..1000: a cost is not negative", u.Cost)
	}
	u.CanAttack = idList(d, m, path, "can_attack")
}

// idList reads the target ids listed under key (can_attack, can_support).
func idList(d *yamlx.Decoder, m *yamlx.Map, path, key string) []string {
	var out []string
	for j, n := range m.Seq(key) {
		if t, ok := d.Scalar(n, yamlx.Index(path+"."+key, j)); ok {
			out = append(out, t)
		}
	}
	return out
}

// parseSupport reads attacker.support_available: each item is one kind
// of support (plain factors, an aircraft, a ship or an HQ) with the
// targets it can_support.
func parseSupport(d *yamlx.Decoder, m *yamlx.Map, side *Side) {
	const kinds = "give one of factors (plain ground support), a2a and tactical (an aircraft facing AA), shore_bombardment (a ship) or hq_support: true (an HQ)"
	for i, n := range m.Seq("support_available") {
		key := yamlx.Index(m.Join("support_available"), i)
		sm := d.Map(n, key)
		sp := Support{Line: n.Line}
		sm.Str("id", &sp.ID)
		sp.idPos, sp.canPos = posOf(sm.Get("id")), posOf(sm.Get("can_support"))
		sm.Str("name", &sp.Name)
		hasF := sm.Float("factors", &sp.Factors)
		hasT := sm.Float("tactical", &sp.Tactical)
		hasA := sm.Int("a2a", &sp.A2A)
		hasS := sm.Float("shore_bombardment", &sp.ShoreBombardment)
		hasH := sm.Bool("hq_support", &sp.HQ)
		given := 0
		for _, b := range []bool{hasF, hasT || hasA, hasS, hasH} {
			if b {
				given++
			}
		}
		switch {
		case given != 1:
			d.Errorf(n, key, "%s", kinds)
		case hasF:
			if sp.Factors <= 0 || sp.Factors > 100 {
				d.Errorf(sm.Get("factors"), key+".factors", "%v is outside (0, 100]", sp.Factors)
			}
			sp.Cost = sp.Factors
		case hasT && hasA:
			sp.Aircraft = true
			if sp.A2A < 0 || sp.A2A > 20 {
				d.Errorf(sm.Get("a2a"), key+".a2a", "%d is outside 0..20", sp.A2A)
			}
			if sp.Tactical <= 0 || sp.Tactical > 30 {
				d.Errorf(sm.Get("tactical"), key+".tactical", "%v is outside (0, 30]", sp.Tactical)
			}
			sp.Cost = sp.Tactical
		case hasT || hasA:
			d.Errorf(n, key, "an aircraft needs both a2a and tactical")
		case hasS:
			if sp.ShoreBombardment <= 0 || sp.ShoreBombardment > 50 {
				d.Errorf(sm.Get("shore_bombardment"), key+".shore_bombardment", "%v is outside (0, 50]: a ship's shore bombardment factors", sp.ShoreBombardment)
				sp.ShoreBombardment = 0
			}
			sp.Cost = sp.ShoreBombardment
		case !sp.HQ:
			d.Errorf(sm.Get("hq_support"), key+".hq_support", "an HQ in support_available is hq_support: true; leave out an HQ that gives no support")
		default:
			sp.Cost = 1 // an HQ commits no factors: it counts as one item
		}
		if sm.Float("cost", &sp.Cost) && (sp.Cost < 0 || sp.Cost > 1000) {
			d.Errorf(sm.Get("cost"), key+".cost", "%v is outside 0..1000: a cost is not negative", sp.Cost)
		}
		if sm.Has("can_attack") {
			d.Errorf(sm.Get("can_attack"), key+".can_attack", "support reaches its targets with can_support: write can_support: [ids] (can_attack is for available units)")
		}
		sp.CanSupport = idList(d, sm, key, "can_support")
		sm.Close(append(supportKeys, "can_attack")...)
		side.SupportAvailable = append(side.SupportAvailable, sp)
	}
}

// Combatant is the unit as it fights: without what only names, costs or
// places it in a plan file. Two available units with the same Combatant
// are interchangeable in any combat.
func (u Unit) Combatant() Unit {
	u.ID, u.Name, u.Cost, u.CanAttack, u.Line = "", "", 0, nil, 0
	u.idPos, u.canPos = pos{}, pos{}
	return u
}
