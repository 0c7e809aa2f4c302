package web

import "fmt"

// A JSON scenario nests about five deep (attacker, units, a unit, a list
// in it); maxJSONDepth leaves room for any document the format accepts
// and none for the thousands of levels that make indenting costly.
const maxJSONDepth = 32

// maxIndented is the most a JSON body may grow to when indented: the
// size of the largest scenario file the CLI reads (1 MiB).
const maxIndented = 1 << 20

// boundJSON checks a JSON document's shape before anything decodes or
// indents it, in one pass that allocates nothing: it nests at most
// maxJSONDepth deep, and indenting it gives at most maxIndented bytes.
// Indenting puts each member and element on its own line, two spaces a
// level deep, so the indented size is bounded by the bytes plus, for each
// bracket, comma and colon, a newline and the indentation at its depth.
// Syntax is json.Indent's to check; this only walks brackets outside
// strings. It returns that bound on the indented size.
func boundJSON(data []byte) (int, error) {
	depth, size := 0, len(data)
	inString, escaped := false, false
	for i, c := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > maxJSONDepth {
				return 0, fmt.Errorf("byte %d: nested more than %d deep", i, maxJSONDepth)
			}
			size += 1 + 2*depth
		case '}', ']':
			depth = max(depth-1, 0)
			size += 1 + 2*depth
		case ',':
			size += 1 + 2*depth
		case ':':
			size++
		}
		if size > maxIndented {
			return 0, fmt.Errorf("byte %d: indented as a scenario file it would be over %d bytes", i, maxIndented)
		}
	}
	return size, nil
}
