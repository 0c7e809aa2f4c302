package yamlx

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// LineBreaker reports the first character in s that breaks or reorders a
// line of a report: newline, carriage return, tab, vertical tab, form
// feed, NEL (U+0085), the line and paragraph separators U+2028 and U+2029,
// and the bidirectional controls U+202A to U+202E and U+2066 to U+2069
// (which reverse the text after them on a terminal). Names, ids and keys
// are one line of text; a report prints them inside its own lines, so a
// newline in a name could forge a line of the report. The other control
// characters (ESC, BEL, C1) are accepted and shown escaped wherever they
// are printed (reports.Sanitise), which cannot do that for a newline or a
// tab, since the writers' own lines need theirs.
func LineBreaker(s string) (rune, bool) {
	for _, r := range s {
		if IsLineBreaker(r) {
			return r, true
		}
	}
	return 0, false
}

// IsLineBreaker reports whether r is one of the characters LineBreaker looks for.
func IsLineBreaker(r rune) bool {
	switch {
	case r < 0x20:
		return r >= '\t' && r <= '\r' // tab, newline, VT, FF, CR
	case r < 0x80:
		return false
	}
	return r == 0x85 || r == 0x2028 || r == 0x2029 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// CheckOneLine is the error for text (a name, an id, a key) holding a
// character LineBreaker finds, or nil.
func CheckOneLine(text string) error {
	if r, bad := LineBreaker(text); bad {
		return fmt.Errorf("%+q holds the character U+%04X, which breaks or reorders a line: names, ids and keys are one line of text", text, r)
	}
	return nil
}

// findLineBreaker finds a scalar (a key or a value) holding a character
// LineBreaker finds. Every string in our files is one line: a name, an id,
// a key, a number or a word.
func findLineBreaker(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.ScalarNode {
		if _, bad := LineBreaker(n.Value); bad {
			return n
		}
		return nil
	}
	for _, c := range n.Content {
		if a := findLineBreaker(c); a != nil {
			return a
		}
	}
	return nil
}
