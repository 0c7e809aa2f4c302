package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Sanitise returns s with every character a terminal could act on shown
// escaped instead: C0 controls but newline and tab, DEL and invalid UTF-8
// bytes as \xNN; C1 controls (U+0080 to U+009F, among them U+009B, a
// one-character CSI), the line and paragraph separators U+2028 and U+2029
// and the bidirectional controls (U+202A to U+202E, U+2066 to U+2069, which
// reverse the text after them) as \uNNNN. Escaping ESC escapes every sequence that
// starts with it: a scenario named "\e]52;c;…\a" (OSC 52, which sets the
// clipboard) prints as \x1b]52;c;…\x07. Text, CSV and Markdown reports
// pass through it once, as they are written, so every user string they
// quote (names of scenarios, variants, plans, tables, units) is covered
// without escaping each; the command does the same for its error messages.
// Newline and tab stay, as the writers' own: a user string cannot hold them,
// since names, ids and keys are refused at parse when they are not one line
// (yamlx.LineBreaker).
// A string with nothing to escape is returned as it is.
func Sanitise(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if isControl(rune(c)) {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || isControl(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1, r < utf8.RuneSelf && isControl(r):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isControl reports the characters Sanitise escapes (invalid bytes aside).
func isControl(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f ||
		r == 0x2028 || r == 0x2029 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// writeText writes a text or Markdown report, sanitised.
func writeText(w io.Writer, s string) error {
	_, err := io.WriteString(w, Sanitise(s))
	return err
}

// newCSV is a CSV writer into a buffer; flush writes what it holds to w,
// sanitised (a CSV file is read in terminals too).
func newCSV(w io.Writer) (*csv.Writer, func() error) {
	var b strings.Builder
	cw := csv.NewWriter(&b)
	return cw, func() error {
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		return writeText(w, b.String())
	}
}
