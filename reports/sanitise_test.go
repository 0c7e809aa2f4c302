package reports

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// Issue 23 item 14: control characters in user strings are shown escaped.
func TestSanitise(t *testing.T) {
	for in, want := range map[string]string{
		"plain-2d6 (3:1)\tok\n":       "plain-2d6 (3:1)\tok\n",
		"Überfall ≥ 3 — ok":           "Überfall ≥ 3 — ok",
		"\x1b]52;c;aGk=\a":            `\x1b]52;c;aGk=\x07`,
		"\x1b[2J\x1b[31mred":          `\x1b[2J\x1b[31mred`,
		"csi\u009b31m":                `csi\u009b31m`,
		"c1 \u0080 to \u009f":         `c1 \u0080 to \u009f`,
		"del\x7f cr\r bs\b nul\x00":   `del\x7f cr\x0d bs\x08 nul\x00`,
		"bad \x9b byte \xc2":          `bad \x9b byte \xc2`,
		"\u00a0 and \u00ff are print": "\u00a0 and \u00ff are print",
		// Red-team finding F1: bidi overrides reverse what follows on a
		// terminal ("\u202egnp.exe" shows as exe.png); U+2028 breaks lines.
		"\u202egnp.exe \u2066x\u2069":                           `\u202egnp.exe \u2066x\u2069`,
		"a\u2028b\u2029c \u202a\u202b\u202c\u202d \u2067\u2068": `a\u2028b\u2029c \u202a\u202b\u202c\u202d \u2067\u2068`,
		"\u200f\u2065\u206a fine":                               "\u200f\u2065\u206a fine",
	} {
		if got := Sanitise(in); got != want {
			t.Errorf("Sanitise(%q) = %q, want %q", in, got, want)
		}
	}
	clean := "a clean report line\n"
	if n := testing.AllocsPerRun(100, func() { Sanitise(clean) }); n != 0 {
		t.Errorf("a clean string cost %v allocations", n)
	}
}

// Issue 23 item 14: JSON escapes DEL and C1 too, and still decodes to the
// same string.
func TestJSONEscapesControls(t *testing.T) {
	name := "\x1b]52;c;x\a \u009b31m \x7f ok"
	var b bytes.Buffer
	if err := WriteJSON(&b, map[string]string{"name": name}); err != nil {
		t.Fatal(err)
	}
	if raw := Sanitise(b.String()); raw != b.String() {
		t.Errorf("JSON holds raw controls: %q", b.String())
	}
	for _, esc := range []string{`\u001b`, `\u0007`, `\u009b`, `\u007f`} {
		if !strings.Contains(b.String(), esc) {
			t.Errorf("JSON lacks %s: %s", esc, b.String())
		}
	}
	var back map[string]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back["name"] != name {
		t.Errorf("decoded %q, %v; want %q", back["name"], err, name)
	}
}

// Sanitise leaves no control character or invalid byte, changes only a
// string that held one, and a second pass changes nothing.
func FuzzSanitise(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]52;c;x\a", "\u009b31m", "\xc2", "\xc2\x9b", "tab\tnl\n", "\x7f\u0080\u00a0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Sanitise(s)
		for i, r := range got {
			if isControl(r) || r == utf8.RuneError && !strings.HasPrefix(got[i:], "\uFFFD") {
				t.Fatalf("Sanitise(%q) = %q holds %q at %d", s, got, r, i)
			}
		}
		if Sanitise(got) != got {
			t.Fatalf("Sanitise(%q) = %q is changed again", s, got)
		}
		clean := utf8.ValidString(s) && !strings.ContainsFunc(s, isControl)
		if clean != (got == s) {
			t.Fatalf("Sanitise(%q) = %q; clean %v", s, got, clean)
		}
	})
}
