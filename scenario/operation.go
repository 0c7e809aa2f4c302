package scenario

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/wifodds/wifodds/internal/yamlx"
	"go.yaml.in/yaml/v3"
)

// MaxOperationTargets bounds the combats of a fixed operation: its joint
// distribution has 2^n states (docs/scenario-format.md, Operations).
const MaxOperationTargets = 20

// MaxOperationSets bounds an operation's named sets.
const MaxOperationSets = 32

var (
	operationTopKeys = []string{"name", "kind", "crt", "table", "options", "modifier", "air_tables", "targets", "sets"}
	operationKeys    = []string{"id", "name", "kind", "value", "hex", "attacker", "defender", "options", "modifier", "requires"}
)

// Operation is a fixed operation: several combats, each with its own hex,
// defender and given attacking force, some attacked only once others are
// taken (docs/scenario-format.md, Operations).
type Operation struct {
	Targets []OperationTarget
	Sets    []TargetSet
	// Order is an order of attack: every target after those it requires
	// (indices into Targets; among the ready, file order).
	Order []int
}

// OperationTarget is one combat of an operation.
type OperationTarget struct {
	ID       string
	Value    float64 // what taking the hex is worth (default 1)
	Requires []int   // the targets (indices) that must be taken first
	Line     int
	Scenario *Scenario // the combat as a scenario of its own
}

// TargetSet is a named set of targets whose joint capture an operation
// reports, e.g. the hexes that close a pocket.
type TargetSet struct {
	Name    string
	Targets []int // indices into Operation.Targets
}

// IsOperation reports whether s is a fixed operation (several combats, each
// with its given force) for `wifodds run`.
func (s *Scenario) IsOperation() bool { return s.Operation != nil }

// isOperation tells a fixed operation from a plan's front: both list
// targets, but an operation gives each target its attacker and has no
// attacker at the top.
func isOperation(m *yamlx.Map) bool { return m.Has("targets") && !m.Has("attacker") }

// parseOperation reads a fixed operation: the top-level keys every combat
// shares, then each target as a scenario of its own, its requirements and
// the named sets.
func parseOperation(d *yamlx.Decoder, m *yamlx.Map, s *Scenario) {
	for _, k := range []string{"hex", "defender", "plan", "dice"} {
		if m.Has(k) {
			d.Errorf(m.Get(k), k, "an operation (targets with their own attacker) takes no top-level %s: give each target its own hex, defender and attacker; dice replay one combat at a time", k)
		}
	}
	items := m.Seq("targets")
	if len(items) == 0 {
		d.Errorf(m.Get("targets"), "targets", "an operation needs at least one target")
	}
	if len(items) > MaxOperationTargets {
		d.Errorf(m.Get("targets"), "targets", "%d targets: at most %d (the joint distribution has 2^n states)", len(items), MaxOperationTargets)
		items = items[:MaxOperationTargets]
	}
	op := &Operation{}
	index := map[string]int{}
	var requires [][]*yaml.Node
	for i, n := range items {
		key := yamlx.Index("targets", i)
		tm := d.Map(n, key)
		t := OperationTarget{Value: 1, Line: n.Line, Scenario: operationTarget(d, tm, key, s)}
		t.ID = targetID(d, tm, n, key, "requires and sets", index, i)
		if t.Scenario.Name == "" {
			t.Scenario.Name = t.ID
		}
		if tm.Float("value", &t.Value) && (t.Value <= 0 || t.Value > 1000) {
			d.Errorf(tm.Get("value"), key+".value", "%v is outside (0, 1000]", t.Value)
		}
		requires = append(requires, tm.Seq("requires"))
		tm.Close(operationKeys...)
		op.Targets = append(op.Targets, t)
	}
	var ids []string
	for _, t := range op.Targets {
		ids = append(ids, t.ID)
	}
	var reqs [][]int
	reqs, op.Sets, op.Order = linkTargets(d, m, index, ids, requires)
	for i := range op.Targets {
		op.Targets[i].Requires = reqs[i]
	}
	s.Operation = op
}

// operationTarget reads one target's combat: the shared keys of s, with
// the target's own kind, options, modifier, hex and sides.
func operationTarget(d *yamlx.Decoder, tm *yamlx.Map, key string, s *Scenario) *Scenario {
	ts := *s
	ts.Operation = nil
	ts.Name = ""
	tm.Str("name", &ts.Name)
	var kind string
	if tm.Enum("kind", "kind", []string{string(Land), string(Invasion), string(Paradrop)}, &kind) {
		ts.Kind = Kind(kind)
	}
	parseTargetHex(d, tm, key, s, &ts)
	ts.Attacker = parseSide(d, tm.Get("attacker"), key+".attacker", "attacker", &ts)
	ts.Defender = parseSide(d, tm.Get("defender"), key+".defender", "defender", &ts)
	if tm.Get("attacker") == nil {
		d.Errorf(tm.Node(), key+".attacker", "missing: in an operation each target gives its attacking force (attacker.units); for the planner to choose the force, list attacker.available at the top instead")
	}
	if tm.Get("defender") == nil && ts.Kind == Land {
		d.Errorf(tm.Node(), key+".defender", "missing")
	}
	if len(ts.Attacker.Available) > 0 || len(ts.Attacker.SupportAvailable) > 0 {
		d.Errorf(tm.Get("attacker"), key+".attacker.available", "an operation's forces are given (attacker.units): units to choose from belong to wifodds plan (a front of targets under a top-level attacker.available)")
	}
	if !d.Failed() {
		checkCombatAt(d, tm, key+".", &ts)
	}
	return &ts
}

// parseSets reads sets: named lists of targets for the joint figures, of
// an operation or a plan's front.
func parseSets(d *yamlx.Decoder, m *yamlx.Map, lookup func(*yaml.Node, string) (int, bool)) []TargetSet {
	var out []TargetSet
	sm := d.Map(m.Get("sets"), "sets")
	keys := sm.Keys()
	if len(keys) > MaxOperationSets {
		d.Errorf(m.Get("sets"), "sets", "%d sets: at most %d", len(keys), MaxOperationSets)
		keys = keys[:MaxOperationSets]
	}
	for _, k := range keys {
		key := sm.Join(k.Value)
		set := TargetSet{Name: k.Value}
		if !printable(k.Value) {
			d.Errorf(k, key, "%q holds a control character or is over %d bytes: a set's name is printed in the report", k.Value, maxIDLen)
		}
		items := sm.Seq(k.Value)
		if len(items) == 0 {
			d.Errorf(k, key, "a set names at least one target")
		}
		for j, n := range items {
			if t, ok := lookup(n, yamlx.Index(key, j)); ok {
				if slices.Contains(set.Targets, t) {
					d.Errorf(n, yamlx.Index(key, j), "%q is listed twice", n.Value)
				}
				set.Targets = append(set.Targets, t)
			}
		}
		out = append(out, set)
	}
	return out
}

// targetLookup finds the target an entry of requires, sets or an
// objective names: an unknown id is an error suggesting the nearest.
func targetLookup(d *yamlx.Decoder, index map[string]int, ids []string) func(n *yaml.Node, key string) (int, bool) {
	return func(n *yaml.Node, key string) (int, bool) {
		id, ok := d.Scalar(n, key)
		if !ok {
			return 0, false
		}
		j, ok := index[id]
		if !ok {
			d.Errorf(n, key, "%s", unknownTarget(id, ids))
		}
		return j, ok
	}
}

// unknownTarget says that id names none of the targets ids, suggesting
// the nearest or else listing them.
func unknownTarget(id string, ids []string) string {
	if c := yamlx.Closest(id, ids); c != "" {
		return fmt.Sprintf("unknown target %q (did you mean %q?)", id, c)
	}
	return fmt.Sprintf("unknown target %q (targets: %s)", id, strings.Join(ids, ", "))
}

// linkTargets reads what ties the targets ids (of an operation or a
// plan's front; index maps an id to its target) together: each target's
// requires (requires[i], the nodes under targets[i].requires), the named
// sets and, when nothing has failed, the order of attack.
func linkTargets(d *yamlx.Decoder, m *yamlx.Map, index map[string]int, ids []string, requires [][]*yaml.Node) (reqs [][]int, sets []TargetSet, order []int) {
	lookup := targetLookup(d, index, ids)
	reqs = parseRequires(d, requires, lookup)
	sets = parseSets(d, m, lookup)
	if !d.Failed() {
		order = attackOrder(d, m.Get("targets"), ids, reqs)
	}
	return reqs, sets, order
}

// parseRequires reads each target's requires (lists[i], the nodes under
// targets[i].requires) into indices: an unknown id suggests the nearest,
// a target requiring itself or naming one twice is an error. An
// operation's targets and a plan's front read them alike.
func parseRequires(d *yamlx.Decoder, lists [][]*yaml.Node, lookup func(*yaml.Node, string) (int, bool)) [][]int {
	out := make([][]int, len(lists))
	for i, list := range lists {
		for j, n := range list {
			key := yamlx.Index(yamlx.Index("targets", i)+".requires", j)
			r, ok := lookup(n, key)
			switch {
			case !ok:
			case r == i:
				d.Errorf(n, key, "a target cannot require itself")
			case slices.Contains(out[i], r):
				d.Errorf(n, key, "%q is listed twice", n.Value)
			default:
				out[i] = append(out[i], r)
			}
		}
	}
	return out
}

// attackOrder is the order of attack of the targets ids with their
// requirements (AttackOrder); a cycle is an error naming it.
func attackOrder(d *yamlx.Decoder, at *yaml.Node, ids []string, requires [][]int) []int {
	order, ok := AttackOrder(requires)
	if !ok {
		done := make([]bool, len(ids))
		for _, i := range order {
			done[i] = true
		}
		d.Errorf(at, "targets", "requires go round in a circle (%s): no target of it can be attacked first", cycle(ids, requires, done))
		return nil
	}
	return order
}

// AttackOrder is an order of attack of targets with the requirements
// given (indices): every target after those it requires, among the ready
// the first in the list (Kahn's). With a cycle, ok is false and order
// holds the targets that can be attacked.
func AttackOrder(requires [][]int) (order []int, ok bool) {
	n := len(requires)
	done := make([]bool, n)
	order = make([]int, 0, n)
	for len(order) < n {
		next := -1
		for i := 0; i < n && next < 0; i++ {
			if !done[i] && !slices.ContainsFunc(requires[i], func(r int) bool { return !done[r] }) {
				next = i
			}
		}
		if next < 0 {
			return order, false
		}
		done[next] = true
		order = append(order, next)
	}
	return order, true
}

// cycle names a circle of requirements among the targets not done, e.g.
// "a requires b requires a".
func cycle(ids []string, requires [][]int, done []bool) string {
	start := slices.Index(done, false)
	seen := map[int]int{}
	var path []int
	for i := start; ; {
		if at, ok := seen[i]; ok {
			path = append(path[at:], i)
			break
		}
		seen[i] = len(path)
		path = append(path, i)
		for _, r := range requires[i] {
			if !done[r] {
				i = r
				break
			}
		}
	}
	names := make([]string, len(path))
	for k, i := range path {
		names[k] = fmt.Sprintf("%q", ids[i])
	}
	return strings.Join(names, " requires ")
}

// maxIDLen bounds an id or a set's name, which the report prints.
const maxIDLen = 200

// targetID reads target i's id (at key, in node n of map tm) into index:
// given, printable and not used before. why names what refers to ids.
func targetID(d *yamlx.Decoder, tm *yamlx.Map, n *yaml.Node, key, why string, index map[string]int, i int) string {
	var id string
	if !tm.Str("id", &id) || strings.TrimSpace(id) == "" {
		d.Errorf(n, key+".id", "missing: each target needs an id for %s to name", why)
	} else if !printable(id) {
		d.Errorf(tm.Get("id"), key+".id", "%q holds a control character or is over %d bytes: an id is printed in the report", id, maxIDLen)
	} else if _, dup := index[id]; dup {
		d.Errorf(tm.Get("id"), key+".id", "%q is used twice", id)
	} else {
		index[id] = i
	}
	return id
}

// printable reports whether s can be printed as it is: no control
// character (a terminal would act on it) and not over maxIDLen bytes.
func printable(s string) bool {
	return len(s) <= maxIDLen && !strings.ContainsFunc(s, unicode.IsControl)
}
