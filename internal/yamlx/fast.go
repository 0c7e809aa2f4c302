package yamlx

import (
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// fastParse reads the plain subset of YAML that hand-written scenario and
// table files use into the very nodes yaml.v3 builds (kind, style, tag,
// value, line and column; comments are dropped, which nothing reads),
// several times faster. Anything outside the subset, or anything it is
// not sure of, gives ok false and Parse hands the file to yaml.v3, which
// also words every syntax error: the subset only ever decides how fast a
// file is read, never what it means. Tests hold the two parsers to the
// same tree on every file in the repository, on generated documents and
// under fuzzing (docs/performance.md, reading a scenario).
//
// The subset: text indented with spaces; block mappings with simple keys,
// block sequences (their items may open a mapping on the dash's line),
// flow mappings and sequences on one line; plain scalars that are words,
// whole numbers or decimals; quoted strings without escapes; comments. No
// document markers, anchors, tags, block scalars, multi-line scalars,
// nulls or repeated keys.
func fastParse(data []byte) (*yaml.Node, bool) {
	var p fastParser
	return p.parse(data)
}

// parse is fastParse into p's blocks, reusing those large enough.
func (p *fastParser) parse(data []byte) (*yaml.Node, bool) {
	if !p.split(data) || len(p.lines) == 0 || p.lines[0].indent != 0 {
		return nil, false
	}
	// At most two nodes a colon, one a comma or dash, one a flow
	// collection and the root: nodes and child lists are handed out from
	// one block each.
	n := 1
	for _, l := range p.lines {
		for i := 0; i < len(l.text); i++ {
			switch l.text[i] {
			case ':':
				n += 2
			case ',', '-', '[', '{':
				n++
			}
		}
	}
	p.nodes, p.children = reuse(p.nodes, n), reuse(p.children, n)
	root, ok := p.block(0)
	if !ok || p.i != len(p.lines) {
		return nil, false
	}
	return root, true
}

// fastLine is a line with content: not blank, not only a comment.
type fastLine struct {
	no     int    // 1-based line number
	indent int    // leading spaces
	text   string // the line after its indentation
}

// reuse is s emptied when it holds n, or a new slice that does.
func reuse[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:0]
	}
	return make([]T, 0, n)
}

// sharedParsers are the parsers ParseShared reads with, kept with their
// blocks between parses.
var sharedParsers = sync.Pool{New: func() any { return new(fastParser) }}

// maxShared is the most nodes (or lines) a parser keeps in the pool: a
// large file's blocks are left to the collector rather than held.
const maxShared = 2048

// release clears what p handed out, so that the pool holds no pointer
// into a tree and no string of a file, and returns p to the pool.
func (p *fastParser) release() {
	clear(p.nodes)
	clear(p.children)
	clear(p.kids[:cap(p.kids)])
	clear(p.lines)
	p.nodes, p.children, p.kids, p.lines, p.i = p.nodes[:0], p.children[:0], p.kids[:0], p.lines[:0], 0
	if cap(p.nodes) <= maxShared && cap(p.children) <= maxShared && cap(p.lines) <= maxShared && cap(p.kids) <= maxShared {
		sharedParsers.Put(p)
	}
}

type fastParser struct {
	lines    []fastLine
	i        int          // the line being read
	nodes    []yaml.Node  // nodes are handed out from blocks, not one by one
	children []*yaml.Node // and so are the nodes' child lists
	kids     []*yaml.Node // children of the collections being read
	compares int          // key comparisons made looking for repeats (a test bounds them)
}

// split cuts data into lines with content. Tabs, carriage returns,
// control characters and lines past maxFastLine are outside the subset;
// so is non-ASCII text anywhere but in comments, and there too the
// characters YAML counts as line breaks or marks.
func (p *fastParser) split(data []byte) bool {
	if !utf8.Valid(data) {
		return false
	}
	s := string(data)
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			n++
		}
	}
	p.lines = reuse(p.lines, n+1)
	for no := 1; len(s) > 0; no++ {
		line := s
		if k := indexByte(s, '\n'); k >= 0 {
			line, s = s[:k], s[k+1:]
		} else {
			s = ""
		}
		if len(line) > maxFastLine {
			return false
		}
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		for i := 0; i < len(line); i++ {
			c := line[i]
			if c < 0x20 || c == 0x7f {
				return false
			}
			if c >= 0x80 {
				r, _ := utf8.DecodeRuneInString(line[i:])
				if r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r >= 0xfffe && r <= 0xffff {
					return false
				}
			}
		}
		text := line[indent:]
		if text == "" || text[0] == '#' {
			continue
		}
		p.lines = append(p.lines, fastLine{no, indent, text})
	}
	return true
}

// maxFastLine is the longest line the fast path reads: yaml.v3 refuses a
// key past 1024 characters, and Parse any line past MaxLine.
const maxFastLine = 1000

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// node hands out a node.
func (p *fastParser) node(kind yaml.Kind, tag string, line, col int) *yaml.Node {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]yaml.Node, 0, max(16, cap(p.nodes)))
	}
	p.nodes = append(p.nodes, yaml.Node{Kind: kind, Tag: tag, Line: line, Column: col})
	return &p.nodes[len(p.nodes)-1]
}

// content gives n the children pushed on p.kids since from.
func (p *fastParser) content(n *yaml.Node, from int) {
	kids := p.kids[from:]
	if len(p.children)+len(kids) > cap(p.children) {
		p.children = make([]*yaml.Node, 0, max(len(kids), cap(p.children)))
	}
	start := len(p.children)
	p.children = append(p.children, kids...)
	n.Content = p.children[start:len(p.children):len(p.children)]
	p.kids = p.kids[:from]
}

// block reads the block node whose first line is the current one, at
// indentation indent.
func (p *fastParser) block(indent int) (*yaml.Node, bool) {
	if isItem(p.lines[p.i].text) {
		return p.sequence(indent)
	}
	return p.mapping(indent)
}

func isItem(text string) bool { return text[0] == '-' && (len(text) == 1 || text[1] == ' ') }

// mapping reads a block mapping at indentation indent.
func (p *fastParser) mapping(indent int) (*yaml.Node, bool) {
	first := p.lines[p.i]
	m := p.node(yaml.MappingNode, "!!map", first.no, indent+1)
	from := len(p.kids)
	keys := keySet{from: from}
	for p.i < len(p.lines) && p.lines[p.i].indent == indent {
		l := p.lines[p.i]
		if isItem(l.text) {
			return nil, false
		}
		k := keyLen(l.text)
		if k == 0 || k == len(l.text) || l.text[k] != ':' || (k+1 < len(l.text) && l.text[k+1] != ' ') {
			return nil, false
		}
		key := l.text[:k]
		if !isStrKey(key) || p.repeated(&keys, key) {
			return nil, false // yaml.v3 words a repeated key's error
		}
		kn := p.node(yaml.ScalarNode, "!!str", l.no, indent+1)
		kn.Value = key
		pos := skipSpaces(l.text, k+1)
		var v *yaml.Node
		if pos == len(l.text) || l.text[pos] == '#' {
			p.i++
			switch {
			case p.i < len(p.lines) && p.lines[p.i].indent > indent:
				var ok bool
				if v, ok = p.block(p.lines[p.i].indent); !ok {
					return nil, false
				}
			case p.i < len(p.lines) && p.lines[p.i].indent == indent && isItem(p.lines[p.i].text):
				var ok bool
				if v, ok = p.sequence(indent); !ok {
					return nil, false
				}
			default:
				return nil, false // a null value
			}
		} else {
			var ok bool
			if v, pos, ok = p.inline(l, pos, false); !ok || !lineEnds(l.text, pos) {
				return nil, false
			}
			p.i++
		}
		p.kids = append(p.kids, kn, v)
	}
	if p.i < len(p.lines) && p.lines[p.i].indent > indent {
		return nil, false
	}
	p.content(m, from)
	return m, true
}

// keySet is the keys of the mapping being read, whose children start at
// from on p.kids: scanned while they are few, a set once there are more.
type keySet struct {
	from int
	seen map[string]struct{}
}

// fewKeys is how many keys a mapping holds before its repeats are looked
// up in a set: our mappings have a handful, and scanning them is cheaper
// than hashing; a long mapping scanned key by key would be quadratic
// (a megabyte of distinct keys took 18 s).
const fewKeys = 16

// repeated reports whether key is already a key of the mapping s, and
// counts it in once the mapping is long enough for a set.
func (p *fastParser) repeated(s *keySet, key string) bool {
	if s.seen == nil {
		n := (len(p.kids) - s.from) / 2
		if n < fewKeys {
			for j := s.from; j < len(p.kids); j += 2 {
				p.compares++
				if p.kids[j].Value == key {
					return true
				}
			}
			return false
		}
		s.seen = make(map[string]struct{}, 2*n)
		for j := s.from; j < len(p.kids); j += 2 {
			s.seen[p.kids[j].Value] = struct{}{}
		}
	}
	p.compares++
	if _, ok := s.seen[key]; ok {
		return true
	}
	s.seen[key] = struct{}{}
	return false
}

// sequence reads a block sequence whose dashes sit at indentation indent.
func (p *fastParser) sequence(indent int) (*yaml.Node, bool) {
	first := p.lines[p.i]
	s := p.node(yaml.SequenceNode, "!!seq", first.no, indent+1)
	from := len(p.kids)
	for p.i < len(p.lines) && p.lines[p.i].indent == indent && isItem(p.lines[p.i].text) {
		l := p.lines[p.i]
		pos := skipSpaces(l.text, 1)
		var v *yaml.Node
		var ok bool
		switch {
		case pos == len(l.text) || l.text[pos] == '#':
			p.i++
			if p.i == len(p.lines) || p.lines[p.i].indent <= indent {
				return nil, false // a null item
			}
			v, ok = p.block(p.lines[p.i].indent)
		case isKeyLine(l.text[pos:]):
			// "- key: value" opens a mapping at the key's column: read
			// the rest of the line as that mapping's first line.
			p.lines[p.i] = fastLine{l.no, indent + pos, l.text[pos:]}
			v, ok = p.mapping(indent + pos)
		default:
			if v, pos, ok = p.inline(l, pos, false); ok && !lineEnds(l.text, pos) {
				ok = false
			}
			p.i++
		}
		if !ok {
			return nil, false
		}
		p.kids = append(p.kids, v)
	}
	if p.i < len(p.lines) && p.lines[p.i].indent > indent {
		return nil, false
	}
	p.content(s, from)
	return s, true
}

// isKeyLine reports text that starts with a simple key and ": " (or a
// colon ending the line).
func isKeyLine(text string) bool {
	k := keyLen(text)
	return k > 0 && k < len(text) && text[k] == ':' && (k+1 == len(text) || text[k+1] == ' ')
}

// isStrKey reports a key yaml.v3 reads as a string (not true or false).
func isStrKey(key string) bool {
	tag, ok := plainTag(key)
	return ok && tag == "!!str"
}

// keyLen is the length of the simple key text starts with: a letter or
// underscore, then letters, digits, underscores and hyphens.
func keyLen(text string) int {
	if text == "" || !(isLetter(text[0]) || text[0] == '_') {
		return 0
	}
	k := 1
	for k < len(text) && (isLetter(text[k]) || isDigit(text[k]) || text[k] == '_' || text[k] == '-') {
		k++
	}
	return k
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

func skipSpaces(s string, pos int) int {
	for pos < len(s) && s[pos] == ' ' {
		pos++
	}
	return pos
}

// lineEnds reports whether only spaces, then nothing or a comment, follow
// pos; a comment needs a space before it.
func lineEnds(text string, pos int) bool {
	end := skipSpaces(text, pos)
	return end == len(text) || text[end] == '#' && end > pos
}

// inline reads the value at text[pos] of line l: a flow mapping or
// sequence, a quoted string or a plain scalar; flow says it sits inside
// a flow collection. It returns the position after it.
func (p *fastParser) inline(l fastLine, pos int, flow bool) (*yaml.Node, int, bool) {
	text := l.text
	line, col := l.no, l.indent+pos+1
	switch text[pos] {
	case '{', '[':
		return p.flow(l, pos)
	case '"', '\'':
		q := text[pos]
		end := pos + 1
		for end < len(text) && text[end] != q {
			if text[end] == '\\' || flow && text[end] >= 0x80 {
				// An escape; or, inside a flow collection, a character
				// that would put yaml.v3's columns after it apart from ours.
				return nil, 0, false
			}
			end++
		}
		if end == len(text) || end+1 < len(text) && text[end+1] == q {
			return nil, 0, false // unclosed, or an escaped quote
		}
		n := p.node(yaml.ScalarNode, "!!str", line, col)
		n.Value = text[pos+1 : end]
		n.Style = yaml.DoubleQuotedStyle
		if q == '\'' {
			n.Style = yaml.SingleQuotedStyle
		}
		return n, end + 1, true
	}
	end := pos
	for end < len(text) {
		c := text[end]
		if isLetter(c) || isDigit(c) || c == ' ' || c == '_' || c == '-' || c == '.' || c == '/' || c == '(' || c == ')' || c == '+' ||
			// The last node of its line (but a comment) may hold more:
			// no column after it is counted.
			!flow && (c >= 0x80 || strings.IndexByte(blockPlain, c) >= 0) {
			end++
			continue
		}
		if flow && (c == ',' || c == ']' || c == '}') || c == '#' && end > pos && text[end-1] == ' ' {
			break
		}
		return nil, 0, false
	}
	value := text[pos:end]
	for value != "" && value[len(value)-1] == ' ' {
		value = value[:len(value)-1]
	}
	tag, ok := plainTag(value)
	if !ok {
		return nil, 0, false
	}
	n := p.node(yaml.ScalarNode, tag, line, col)
	n.Value = value
	return n, pos + len(value), true
}

// blockPlain are the characters a plain scalar of the subset holds (past
// its first) only outside flow collections, where they end nothing.
const blockPlain = ",;=<>!?%&*\"'$~^@`\\"

// plainTag is the tag yaml.v3 resolves a plain scalar of the subset to:
// words are strings (true and false booleans), whole numbers ints and
// decimals floats. Anything else (a leading zero, an exponent, a null,
// a capitalised boolean, a number too long for an int64) is outside.
func plainTag(v string) (string, bool) {
	if v == "" {
		return "", false
	}
	if isLetter(v[0]) {
		switch v {
		case "true", "false":
			return "!!bool", true
		case "True", "TRUE", "False", "FALSE", "null", "Null", "NULL":
			return "", false
		}
		return "!!str", true
	}
	if isDigit(v[0]) && digitWord(v) {
		return "!!str", true
	}
	digits := v
	if digits[0] == '-' {
		digits = digits[1:]
	}
	whole, frac, dot := digits, "", false
	for i := 0; i < len(digits); i++ {
		if digits[i] == '.' {
			whole, frac, dot = digits[:i], digits[i+1:], true
			break
		}
	}
	if !allDigits(whole) || len(whole) > 1 && whole[0] == '0' || len(whole) > 18 {
		return "", false
	}
	if !dot {
		return "!!int", true
	}
	if !allDigits(frac) {
		return "", false
	}
	return "!!float", true
}

// digitWord reports a word that starts with a digit and that yaml.v3
// still reads as a string, such as 2d6: it starts with 1-9 (so no base
// prefix or octal), has a letter that no number or float has (not e), no
// underscore (which number parsing drops), and its leading digits are not
// followed by a hyphen (a date).
func digitWord(v string) bool {
	if v[0] == '0' {
		return false
	}
	i := 0
	for i < len(v) && isDigit(v[i]) {
		i++
	}
	if i < len(v) && v[i] == '-' {
		return false
	}
	word := false
	for j := 0; j < len(v); j++ {
		switch c := v[j]; {
		case c == '_':
			return false
		case isLetter(c) && c != 'e' && c != 'E':
			word = true
		}
	}
	return word
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// flow reads a flow mapping or sequence that opens at text[pos] and
// closes on the same line.
func (p *fastParser) flow(l fastLine, pos int) (*yaml.Node, int, bool) {
	text := l.text
	mapping := text[pos] == '{'
	closer := byte(']')
	n := p.node(yaml.SequenceNode, "!!seq", l.no, l.indent+pos+1)
	if mapping {
		closer = '}'
		n.Kind, n.Tag = yaml.MappingNode, "!!map"
	}
	n.Style = yaml.FlowStyle
	from := len(p.kids)
	keys := keySet{from: from}
	pos = skipSpaces(text, pos+1)
	if pos < len(text) && text[pos] == closer {
		p.content(n, from)
		return n, pos + 1, true
	}
	for {
		if pos == len(text) {
			return nil, 0, false
		}
		if mapping {
			k := keyLen(text[pos:])
			if k == 0 || pos+k+1 >= len(text) || text[pos+k] != ':' || text[pos+k+1] != ' ' {
				return nil, 0, false
			}
			key := text[pos : pos+k]
			if !isStrKey(key) || p.repeated(&keys, key) {
				return nil, 0, false
			}
			kn := p.node(yaml.ScalarNode, "!!str", l.no, l.indent+pos+1)
			kn.Value = key
			p.kids = append(p.kids, kn)
			pos = skipSpaces(text, pos+k+1)
			if pos == len(text) {
				return nil, 0, false
			}
		}
		v, end, ok := p.inline(l, pos, true)
		if !ok {
			return nil, 0, false
		}
		p.kids = append(p.kids, v)
		pos = skipSpaces(text, end)
		switch {
		case pos < len(text) && text[pos] == ',':
			pos = skipSpaces(text, pos+1)
			if pos < len(text) && text[pos] == closer {
				return nil, 0, false // a trailing comma
			}
		case pos < len(text) && text[pos] == closer:
			p.content(n, from)
			return n, pos + 1, true
		default:
			return nil, 0, false
		}
	}
}
