package reports

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/wifodds/wifodds/crt"
)

// WriteCRT prints a table with the provenance of every row, for
// `wifodds crt show`.
func WriteCRT(w io.Writer, t *crt.Table) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "%s: %s\n", t.Name, t.Title)
	fmt.Fprintf(b, "file: %s\n", t.File)
	fmt.Fprintf(b, "dice: %dd6, modified rolls read at %d..%d; totals rounded: %s; odds by %s\n", t.Dice, t.MinRow, t.MaxRow, t.Rounding, t.Method)
	fmt.Fprintf(b, "zero defence: assault %s, blitz %s (%s)\n", t.Automatic[crt.Assault], t.Automatic[crt.Blitz], src(t.AutoSrc))
	if t.Method == crt.ByModifier {
		var parts []string
		for _, l := range t.Levels {
			parts = append(parts, fmt.Sprintf("%s %+d", l, l.Modifier))
		}
		fmt.Fprintf(b, "odds modifiers (%s): %s\n", src(t.OddsSrc), strings.Join(parts, ", "))
	}
	m := t.Modifiers
	fmt.Fprintf(b, "other modifiers (%s):\n  face-down defender %+d each, HQ support %+d, extra nationality %+d each\n  weather: %s; attacking as if in mud %+d\n  terrain: %s; jungle with all attackers Japanese %+d\n  optional: blitz %+d, territorial %+d\n",
		src(m.Source), m.FaceDownDefender, m.HQSupport, m.ExtraNationality, signedMap(m.Weather), m.AttackAsMud, signedMap(m.Terrain), m.JungleJapanese, m.Blitz, m.Territorial)
	for _, k := range crt.Kinds {
		g := t.Grids[k]
		fmt.Fprintf(b, "\n%s\n", strings.ToUpper(k.String()))
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		header := []string{"roll"}
		if t.Method == crt.ByColumn {
			for _, l := range t.Levels {
				header = append(header, l.String())
			}
		} else {
			header = append(header, "result")
		}
		header = append(header, "provenance")
		fmt.Fprintln(tw, strings.Join(header, "\t"))
		for i, r := range g.Rows {
			cells := []string{t.RowLabel(i)}
			for _, c := range r.Cells {
				cells = append(cells, c.String())
			}
			cells = append(cells, src(r.Source))
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		tw.Flush()
	}
	if t.HasReconstructed() {
		b.WriteString("\nnote: reconstructed values are fixed by docs/rules.md where the rulebooks do not print them; load your own file for the printed table.\n")
	}
	return writeText(w, trimLines(b.String()))
}

func signedMap(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] || m[keys[i]] == m[keys[j]] && keys[i] < keys[j] })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %+d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func src(s crt.Source) string {
	if s.Note == "" {
		return s.Provenance.String()
	}
	return s.Provenance.String() + ": " + s.Note
}
