package crt

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/wifodds/wifodds/internal/fileio"
	"github.com/wifodds/wifodds/internal/yamlx"
	"go.yaml.in/yaml/v3"
)

//go:embed data/*.yaml
var builtin embed.FS

// Names lists the embedded tables.
func Names() []string { return slices.Clone(builtinNames()) }

// builtinNames lists the embedded tables once: Open asks on every call,
// and reading the embedded directory and sorting cost an exact answer
// about a tenth of its time.
var builtinNames = sync.OnceValue(func() []string {
	ents, _ := builtin.ReadDir("data")
	var names []string
	for _, e := range ents {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
})

var (
	builtinMu    sync.Mutex
	builtinCache = map[string]*Table{}
)

// Builtin returns an embedded table by name ("standard" or "2d6"). Tables
// are immutable, so each is parsed once and shared.
func Builtin(name string) (*Table, error) {
	builtinMu.Lock()
	defer builtinMu.Unlock()
	if t, ok := builtinCache[name]; ok {
		return t, nil
	}
	data, err := builtin.ReadFile("data/" + name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("crt: no built-in table %q (have %s)", name, strings.Join(Names(), ", "))
	}
	t, err := Parse("builtin:"+name, data)
	if err != nil {
		return nil, err
	}
	builtinCache[name] = t
	return t, nil
}

// BuiltinSource returns the data file of an embedded table, for users who
// want a starting point for their own.
func BuiltinSource(name string) ([]byte, error) {
	data, err := builtin.ReadFile("data/" + name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("crt: no built-in table %q", name)
	}
	return data, nil
}

// BuiltinName is the built-in table ref names, matched without regard to
// case or surrounding space; ok is false when ref names no built-in table
// (a file, then).
func BuiltinName(ref string) (name string, ok bool) {
	for _, n := range builtinNames() {
		if strings.EqualFold(strings.TrimSpace(ref), n) {
			return n, true
		}
	}
	return "", false
}

// Open returns the built-in table called ref, or else loads ref as a file
// path; relative paths are taken from dir.
func Open(ref, dir string) (*Table, error) {
	if n, ok := BuiltinName(ref); ok {
		return Builtin(n)
	}
	p := ref
	if !filepath.IsAbs(p) && dir != "" {
		p = filepath.Join(dir, p)
	}
	if _, err := os.Stat(p); err != nil {
		return nil, fmt.Errorf("crt: %q is neither a built-in table (%s) nor a readable file", ref, strings.Join(Names(), ", "))
	}
	return Load(p)
}

// Load reads and validates a CRT data file.
func Load(path string) (*Table, error) {
	data, err := fileio.ReadFile(path, yamlx.MaxSize)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

var (
	topKeys   = []string{"name", "title", "dice", "rows", "rounding", "odds", "automatic", "modifiers", "tables"}
	oddsKeys  = []string{"method", "levels", "provenance", "source"}
	levelKeys = []string{"odds", "modifier", "label"}
	autoKeys  = []string{"assault", "blitz", "provenance", "source"}
	modKeys   = []string{"face_down_defender", "hq_support", "extra_nationality", "weather", "attack_as_mud",
		"terrain", "jungle_japanese", "blitz", "territorial", "provenance", "source"}
	gridKeys = []string{"rows", "provenance", "source"}
	rowKeys  = []string{"roll", "cells", "provenance", "source"}
)

// Parse validates a CRT data file's contents. Errors name the file, line,
// key, and for cells the table, roll and odds column.
func Parse(file string, data []byte) (*Table, error) {
	root, err := yamlx.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := &yamlx.Decoder{File: file}
	t := &Table{File: file}
	m := d.Map(root, "")
	if !m.Str("name", &t.Name) || t.Name == "" {
		d.Errorf(root, "name", "a table needs a name")
	}
	m.Str("title", &t.Title)
	var dice string
	if m.Str("dice", &dice) {
		switch dice {
		case "1d6":
			t.Dice = 1
		case "2d6":
			t.Dice = 2
		default:
			d.Errorf(m.Get("dice"), "dice", "want 1d6 or 2d6, found %q", dice)
		}
	} else {
		d.Errorf(root, "dice", "missing (1d6 or 2d6)")
	}
	rows := d.Map(m.Get("rows"), "rows")
	okMin, okMax := rows.Int("min", &t.MinRow), rows.Int("max", &t.MaxRow)
	rows.Close("min", "max")
	if !okMin || !okMax {
		d.Errorf(rows.Node(), "rows", "need min and max, the range modified rolls are clamped to")
	} else if t.MaxRow < t.MinRow || t.MaxRow-t.MinRow > 63 {
		d.Errorf(rows.Node(), "rows", "min %d and max %d: want min <= max and at most 64 rows", t.MinRow, t.MaxRow)
	}
	var rounding string
	m.Str("rounding", &rounding)
	switch rounding {
	case "nearest":
		t.Rounding = RoundNearest
	case "none":
		t.Rounding = KeepFractions
	default:
		d.Errorf(m.Get("rounding"), "rounding", "want nearest (round each total, 0.5 up) or none (keep fractions), found %q", rounding)
	}
	parseOdds(d, m.Get("odds"), t)
	parseAutomatic(d, m.Get("automatic"), t)
	parseModifiers(d, m.Get("modifiers"), t)
	if !d.Failed() && !checkReach(d, rows.Node(), t) {
		// The grids would only repeat the range problem row by row.
		m.Get("tables")
		m.Close(topKeys...)
		return nil, d.Err()
	}
	tables := d.Map(m.Get("tables"), "tables")
	if tables.Node() == nil {
		d.Errorf(root, "tables", "missing (assault and blitz)")
	}
	for _, k := range Kinds {
		n := tables.Get(k.String())
		if n == nil {
			if tables.Node() != nil {
				d.Errorf(tables.Node(), tables.Join(k.String()), "missing")
			}
			continue
		}
		t.Grids[k] = parseGrid(d, n, tables.Join(k.String()), k, t)
	}
	tables.Close("assault", "blitz")
	m.Close(topKeys...)
	if err := d.Err(); err != nil {
		return nil, err
	}
	return t, nil
}

func parseSource(d *yamlx.Decoder, m *yamlx.Map, def Source) Source {
	s := def
	var p string
	if m.Str("provenance", &p) {
		v, err := ParseProvenance(p)
		if err != nil {
			d.Errorf(m.Get("provenance"), m.Join("provenance"), "%v", err)
		}
		s.Provenance = v
	}
	m.Str("source", &s.Note)
	return s
}

func requireSource(d *yamlx.Decoder, m *yamlx.Map, s Source) {
	if s.Provenance == 0 && m.Node() != nil {
		d.Errorf(m.Node(), m.Join("provenance"), "missing: every table value needs printed or reconstructed")
	}
}

func parseOdds(d *yamlx.Decoder, n *yaml.Node, t *Table) {
	m := d.Map(n, "odds")
	if n == nil {
		d.Errorf(nil, "odds", "missing")
		return
	}
	var method string
	m.Str("method", &method)
	switch method {
	case "column":
		t.Method = ByColumn
	case "modifier":
		t.Method = ByModifier
	default:
		d.Errorf(m.Get("method"), "odds.method", "want column or modifier, found %q", method)
	}
	t.OddsSrc = parseSource(d, m, Source{})
	requireSource(d, m, t.OddsSrc)
	items := m.Seq("levels")
	if len(items) == 0 {
		d.Errorf(n, "odds.levels", "need at least one odds level")
	}
	for i, it := range items {
		key := yamlx.Index("odds.levels", i)
		lm := d.Map(it, key)
		var l Level
		var s string
		if !lm.Str("odds", &s) {
			d.Errorf(it, key+".odds", "missing")
		} else if strings.HasPrefix(s, "<") {
			if i != 0 {
				d.Errorf(lm.Get("odds"), key+".odds", "a %q level must be the first (lowest)", s)
			}
			if _, err := ParseRatio(s[1:]); err != nil {
				d.Errorf(lm.Get("odds"), key+".odds", "%v", err)
			}
			l.Below, l.Ratio, l.Label = true, Ratio{0, 1}, s
		} else if r, err := ParseRatio(s); err != nil {
			d.Errorf(lm.Get("odds"), key+".odds", "%v", err)
		} else {
			l.Ratio = r
			if len(t.Levels) > 0 && !t.Levels[len(t.Levels)-1].Ratio.Less(r) {
				d.Errorf(lm.Get("odds"), key+".odds", "odds levels must rise strictly: %s does not come after %s", r, t.Levels[len(t.Levels)-1])
			}
		}
		hasMod := lm.Has("modifier") && modifier(d, lm, "modifier", &l.Modifier)
		if t.Method == ByModifier && !hasMod {
			d.Errorf(it, key+".modifier", "missing: a modifier table needs a die-roll modifier for every odds level")
		}
		if t.Method == ByColumn && hasMod {
			d.Errorf(lm.Get("modifier"), key+".modifier", "a column table reads the odds as columns; remove the modifier")
		}
		if len(t.Levels) > 0 && hasMod && l.Modifier < t.Levels[len(t.Levels)-1].Modifier {
			d.Errorf(lm.Get("modifier"), key+".modifier", "odds modifiers must not fall as the odds rise")
		}
		lm.Str("label", &l.Label)
		lm.Close(levelKeys...)
		t.Levels = append(t.Levels, l)
	}
	m.Close(oddsKeys...)
}

func parseAutomatic(d *yamlx.Decoder, n *yaml.Node, t *Table) {
	m := d.Map(n, "automatic")
	if n == nil {
		d.Errorf(nil, "automatic", "missing: the results of a zero defence on each table")
		return
	}
	for _, k := range Kinds {
		var s string
		if !m.Str(k.String(), &s) {
			d.Errorf(n, m.Join(k.String()), "missing")
			continue
		}
		r, err := ParseResult(s)
		if err != nil {
			d.Errorf(m.Get(k.String()), m.Join(k.String()), "%v", err)
		}
		t.Automatic[k] = r
	}
	t.AutoSrc = parseSource(d, m, Source{})
	requireSource(d, m, t.AutoSrc)
	m.Close(autoKeys...)
}

func parseModifiers(d *yamlx.Decoder, n *yaml.Node, t *Table) {
	m := d.Map(n, "modifiers")
	if n == nil {
		d.Errorf(nil, "modifiers", "missing")
		return
	}
	s := &t.Modifiers
	modifier(d, m, "face_down_defender", &s.FaceDownDefender)
	modifier(d, m, "hq_support", &s.HQSupport)
	modifier(d, m, "extra_nationality", &s.ExtraNationality)
	modifier(d, m, "attack_as_mud", &s.AttackAsMud)
	modifier(d, m, "jungle_japanese", &s.JungleJapanese)
	modifier(d, m, "blitz", &s.Blitz)
	modifier(d, m, "territorial", &s.Territorial)
	s.Weather = modifierMap(d, m, "weather", Weathers)
	s.Terrain = modifierMap(d, m, "terrain", Terrains)
	s.Source = parseSource(d, m, Source{})
	requireSource(d, m, s.Source)
	m.Close(modKeys...)
}

// modifier reads a die-roll modifier within ±MaxModifier.
func modifier(d *yamlx.Decoder, m *yamlx.Map, key string, dst *int) bool {
	if m.Int(key, dst) && (*dst < -MaxModifier || *dst > MaxModifier) {
		d.Errorf(m.Get(key), m.Join(key), "modifier %+d is outside -%d..%d", *dst, MaxModifier, MaxModifier)
		return false
	}
	return true
}

// modifierMap reads a modifier for every one of names: an unknown name is
// an error with a suggestion, and so is a missing one, since a lookup that
// missed would quietly read 0 (write 0 for no modifier).
func modifierMap(d *yamlx.Decoder, m *yamlx.Map, key string, names []string) map[string]int {
	sub := d.Map(m.Get(key), m.Join(key))
	if sub.Node() == nil {
		d.Errorf(m.Node(), m.Join(key), "missing: give a modifier for each of %s (0 for none)", strings.Join(names, ", "))
		return nil
	}
	out := map[string]int{}
	for _, k := range sub.Keys() {
		if !slices.Contains(names, k.Value) {
			msg := fmt.Sprintf("unknown %s %q", key, k.Value)
			if c := yamlx.Closest(k.Value, names); c != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", c)
			}
			d.Errorf(k, sub.Join(k.Value), "%s; want one of %s", msg, strings.Join(names, ", "))
			sub.Get(k.Value)
			continue
		}
		var v int
		if modifier(d, sub, k.Value, &v) {
			out[k.Value] = v
		}
	}
	var missing []string
	for _, n := range names {
		if !sub.Has(n) {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		d.Errorf(sub.Node(), sub.Path(), "no modifier for %s: give every %s a value (0 for none)", strings.Join(missing, ", "), key)
	}
	return out
}

func parseGrid(d *yamlx.Decoder, n *yaml.Node, path string, k Kind, t *Table) Grid {
	m := d.Map(n, path)
	g := Grid{Source: parseSource(d, m, Source{})}
	items := m.Seq("rows")
	want := t.MaxRow - t.MinRow + 1
	cols := t.Columns()
	byRoll := make(map[int]Row, len(items))
	for i, it := range items {
		key := yamlx.Index(path+".rows", i)
		rm := d.Map(it, key)
		var r Row
		if !rm.Int("roll", &r.Roll) {
			if !rm.Has("roll") {
				d.Errorf(it, key+".roll", "missing: the modified roll this row is read for")
			}
			rm.Get("cells")
			rm.Close(rowKeys...)
			continue
		}
		r.Source = parseSource(d, rm, g.Source)
		if r.Provenance == 0 {
			d.Errorf(it, key+".provenance", "table %s, roll %d: missing (set it on the row or the table)", k, r.Roll)
		}
		if r.Roll < t.MinRow || r.Roll > t.MaxRow {
			d.Errorf(rm.Get("roll"), key+".roll", "table %s: roll %d is outside rows %d..%d", k, r.Roll, t.MinRow, t.MaxRow)
		} else if _, dup := byRoll[r.Roll]; dup {
			d.Errorf(rm.Get("roll"), key+".roll", "table %s: roll %d appears twice", k, r.Roll)
		}
		cells := rm.Seq("cells")
		if rm.Has("cells") && cols > 0 && len(cells) != cols {
			d.Errorf(rm.Get("cells"), key+".cells", "table %s, roll %d: %d cells, want %d (one per %s)", k, r.Roll, len(cells), cols, map[bool]string{true: "odds level", false: "table"}[cols > 1])
		}
		for j, c := range cells {
			ck := yamlx.Index(key+".cells", j)
			s, ok := d.Scalar(c, ck)
			if !ok {
				continue
			}
			res, err := ParseResult(s)
			if err != nil {
				col := "only column"
				if t.Method == ByColumn && j < len(t.Levels) {
					col = "column " + t.Levels[j].String()
				}
				d.Errorf(c, ck, "table %s, roll %d, %s: %v", k, r.Roll, col, err)
			}
			r.Cells = append(r.Cells, res)
		}
		if !rm.Has("cells") {
			d.Errorf(it, key+".cells", "table %s, roll %d: missing", k, r.Roll)
		}
		rm.Close(rowKeys...)
		byRoll[r.Roll] = r
	}
	m.Close(gridKeys...)
	if d.Failed() {
		return g
	}
	for roll := t.MinRow; roll <= t.MaxRow; roll++ {
		r, ok := byRoll[roll]
		if !ok {
			d.Errorf(n, path+".rows", "table %s: row for roll %d is missing (need every roll %d..%d)", k, roll, t.MinRow, t.MaxRow)
			continue
		}
		g.Rows = append(g.Rows, r)
	}
	if len(g.Rows) != want {
		return Grid{}
	}
	return g
}

// checkReach checks the rows against the rolls the dice and the table's
// own modifiers can reach (docs/rules.md §2): every natural roll needs its
// own row, and a row no roll can reach is a mistake (rows written for the
// other dice, most likely). A scenario's own modifier may go further; the
// roll is then clamped to the last row, as the rules clamp it.
func checkReach(d *yamlx.Decoder, n *yaml.Node, t *Table) bool {
	lo, hi := t.Dice, 6*t.Dice
	if t.MinRow > lo || t.MaxRow < hi {
		d.Errorf(n, "rows", "min %d and max %d: a %dd6 table needs a row for every natural roll %d..%d", t.MinRow, t.MaxRow, t.Dice, lo, hi)
		return false
	}
	up, down := t.reach()
	ok := true
	if t.MaxRow > hi+up {
		d.Errorf(n, "rows", "max %d: a %dd6 roll with this table's modifiers reaches at most %d, so rows above it are never read", t.MaxRow, t.Dice, hi+up)
		ok = false
	}
	if t.MinRow < lo-down {
		d.Errorf(n, "rows", "min %d: a %dd6 roll with this table's modifiers reaches at least %d, so rows below it are never read", t.MinRow, t.Dice, lo-down)
		ok = false
	}
	return ok
}

// reach is how far the table's own modifiers can move a roll up and down:
// three face-down defenders (a full stack), HQ support, three attacking
// nationalities, the worst and best weather and terrain, the blitz and
// territorial modifiers and the odds modifiers.
func (t *Table) reach() (up, down int) {
	s := &t.Modifiers
	add := func(v int) {
		if v > 0 {
			up += v
		} else {
			down -= v
		}
	}
	add(3 * s.FaceDownDefender)
	add(2 * s.ExtraNationality)
	for _, v := range []int{s.HQSupport, s.Blitz, s.Territorial} {
		up, down = up+abs(v), down+abs(v)
	}
	spread := func(vs ...int) {
		add(slices.Max(vs))
		add(slices.Min(vs))
	}
	var ws, ts, os []int
	for _, v := range s.Weather {
		ws = append(ws, v)
	}
	for _, v := range s.Terrain {
		ts = append(ts, v)
	}
	spread(append(ws, s.AttackAsMud, 0)...)
	spread(append(ts, s.JungleJapanese, 0)...)
	for _, l := range t.Levels {
		os = append(os, l.Modifier)
	}
	if t.Method == ByModifier && len(os) > 0 {
		spread(append(os, 0)...)
	}
	return up, down
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
