package scenario

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every option and hex flag a player can switch has words for the page
// (issue 27: chips showed raw keys): a label, with the rulebook section
// for an option, and one line citing a section docs/rules.md has. The
// keys are the file's own: an option of AllOptions in its order, a hex
// flag the format takes.
func TestWords(t *testing.T) {
	rules, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	section := regexp.MustCompile(`§(\d+(?:\.\d+)?)`)
	rulebook := regexp.MustCompile(`\((?:AsA|AfA|AWAW) \d+(?:\.\d+)*\)$`)
	check := func(w Words) {
		t.Helper()
		if w.Label == "" || w.About == "" || strings.Contains(w.Label, "_") || strings.Contains(w.Label, w.Key) && strings.Contains(w.Key, "-") {
			t.Errorf("%s: label %q, about %q: want a player's words", w.Key, w.Label, w.About)
		}
		cited := section.FindAllStringSubmatch(w.About, -1)
		if len(cited) == 0 {
			t.Errorf("%s: %q cites no section of docs/rules.md", w.Key, w.About)
		}
		for _, c := range cited {
			if !regexp.MustCompile(`(?m)^#+ §` + regexp.QuoteMeta(c[1]) + ` `).Match(rules) {
				t.Errorf("%s: docs/rules.md has no §%s", w.Key, c[1])
			}
		}
	}
	if len(OptionWords) != len(AllOptions) {
		t.Fatalf("%d options have words, want the %d of AllOptions", len(OptionWords), len(AllOptions))
	}
	for i, w := range OptionWords {
		if w.Key != AllOptions[i] {
			t.Errorf("option words %d are for %q, want %q", i, w.Key, AllOptions[i])
		}
		if !rulebook.MatchString(w.Label) {
			t.Errorf("%s: label %q names no rulebook section", w.Key, w.Label)
		}
		check(w.Words)
		// Named in a word or two where the page has little room.
		if w.Short == "" || len(w.Short) > 14 {
			t.Errorf("%s: short words %q, want a word or two", w.Key, w.Short)
		}
		for _, o := range OptionWords[:i] {
			if o.Short == w.Short {
				t.Errorf("%s and %s share the short words %q", o.Key, w.Key, w.Short)
			}
		}
	}
	base := "kind: land\nattacker: {units: [{type: INF, factors: 4, nation: GE}]}\ndefender: {units: [{type: INF, factors: 4, nation: FR}]}\n"
	for _, w := range HexFlagWords {
		check(w)
		// A key the format does not take is "unknown key"; a flag the
		// combat refuses (an invasion's flag on a land combat) is a real key.
		if _, err := Parse("flag.yaml", []byte("hex: {"+w.Key+": true}\n"+base)); err != nil && strings.Contains(err.Error(), "unknown key") {
			t.Errorf("hex flag %s: %v", w.Key, err)
		}
	}
	if _, err := Parse("flag.yaml", []byte("hex: {cty: true}\n"+base)); err == nil || !strings.Contains(err.Error(), "unknown key") {
		t.Errorf("a misspelt hex key is not refused as unknown: %v", err)
	}
}

// The other keys the page's forms show have words too (issue 27: "ls",
// "bp" and "ctl" were raw keys), each a key the format takes for a side,
// a unit, an AA unit, a bomber or an aircraft, said once.
func TestKeyWords(t *testing.T) {
	seen := map[string]bool{}
	unit := "{type: INF, factors: 4, nation: GE, %s: %s}"
	for _, w := range KeyWords {
		if w.Label == "" || w.About == "" || strings.Contains(w.Label, "_") || seen[w.Key] {
			t.Errorf("%s: label %q, about %q (said before: %v)", w.Key, w.Label, w.About, seen[w.Key])
		}
		seen[w.Key] = true
		var docs []string
		for _, v := range []string{"1", "true", "dark", "support"} {
			u := fmt.Sprintf(unit, w.Key, v)
			docs = append(docs,
				"kind: land\nattacker: {units: ["+u+"]}\ndefender: {units: [{type: INF, factors: 4, nation: FR}]}\n",
				"kind: land\nattacker: {"+w.Key+": "+v+", units: [{type: INF, factors: 4, nation: GE}]}\ndefender: {units: [{type: INF, factors: 4, nation: FR}]}\n",
				"kind: land\nattacker: {units: [{type: INF, factors: 4, nation: GE}], aircraft: [{a2a: 1, tactical: 1, "+w.Key+": "+v+"}]}\ndefender: {units: [{type: INF, factors: 4, nation: FR}]}\n",
				"kind: bombardment\ntarget: {factories: 2}\nbombers: [{a2a: 1, sb: 1, "+w.Key+": "+v+"}]\n",
				"kind: bombardment\ntarget: {factories: 2}\nbombers: [{a2a: 1, sb: 1}]\naa_units: [{factors: 1, "+w.Key+": "+v+"}]\n")
		}
		known := false
		for _, d := range docs {
			_, err := Parse("key.yaml", []byte(d))
			known = known || err == nil || !strings.Contains(err.Error(), "."+w.Key+": unknown key") && !strings.Contains(err.Error(), " "+w.Key+": unknown key")
		}
		if !known {
			t.Errorf("%s: no side, unit, aircraft, bomber or AA unit takes this key", w.Key)
		}
	}
}
