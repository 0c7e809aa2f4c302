package crt

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Encode writes t in the data file format Parse reads, so a table can be
// dumped, edited and loaded back: Parse(Encode(t)) describes the same table.
func Encode(w io.Writer, t *Table) error {
	var b strings.Builder
	q := strconv.Quote
	fmt.Fprintf(&b, "name: %s\n", q(t.Name))
	if t.Title != "" {
		fmt.Fprintf(&b, "title: %s\n", q(t.Title))
	}
	fmt.Fprintf(&b, "dice: %dd6\nrows: {min: %d, max: %d}\nrounding: %s\n", t.Dice, t.MinRow, t.MaxRow, t.Rounding)
	fmt.Fprintf(&b, "odds:\n  method: %s\n", t.Method)
	writeSource(&b, "  ", t.OddsSrc)
	b.WriteString("  levels:\n")
	for _, l := range t.Levels {
		odds := l.Ratio.String()
		if l.Below {
			odds = l.Label
		}
		fmt.Fprintf(&b, "    - {odds: %s", q(odds))
		if t.Method == ByModifier {
			fmt.Fprintf(&b, ", modifier: %d", l.Modifier)
		}
		if l.Label != "" && !l.Below {
			fmt.Fprintf(&b, ", label: %s", q(l.Label))
		}
		b.WriteString("}\n")
	}
	fmt.Fprintf(&b, "automatic:\n  assault: %s\n  blitz: %s\n", q(t.Automatic[Assault].String()), q(t.Automatic[Blitz].String()))
	writeSource(&b, "  ", t.AutoSrc)
	s := t.Modifiers
	b.WriteString("modifiers:\n")
	writeSource(&b, "  ", s.Source)
	fmt.Fprintf(&b, "  face_down_defender: %d\n  hq_support: %d\n  extra_nationality: %d\n", s.FaceDownDefender, s.HQSupport, s.ExtraNationality)
	fmt.Fprintf(&b, "  weather: %s\n  attack_as_mud: %d\n  terrain: %s\n", intMap(s.Weather), s.AttackAsMud, intMap(s.Terrain))
	fmt.Fprintf(&b, "  jungle_japanese: %d\n  blitz: %d\n  territorial: %d\n", s.JungleJapanese, s.Blitz, s.Territorial)
	b.WriteString("tables:\n")
	for _, k := range Kinds {
		g := t.Grids[k]
		fmt.Fprintf(&b, "  %s:\n", k)
		writeSource(&b, "    ", g.Source)
		b.WriteString("    rows:\n")
		for _, r := range g.Rows {
			cells := make([]string, len(r.Cells))
			for i, c := range r.Cells {
				cells[i] = q(c.String())
			}
			fmt.Fprintf(&b, "      - {roll: %d, cells: [%s]", r.Roll, strings.Join(cells, ", "))
			if r.Source != g.Source {
				fmt.Fprintf(&b, ", provenance: %s, source: %s", r.Provenance, q(r.Note))
			}
			b.WriteString("}\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeSource(b *strings.Builder, indent string, s Source) {
	if s.Provenance != 0 {
		fmt.Fprintf(b, "%sprovenance: %s\n", indent, s.Provenance)
	}
	if s.Note != "" {
		fmt.Fprintf(b, "%ssource: %s\n", indent, strconv.Quote(s.Note))
	}
}

func intMap(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %d", strconv.Quote(k), m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
