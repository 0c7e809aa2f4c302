package yamlx

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func decode(t *testing.T, src string) (*Decoder, *Map) {
	t.Helper()
	root, err := Parse("f.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	d := &Decoder{File: "f.yaml"}
	return d, d.Map(root, "")
}

func TestDecodeValuesAndUnknownKeys(t *testing.T) {
	d, m := decode(t, "a: 1\nb: 2.5\nc: true\nd: text\ne: [1, 2]\nnmae: x\n")
	var a int
	var b float64
	var c bool
	var s string
	if !m.Int("a", &a) || !m.Float("b", &b) || !m.Bool("c", &c) || !m.Str("d", &s) || len(m.Seq("e")) != 2 {
		t.Fatal("values not read")
	}
	if a != 1 || b != 2.5 || !c || s != "text" {
		t.Errorf("got %v %v %v %q", a, b, c, s)
	}
	m.Close("a", "b", "c", "d", "e", "name")
	if err := d.Err(); err == nil || err.Error() != `f.yaml:6:1: nmae: unknown key (did you mean "name"?)` {
		t.Errorf("unknown key: %v", err)
	}
}

func TestDecodeTypeErrors(t *testing.T) {
	d, m := decode(t, "a: x\nb: [1]\nc: 3\nd: 1.5\ne: .nan\n")
	var i int
	var f float64
	var c bool
	m.Int("a", &i)
	m.Float("b", &f)
	m.Bool("c", &c)
	m.Int("d", &i)
	m.Float("e", &f)
	err := d.Err()
	for _, want := range []string{
		`f.yaml:1:4: a: expected a whole number, found text "x"`,
		"f.yaml:2:4: b: expected a number, found a list",
		"f.yaml:3:4: c: expected true or false, found number 3",
		"f.yaml:4:4: d: expected a whole number, found number 1.5",
		`e: expected a finite number, found ".nan"`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("errors %v lack %q", err, want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for src, want := range map[string]string{
		"a: &x 1\nb: *x\n":             "anchors and aliases are not supported",
		"a: !custom 1\n":               `tag "!custom" is not supported`,
		"":                             "file is empty",
		"a: [1\n":                      "invalid YAML",
		"a: 1\na: 2\n":                 "", // duplicate keys are the Map's to report
		strings.Repeat("#", MaxSize+1): "the limit is",
	} {
		_, err := Parse("f.yaml", []byte(src))
		if want == "" {
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.20q: %v, want %q", src, err, want)
		}
	}
	d, m := decode(t, "a: 1\na: 2\n")
	m.Close("a")
	if err := d.Err(); err == nil || !strings.Contains(err.Error(), "f.yaml:2:1: a: key appears twice") {
		t.Errorf("duplicate key: %v", err)
	}
}

func TestMaxErrors(t *testing.T) {
	var src strings.Builder
	for i := 0; i < MaxErrors+5; i++ {
		src.WriteString("k")
		src.WriteString(strings.Repeat("x", i+1))
		src.WriteString(": 1\n")
	}
	d, m := decode(t, src.String())
	m.Close()
	err := d.Err()
	if err == nil || !strings.Contains(err.Error(), "and 5 more errors") || strings.Count(err.Error(), "unknown key") != MaxErrors {
		t.Errorf("error cap: %v", err)
	}
}

// Audit item 4: every number is decimal, the same way for whole numbers and
// numbers with fractions; a leading zero never makes one octal.
func TestOctalNumbersReadAsDecimal(t *testing.T) {
	d, m := decode(t, "a: 010\nb: 09\nc: 010\nd: -007\ne: 1_000\n")
	var a, b, dd, e int
	var c float64
	if !m.Int("a", &a) || !m.Int("b", &b) || !m.Float("c", &c) || !m.Int("d", &dd) || !m.Int("e", &e) {
		t.Fatalf("not read: %v", d.Err())
	}
	if a != 10 || b != 9 || c != 10 || dd != -7 || e != 1000 {
		t.Errorf("got %d %d %v %d %d, want 10 9 10 -7 1000", a, b, c, dd, e)
	}
	d, m = decode(t, "a: 0x10\nb: 0o10\nc: 0b11\n")
	var x int
	var f float64
	m.Int("a", &x)
	m.Int("b", &x)
	m.Float("c", &f)
	for _, want := range []string{`f.yaml:1:4: a: write numbers in decimal, found "0x10"`, `f.yaml:2:4: b: write numbers in decimal`, `f.yaml:3:4: c: write numbers in decimal`} {
		if err := d.Err(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("errors %v lack %q", err, want)
		}
	}
}

// Audit item 5: a key present with no value is an error, not an absent key
// that takes its default.
func TestNullValuesAreErrors(t *testing.T) {
	for _, src := range []string{"factors: ~\n", "factors:\n", "factors: null\n"} {
		d, m := decode(t, src)
		var f float64
		if m.Float("factors", &f) {
			t.Errorf("%q: read %v from no value", src, f)
		}
		m.Get("factors") // a second look does not repeat the error
		err := d.Err()
		if err == nil || err.Error() != "f.yaml:1:1: factors: no value: give one or remove the key" {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// Audit item 8: a second YAML document is refused, not ignored.
func TestSecondDocumentRefused(t *testing.T) {
	_, err := Parse("f.yaml", []byte("a: 1\n---\nb: 2\n"))
	if err == nil || err.Error() != "f.yaml:2:1: a second YAML document (after ---): a file holds one scenario or table" {
		t.Errorf("got %v", err)
	}
	if _, err := Parse("f.yaml", []byte("---\na: 1\n")); err != nil {
		t.Errorf("a leading --- is one document: %v", err)
	}
}

// Audit item 12: tabs in the indentation and over-long lines get messages
// that say what is wrong, at the right line and column.
func TestSyntaxErrorsWorded(t *testing.T) {
	cases := map[string]string{
		"a:\n\tb: 1\n":                      "f.yaml:2:1: a tab in the indentation: YAML indents with spaces only",
		"a: 1\nb:\n  c: 2\n  \td: 3\n":      "f.yaml:4:3: a tab in the indentation: YAML indents with spaces only",
		strings.Repeat("k", 2000) + ": 1\n": "f.yaml:1:1: line is 2003 characters long; a line holds at most 1024",
	}
	for src, want := range cases {
		if _, err := Parse("f.yaml", []byte(src)); err == nil || err.Error() != want {
			t.Errorf("%.20q: got %v, want %s", src, err, want)
		}
	}
}

// Audit item 12: a swapped pair of letters is one step, so --trails
// suggests --trials rather than --raids.
func TestClosestTransposition(t *testing.T) {
	if got := Closest("trails", []string{"raids", "trials", "seed"}); got != "trials" {
		t.Errorf("trails: got %q, want trials", got)
	}
	if got := Closest("modifer", []string{"modifier", "mode"}); got != "modifier" {
		t.Errorf("modifer: got %q", got)
	}
}

// FuzzParse: any bytes give a node tree or a positioned error, never a
// panic, and walking the tree with every reader never panics either.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a: 1\n", "a: [1, 2]\nb: {c: x}\n", "a:\n\tb: 1\n", "a: 1\n---\nb: 2\n", "a: ~\n", "a: 010\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := Parse("f.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.yaml") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		d := &Decoder{File: "f.yaml"}
		var walk func(n *yaml.Node, path string, depth int)
		walk = func(n *yaml.Node, path string, depth int) {
			if depth > 50 {
				return
			}
			switch n.Kind {
			case yaml.MappingNode:
				m := d.Map(n, path)
				for _, k := range m.Keys() {
					var i int
					var x float64
					var b bool
					var s string
					m.Int(k.Value, &i)
					m.Float(k.Value, &x)
					m.Bool(k.Value, &b)
					m.Str(k.Value, &s)
					if v := m.Get(k.Value); v != nil {
						walk(v, m.Join(k.Value), depth+1)
					}
				}
				m.Close()
			case yaml.SequenceNode:
				for i, c := range d.Seq(n, path) {
					walk(c, Index(path, i), depth+1)
				}
			}
		}
		walk(root, "", 0)
		if err := d.Err(); err != nil && !strings.HasPrefix(err.Error(), "f.yaml") {
			t.Fatalf("error without the file name: %v", err)
		}
	})
}

// Issue 15: syntax errors point at the real line and column.
func TestSyntaxErrorsPointAtTheMistake(t *testing.T) {
	cases := map[string]string{
		"kind: land\nattacker:\n  units: [{type: INF, factors: 6}\ndefender: 1\n": "f.yaml:3:10: invalid YAML: a [ list opens here and is not closed on this line",
		"kind: land\nname: \"abc\nattacker: x\n":                                  "f.yaml:2:7: invalid YAML: a string opened with \" here is not closed",
		"kind: land\nattacker:\n  units:\n    - type: INF\n   factors: 3\n":       "f.yaml:5:4: invalid YAML: this line is indented 3 spaces, which lines up with no key above it",
		"kind: land\nhex: {terrain: forest\nattacker: 1\n":                        "f.yaml:2:6: invalid YAML: a { mapping opens here and is not closed on this line",
	}
	for src, want := range cases {
		if _, err := Parse("f.yaml", []byte(src)); err == nil || err.Error() != want {
			t.Errorf("%q:\n got %v\nwant %s", src, err, want)
		}
	}
}

// A key or value that is not one line of plain text is refused where it
// is, on both parsers: printed in a report, "x\nP(hex taken) 99%" would
// forge a line (red-team finding F1), and U+202E reverses what follows.
func TestParseRefusesLineBreakers(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"name: \"x\\nP(hex taken)  99.99%\"\n", `f.yaml:1:7: "x\nP(hex taken)  99.99%" holds the character U+000A`},
		{"kind: land\n\"a\\nb\": 1\n", `f.yaml:2:1: "a\nb" holds the character U+000A`},
		{"name: \"a\\tb\"\n", `U+0009`},
		{"name: \"a\\rb\"\n", `U+000D`},
		{"name: \"\\u202Egnp.exe\"\n", `"\u202egnp.exe" holds the character U+202E`},
		{"name: \"\u2066x\"\n", `U+2066`},
		{"name: \"a\\Lb\"\n", `U+2028`},
		{"units:\n  - {name: \"Pz\\n  odds 99:1\"}\n", `f.yaml:2:12:`},
		{"name: |\n  two\n  lines\n", `U+000A`},
	} {
		_, err := Parse("f.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %s", c.src, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: the error itself breaks the line: %q", c.src, err)
		}
	}
	// Plain text, with letters of any script, is fine; so are the other
	// controls (ESC, BEL, C1), which every writer shows escaped.
	for _, src := range []string{"name: \"Panzer Gruppe — Süd, 東\"\n", "name: \"\\e]52;c;x\\a\\u009b\"\n"} {
		if _, err := Parse("f.yaml", []byte(src)); err != nil {
			t.Error(err)
		}
	}
}

// Red-team finding F12: a number too large for a float (1e400), which
// YAML reads as text, was reported as "found text"; it is out of range.
// Quoted, it is text.
func TestNumberOutOfRange(t *testing.T) {
	d, m := decode(t, "a: 1e400\nb: -1e400\nc: \"1e400\"\n")
	var f float64
	var i int
	m.Float("a", &f)
	m.Int("b", &i)
	m.Float("c", &f)
	err := d.Err()
	for _, want := range []string{`f.yaml:1:4: a: number "1e400" is out of range`, `f.yaml:2:4: b: number "-1e400" is out of range`, `f.yaml:3:4: c: expected a number, found text "1e400"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %s", err, want)
		}
	}
}
