package yamlx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// MaxErrors bounds how many errors a Decoder keeps; a file that is wrong
// everywhere should not print thousands of lines.
const MaxErrors = 20

// MaxSize is the largest document Parse accepts. Scenario and table files
// are a few kilobytes; anything far larger is a mistake.
const MaxSize = 1 << 20

// Error is one problem at a position in a file.
type Error struct {
	File   string
	Line   int
	Column int
	Key    string // dotted key path, e.g. "attacker.units[1].factors"; may be empty
	Msg    string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Decoder accumulates positioned errors while a caller walks a document.
type Decoder struct {
	File string
	errs []error
	more int
	// Synonyms suggest a known key for an unknown one by meaning, where
	// spelling alone would not (river: across_river).
	Synonyms map[string]string
	// nulled holds the key paths already reported as having no value, so
	// a caller's own "missing" error for the same key is not repeated.
	nulled map[string]bool
}

// Parse parses data as a single YAML document and returns its root node.
// Anchors and aliases are refused: hand-written scenario files do not need
// them, and refusing them rules out exponential alias expansion.
func Parse(file string, data []byte) (*yaml.Node, error) {
	if len(data) > MaxSize {
		return nil, &Error{File: file, Msg: fmt.Sprintf("file is %d bytes; the limit is %d", len(data), MaxSize)}
	}
	// The fast path reads only text (no control characters, valid UTF-8)
	// with short lines, so what it takes passes the checks below.
	if root, ok := fastParse(data); ok {
		return checked(file, root)
	}
	return parseV3(file, data)
}

// ParseShared is Parse for a caller done with the tree before it calls
// release: the nodes the fast path handed out then go back to a pool for
// the next parse, instead of to the garbage collector (a scenario's nodes
// are most of what reading it allocates, and the web app reads one at
// each edit). Nothing of the tree may be used after release; the values'
// strings stay valid. release is never nil.
func ParseShared(file string, data []byte) (root *yaml.Node, release func(), err error) {
	if len(data) > MaxSize {
		return nil, func() {}, &Error{File: file, Msg: fmt.Sprintf("file is %d bytes; the limit is %d", len(data), MaxSize)}
	}
	p := sharedParsers.Get().(*fastParser)
	if root, ok := p.parse(data); ok {
		return root, p.release, nil
	}
	p.release()
	root, err = parseV3(file, data)
	return root, func() {}, err
}

// parseV3 is Parse by yaml.v3, with its checks.
func parseV3(file string, data []byte) (*yaml.Node, error) {
	if line, col, ok := notText(data); !ok {
		return nil, &Error{File: file, Line: line, Column: col, Msg: "not text: a scenario or table is a YAML text file in UTF-8"}
	}
	if line, n := longestLine(data); n > MaxLine {
		return nil, &Error{File: file, Line: line, Column: 1, Msg: fmt.Sprintf("line is %d characters long; a line holds at most %d", n, MaxLine)}
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		return nil, syntaxError(file, data, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &Error{File: file, Msg: "file is empty"}
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == io.EOF:
	case err != nil:
		return nil, syntaxError(file, data, err)
	default:
		return nil, &Error{File: file, Line: next.Line, Column: next.Column,
			Msg: "a second YAML document (after ---): a file holds one scenario or table"}
	}
	if n := findAlias(&doc); n != nil {
		return nil, &Error{File: file, Line: n.Line, Column: n.Column, Msg: "YAML anchors and aliases are not supported"}
	}
	if n := findCustomTag(&doc); n != nil {
		return nil, &Error{File: file, Line: n.Line, Column: n.Column, Msg: fmt.Sprintf("YAML tag %q is not supported", n.Tag)}
	}
	return checked(file, doc.Content[0])
}

// checked refuses a document with a key or value that is not one line
// of plain text (a "\n" in a quoted name, a bidi override): printed in a
// report, it could forge or disguise the report's lines.
func checked(file string, root *yaml.Node) (*yaml.Node, error) {
	n := findLineBreaker(root)
	if n == nil {
		return root, nil
	}
	return nil, &Error{File: file, Line: n.Line, Column: n.Column, Msg: CheckOneLine(n.Value).Error()}
}

// MaxLine is the longest line Parse accepts; the YAML parser's own limit on
// a key is 1024 characters, and it reports a longer one obscurely.
const MaxLine = 1024

// notText finds the first byte that cannot be in a text file (invalid
// UTF-8 or a control character other than tab, newline and carriage
// return) and returns its 1-based line and column.
func notText(data []byte) (line, col int, ok bool) {
	line, col = 1, 1
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		switch {
		case r == utf8.RuneError && size <= 1, r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0x7f:
			return line, col, false
		case r == '\n':
			line, col = line+1, 1
		default:
			col++
		}
		data = data[size:]
	}
	return 0, 0, true
}

// longestLine returns the 1-based number and length of the longest line.
func longestLine(data []byte) (line, n int) {
	for i, l := range bytes.Split(data, []byte("\n")) {
		if len(l) > n {
			line, n = i+1, len(l)
		}
	}
	return line, n
}

// syntaxError words a YAML syntax error for a player. A tab in a line's
// indentation is named as such, at its line and column: the parser's own
// message ("found character that cannot start any token") does not say it.
func syntaxError(file string, data []byte, err error) error {
	line := yamlErrLine(err)
	for i, l := range bytes.Split(data, []byte("\n")) {
		// The parser often names the line before the one at fault.
		if line > 0 && i > line {
			break
		}
		indent := l[:len(l)-len(bytes.TrimLeft(l, " \t"))]
		if col := bytes.IndexByte(indent, '\t'); col >= 0 {
			return &Error{File: file, Line: i + 1, Column: col + 1, Msg: "a tab in the indentation: YAML indents with spaces only"}
		}
	}
	lines := bytes.Split(data, []byte("\n"))
	msg := err.Error()
	switch {
	case strings.Contains(msg, "did not find expected ',' or ']'"), strings.Contains(msg, "did not find expected ',' or '}'"):
		if e := unclosedFlow(file, lines, line); e != nil {
			return e
		}
	case strings.Contains(msg, "found unexpected end of stream"), strings.Contains(msg, "found unexpected end of"):
		if e := unclosedQuote(file, lines, line); e != nil {
			return e
		}
	case strings.Contains(msg, "did not find expected key"), strings.Contains(msg, "mapping values are not allowed"):
		if e := strayIndent(file, lines, line); e != nil {
			return e
		}
	}
	return &Error{File: file, Line: line, Column: 1, Msg: cleanYAMLError(err)}
}

// unclosedFlow finds, from the line the parser names, the first line that
// opens a [ list or { mapping it does not close.
func unclosedFlow(file string, lines [][]byte, from int) error {
	for i := max(from-1, 0); i < len(lines); i++ {
		depth, open := 0, -1
		text := lines[i]
		if k := bytes.Index(text, []byte(" #")); k >= 0 {
			text = text[:k] // a comment
		}
		for j, c := range text {
			switch c {
			case '[', '{':
				if depth == 0 {
					open = j
				}
				depth++
			case ']', '}':
				depth--
			}
		}
		if depth > 0 {
			what := map[byte]string{'[': "a [ list", '{': "a { mapping"}[lines[i][open]]
			return &Error{File: file, Line: i + 1, Column: open + 1, Msg: fmt.Sprintf("invalid YAML: %s opens here and is not closed on this line", what)}
		}
	}
	return nil
}

// unclosedQuote finds the first line with a quote it does not close.
func unclosedQuote(file string, lines [][]byte, from int) error {
	for i := max(from-1, 0); i < len(lines); i++ {
		for _, q := range []byte{'"', '\''} {
			if n := bytes.Count(lines[i], []byte{q}); n%2 == 1 {
				col := bytes.IndexByte(lines[i], q)
				return &Error{File: file, Line: i + 1, Column: col + 1, Msg: fmt.Sprintf("invalid YAML: a string opened with %c here is not closed", q)}
			}
		}
	}
	return nil
}

// strayIndent finds, after the line the parser names, the first line whose
// indentation matches none of the keys it could belong to.
func strayIndent(file string, lines [][]byte, from int) error {
	var levels []int
	for i := max(from-1, 0); i < len(lines); i++ {
		t := bytes.TrimLeft(lines[i], " ")
		if len(bytes.TrimSpace(t)) == 0 || t[0] == '#' {
			continue
		}
		ind := len(lines[i]) - len(t)
		if bytes.HasPrefix(t, []byte("- ")) {
			// A list item's keys sit two columns further in.
			levels = append(levels, ind, ind+2)
			continue
		}
		popped := false
		for len(levels) > 0 && levels[len(levels)-1] > ind {
			levels, popped = levels[:len(levels)-1], true
		}
		switch {
		case len(levels) > 0 && levels[len(levels)-1] == ind:
		case popped:
			// Back out of a deeper level to a column no key above uses.
			return &Error{File: file, Line: i + 1, Column: ind + 1, Msg: fmt.Sprintf("invalid YAML: this line is indented %d spaces, which lines up with no key above it", ind)}
		default:
			levels = append(levels, ind)
		}
	}
	return nil
}

func findAlias(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return n
	}
	for _, c := range n.Content {
		if a := findAlias(c); a != nil {
			return a
		}
	}
	return nil
}

// findCustomTag finds a node with an application tag such as !foo; only
// the standard !! tags mean anything here.
func findCustomTag(n *yaml.Node) *yaml.Node {
	if n.Kind != yaml.DocumentNode && n.Tag != "" && !strings.HasPrefix(n.Tag, "!!") {
		return n
	}
	for _, c := range n.Content {
		if a := findCustomTag(c); a != nil {
			return a
		}
	}
	return nil
}

// yamlErrLine extracts "line N" from a yaml.v3 syntax error message.
func yamlErrLine(err error) int {
	s := err.Error()
	i := strings.Index(s, "line ")
	if i < 0 {
		return 0
	}
	j := i + 5
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	n, _ := strconv.Atoi(s[i+5 : j])
	return n
}

func cleanYAMLError(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	if i := strings.Index(s, "line "); i == 0 {
		if j := strings.Index(s, ": "); j > 0 {
			s = s[j+2:]
		}
	}
	return "invalid YAML: " + s
}

// Errorf records an error at node n (which may be nil) for the key path.
func (d *Decoder) Errorf(n *yaml.Node, key, format string, args ...any) {
	if d.nulled[key] {
		return
	}
	if len(d.errs) >= MaxErrors {
		d.more++
		return
	}
	e := &Error{File: d.File, Key: key, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	d.errs = append(d.errs, e)
}

// Err returns every recorded error joined, or nil.
func (d *Decoder) Err() error {
	if len(d.errs) == 0 {
		return nil
	}
	errs := d.errs
	if d.more > 0 {
		errs = append(errs[:len(errs):len(errs)], fmt.Errorf("%s: and %d more errors", d.File, d.more))
	}
	return errors.Join(errs...)
}

// Pos is where node n (which may be nil) is in the file: "file:line:col",
// or the file alone.
func (d *Decoder) Pos(n *yaml.Node) string {
	if n == nil || n.Line == 0 {
		return d.File
	}
	return fmt.Sprintf("%s:%d:%d", d.File, n.Line, n.Column)
}

// Failed reports whether any error has been recorded.
func (d *Decoder) Failed() bool { return len(d.errs) > 0 }

// Map is a mapping node being decoded. Reading a key marks it used; Close
// reports every key that was never read as unknown.
type Map struct {
	d    *Decoder
	node *yaml.Node
	path string
	keys []*yaml.Node
	vals []*yaml.Node
	used []bool
}

// Map starts decoding n as a mapping at the key path. A nil node (an absent
// optional section) gives an empty Map; a node of another kind records an
// error and also gives an empty Map, so callers need no special cases.
func (d *Decoder) Map(n *yaml.Node, path string) *Map {
	m := &Map{d: d, node: n, path: path}
	if n == nil || isNull(n) {
		return m
	}
	if n.Kind != yaml.MappingNode {
		d.Errorf(n, path, "expected a mapping of keys to values, found %s", describe(n))
		return m
	}
	pairs := len(n.Content) / 2
	m.keys, m.vals, m.used = make([]*yaml.Node, 0, pairs), make([]*yaml.Node, 0, pairs), make([]bool, 0, pairs)
	// A mapping has a handful of keys: look for a repeat among those kept;
	// only a long one is worth a set.
	var seen map[string]bool
	if pairs > 16 {
		seen = make(map[string]bool, pairs)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.Errorf(k, path, "keys must be plain words, found %s", describe(k))
			continue
		}
		if seen != nil && seen[k.Value] || seen == nil && m.Has(k.Value) {
			d.Errorf(k, m.Join(k.Value), "key appears twice")
			continue
		}
		if seen != nil {
			seen[k.Value] = true
		}
		m.keys = append(m.keys, k)
		m.vals = append(m.vals, v)
		m.used = append(m.used, false)
	}
	return m
}

// Path is the key path of the mapping.
func (m *Map) Path() string { return m.path }

// Node is the mapping node itself (nil for an absent section).
func (m *Map) Node() *yaml.Node { return m.node }

// Join returns the path of key inside the mapping.
func (m *Map) Join(key string) string {
	if m.path == "" {
		return key
	}
	return m.path + "." + key
}

// Get returns the value node for key and marks it used, or nil when absent.
// A key that is present with no value (empty, ~ or null) is an error, once:
// it would otherwise read as absent and take a default the writer did not
// choose.
func (m *Map) Get(key string) *yaml.Node {
	for i, k := range m.keys {
		if k.Value == key {
			if isNull(m.vals[i]) {
				if !m.used[i] {
					m.d.Errorf(k, m.Join(key), "no value: give one or remove the key")
					if m.d.nulled == nil {
						m.d.nulled = map[string]bool{}
					}
					m.d.nulled[m.Join(key)] = true
				}
				m.used[i] = true
				return nil
			}
			m.used[i] = true
			return m.vals[i]
		}
	}
	return nil
}

// Has reports whether key is present (without marking it used).
func (m *Map) Has(key string) bool {
	for _, k := range m.keys {
		if k.Value == key {
			return true
		}
	}
	return false
}

// Keys lists the keys present, in file order.
func (m *Map) Keys() []*yaml.Node { return m.keys }

// Close reports each key that was present but never read, suggesting the
// closest known key when one is near.
func (m *Map) Close(known ...string) {
	for i, k := range m.keys {
		if m.used[i] {
			continue
		}
		if len(m.d.errs) >= MaxErrors {
			// Only counted now: no suggestion is worked out for an error
			// nobody sees (a file of 100,000 unknown keys spent a second
			// on them).
			m.d.more++
			continue
		}
		msg := "unknown key"
		if s, ok := m.d.Synonyms[strings.ToLower(k.Value)]; ok && slices.Contains(known, s) {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		} else if s := closest(k.Value, known); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		m.d.Errorf(k, m.Join(k.Value), "%s", msg)
	}
}

// Str reads a string value into dst when present.
func (m *Map) Str(key string, dst *string) bool {
	n := m.Get(key)
	if n == nil {
		return false
	}
	s, ok := m.d.scalar(n, keyPath{m, key})
	if ok {
		*dst = s
	}
	return ok
}

// Float reads a finite number into dst when present.
func (m *Map) Float(key string, dst *float64) bool {
	n := m.Get(key)
	if n == nil {
		return false
	}
	v, ok := m.d.float(n, keyPath{m, key})
	if ok {
		*dst = v
	}
	return ok
}

// Int reads a whole number into dst when present.
func (m *Map) Int(key string, dst *int) bool {
	n := m.Get(key)
	if n == nil {
		return false
	}
	v, ok := m.d.int(n, keyPath{m, key})
	if ok {
		*dst = v
	}
	return ok
}

// Bool reads true or false into dst when present.
func (m *Map) Bool(key string, dst *bool) bool {
	n := m.Get(key)
	if n == nil {
		return false
	}
	v, ok := m.d.bool(n, keyPath{m, key})
	if ok {
		*dst = v
	}
	return ok
}

// Enum reads a value that must be one of known, matched without regard to
// case, into dst as known spells it. An unknown value is an error naming
// what it is, suggesting the nearest known value and listing them all.
func (m *Map) Enum(key, what string, known []string, dst *string) bool {
	n := m.Get(key)
	if n == nil {
		return false
	}
	v, ok := m.d.enum(n, keyPath{m, key}, what, known)
	if ok {
		*dst = v
	}
	return ok
}

// Enum checks a scalar against known, as Map.Enum does.
func (d *Decoder) Enum(n *yaml.Node, key, what string, known []string) (string, bool) {
	return d.enum(n, keyPath{key: key}, what, known)
}

func (d *Decoder) enum(n *yaml.Node, at keyPath, what string, known []string) (string, bool) {
	s, ok := d.scalar(n, at)
	if !ok {
		return "", false
	}
	t := strings.TrimSpace(s)
	for _, k := range known {
		if strings.EqualFold(t, k) {
			return k, true
		}
	}
	msg := fmt.Sprintf("unknown %s %q", what, s)
	lower := make([]string, len(known))
	for i, k := range known {
		lower[i] = strings.ToLower(k)
	}
	if c := closest(strings.ToLower(t), lower); c != "" {
		for _, k := range known {
			if strings.ToLower(k) == c {
				msg += fmt.Sprintf(" (did you mean %q?)", k)
			}
		}
	}
	d.Errorf(n, at.String(), "%s; want %s", msg, oneOf(known))
	return "", false
}

// oneOf words a list of choices: "a, b or c".
func oneOf(xs []string) string {
	if len(xs) == 1 {
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// Seq returns the items of a sequence value (nil when absent). A scalar or
// mapping in its place records an error.
func (m *Map) Seq(key string) []*yaml.Node {
	n := m.Get(key)
	if n == nil {
		return nil
	}
	return m.d.Seq(n, m.Join(key))
}

// Scalar returns the text of a scalar node.
func (d *Decoder) Scalar(n *yaml.Node, key string) (string, bool) {
	return d.scalar(n, keyPath{key: key})
}

func (d *Decoder) scalar(n *yaml.Node, at keyPath) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		d.Errorf(n, at.String(), "expected a single value, found %s", describe(n))
		return "", false
	}
	return n.Value, true
}

// float parses a finite decimal number.
func (d *Decoder) float(n *yaml.Node, at keyPath) (float64, bool) {
	text, ok := d.decimal(n, at, "a number")
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		d.Errorf(n, at.String(), "expected a number, found %q", n.Value)
		return 0, false
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		d.Errorf(n, at.String(), "expected a finite number, found %q", n.Value)
		return 0, false
	}
	return v, true
}

// Int parses a decimal whole number that fits comfortably in an int32.
func (d *Decoder) Int(n *yaml.Node, key string) (int, bool) { return d.int(n, keyPath{key: key}) }

func (d *Decoder) int(n *yaml.Node, at keyPath) (int, bool) {
	text, ok := d.decimal(n, at, "a whole number")
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		if _, ferr := strconv.ParseFloat(text, 64); ferr == nil && !strings.ContainsAny(text, "eE") {
			d.Errorf(n, at.String(), "expected a whole number, found number %s", n.Value)
		} else {
			d.Errorf(n, at.String(), "whole number %q is out of range", n.Value)
		}
		return 0, false
	}
	if v > math.MaxInt32 || v < math.MinInt32 {
		d.Errorf(n, at.String(), "whole number %q is out of range", n.Value)
		return 0, false
	}
	return int(v), true
}

// decimal returns a number's text ready for base-10 parsing. Every number
// is read as decimal, the same way everywhere: YAML's 0x, 0o and 0b forms
// are refused, and a leading zero does not make a number octal (010 is
// ten, as a player means it).
func (d *Decoder) decimal(n *yaml.Node, at keyPath, want string) (string, bool) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && n.Style == 0 {
		// YAML reads a plain number too large for a float (1e400) as
		// text: say what it is.
		if _, err := strconv.ParseFloat(n.Value, 64); errors.Is(err, strconv.ErrRange) {
			d.Errorf(n, at.String(), "number %q is out of range", n.Value)
			return "", false
		}
	}
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
		d.Errorf(n, at.String(), "expected %s, found %s", want, describe(n))
		return "", false
	}
	text := strings.ReplaceAll(n.Value, "_", "")
	digits := strings.TrimLeft(text, "+-")
	if len(digits) > 1 && digits[0] == '0' && strings.ContainsAny(digits[1:2], "xXoObB") {
		d.Errorf(n, at.String(), "write numbers in decimal, found %q", n.Value)
		return "", false
	}
	if strings.HasPrefix(digits, ".") && (strings.EqualFold(digits, ".inf") || strings.EqualFold(digits, ".nan")) {
		d.Errorf(n, at.String(), "expected a finite number, found %q", n.Value)
		return "", false
	}
	return text, true
}

// bool parses true or false.
func (d *Decoder) bool(n *yaml.Node, at keyPath) (bool, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		d.Errorf(n, at.String(), "expected true or false, found %s", describe(n))
		return false, false
	}
	v, err := strconv.ParseBool(n.Value)
	if err != nil {
		d.Errorf(n, at.String(), "expected true or false, found %q", n.Value)
		return false, false
	}
	return v, true
}

// keyPath is the key path of a value, worked out only when an error
// names it: reading a file builds no paths for the values that are fine.
type keyPath struct {
	m   *Map   // the mapping the value is under, or nil
	key string // its key there; with no mapping, the whole path
}

func (k keyPath) String() string {
	if k.m == nil {
		return k.key
	}
	return k.m.Join(k.key)
}

// Seq returns the items of a sequence node.
func (d *Decoder) Seq(n *yaml.Node, key string) []*yaml.Node {
	if n.Kind != yaml.SequenceNode {
		d.Errorf(n, key, "expected a list, found %s", describe(n))
		return nil
	}
	return n.Content
}

// Index is the key path of item i of a list at key.
func Index(key string, i int) string { return key + "[" + strconv.Itoa(i) + "]" }

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "nothing"
		case "!!bool":
			return "true/false " + strconv.Quote(n.Value)
		case "!!int", "!!float":
			return "number " + n.Value
		}
		return "text " + strconv.Quote(n.Value)
	}
	return "an unsupported YAML node"
}

// closest returns the known word nearest to s by edit distance, when the
// distance is small enough to be a likely typo.
func closest(s string, known []string) string {
	best, bestD := "", 3
	sorted := append([]string(nil), known...)
	sort.Strings(sorted)
	for _, k := range sorted {
		if d := editDistance(s, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// Closest is closest, exported for callers validating enumerated values.
func Closest(s string, known []string) string { return closest(s, known) }

// Distance is editDistance, exported for callers that rank suggestions
// of several kinds.
func Distance(a, b string) int { return editDistance(a, b) }

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and transpositions of neighbours each cost 1, so
// "trails" is one step from "trials" (and two from "raids").
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
