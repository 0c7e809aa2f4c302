package crt

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
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
func Names() []string {
	ents, _ := builtin.ReadDir("data")
	var names []string
	for _, e := range ents {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

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

// Open returns the built-in table called ref, or else loads ref as a file
// path; relative paths are taken from dir.
func Open(ref, dir string) (*Table, error) {
	for _, n := range Names() {
		if ref == n {
			return Builtin(n)
		}
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
		return nil, fmt.Errorf("crt: %w", err)
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
		return nil, fmt.Errorf("crt: %w", err)
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
		return nil, fmt.Errorf("crt: %w", err)
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
		hasMod := lm.Int("modifier", &l.Modifier)
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
	m.Int("face_down_defender", &s.FaceDownDefender)
	m.Int("hq_support", &s.HQSupport)
	m.Int("extra_nationality", &s.ExtraNationality)
	m.Int("attack_as_mud", &s.AttackAsMud)
	m.Int("jungle_japanese", &s.JungleJapanese)
	m.Int("blitz", &s.Blitz)
	m.Int("territorial", &s.Territorial)
	s.Weather = parseIntMap(d, m, "weather")
	s.Terrain = parseIntMap(d, m, "terrain")
	s.Source = parseSource(d, m, Source{})
	requireSource(d, m, s.Source)
	m.Close(modKeys...)
}

func parseIntMap(d *yamlx.Decoder, m *yamlx.Map, key string) map[string]int {
	sub := d.Map(m.Get(key), m.Join(key))
	out := map[string]int{}
	for _, k := range sub.Keys() {
		var v int
		sub.Int(k.Value, &v)
		out[k.Value] = v
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
			d.Errorf(it, key+".roll", "missing")
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
		if rm.Has("cells") && len(cells) != cols {
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
