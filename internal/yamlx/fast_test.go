package yamlx

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// slowParse is yaml.v3's reading of a one-document file: its root node.
func slowParse(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("empty")
	}
	return doc.Content[0], nil
}

// treeDiff describes the first difference between two node trees in
// everything a reader of them sees (comments aside), or "".
func treeDiff(a, b *yaml.Node, path string) string {
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Line != b.Line || a.Column != b.Column || a.Anchor != b.Anchor || (a.Alias == nil) != (b.Alias == nil) || len(a.Content) != len(b.Content) {
		return fmt.Sprintf("%s: fast {kind %v style %v tag %s value %q at %d:%d, %d children}, yaml.v3 {kind %v style %v tag %s value %q at %d:%d, %d children}",
			path, a.Kind, a.Style, a.Tag, a.Value, a.Line, a.Column, len(a.Content), b.Kind, b.Style, b.Tag, b.Value, b.Line, b.Column, len(b.Content))
	}
	for i := range a.Content {
		if d := treeDiff(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// agree fails the test when the fast parser reads data and yaml.v3 reads
// it differently or refuses it; it reports whether the fast path took it.
func agree(t *testing.T, name string, data []byte) bool {
	t.Helper()
	fast, ok := fastParse(data)
	if !ok {
		return false
	}
	slow, err := slowParse(data)
	if err != nil {
		t.Fatalf("%s: the fast parser read what yaml.v3 refuses (%v):\n%s", name, err, data)
	}
	if d := treeDiff(fast, slow, ""); d != "" {
		t.Fatalf("%s: %s\n%s", name, d, data)
	}
	return true
}

// Every YAML file in the repository reads the same through both parsers,
// and the scenario examples, the built-in tables and the benchmark
// scenarios all take the fast path.
func TestFastParseAgreesOnEveryFile(t *testing.T) {
	fast, all := 0, 0
	mustBeFast := []string{"examples/", "crt/data/", "crt/airdata/", "benchmarks/scenarios/"}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".yaml") && !strings.HasSuffix(path, ".yml") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		all++
		rel := filepath.ToSlash(strings.TrimPrefix(path, "../../"))
		if agree(t, rel, data) {
			fast++
			return nil
		}
		for _, dir := range mustBeFast {
			if strings.HasPrefix(rel, dir) {
				t.Errorf("%s: left to yaml.v3; it should take the fast path", rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d YAML files take the fast path", fast, all)
	if all < 20 {
		t.Fatalf("only %d YAML files found", all)
	}
}

// What the subset leaves to yaml.v3: its fast path refuses each of these,
// and Parse still reads or words them as yaml.v3 does.
func TestFastParseRefuses(t *testing.T) {
	for _, src := range []string{
		"a: 1\na: 2\n",             // a repeated key: yaml.v3's error
		"a: {b: 1, b: 2}\n",        // the same, in a flow mapping
		"a:\n",                     // a null
		"a: ~\n",                   // a null
		"a: null\n",                // a null
		"a: True\n",                // a capitalised boolean
		"true: 1\n",                // a boolean key
		"a: 010\n",                 // a leading zero (octal in YAML 1.1)
		"a: 1e3\n",                 // an exponent
		"a: .5\n",                  // a bare fraction
		"a: 1234567890123456789\n", // past an int64's reach
		"a: &x 1\nb: *x\n",         // anchors and aliases
		"a: !!str 1\n",             // tags
		"a: |\n  text\n",           // block scalars
		"a: b\n  c\n",              // a multi-line scalar
		"a: [1,\n  2]\n",           // a flow collection over lines
		"a: [1, 2,]\n",             // a trailing comma
		"a:\tb\n",                  // a tab
		"a: b\r\n",                 // a carriage return
		"a: \"x\\ty\"\n",           // an escape
		"a: 'it''s'\n",             // an escaped quote
		"---\na: 1\n",              // a document marker
		"a: 1\n---\nb: 2\n",        // a second document
		"  a: 1\n",                 // an indented root
		"a: 3:2\n",                 // a colon in a plain scalar
		"a: b#c\n",                 // a hash inside a plain scalar
		"a:\n  - x\n   - y\n",      // a stray indentation
		"a: {b: 1}x\n",             // text after a flow collection
		"",                         // empty
		"# only a comment\n",       // empty
		"a: 1\n b: 2\n",            // a deeper line after a value
		"a:\n  b: 1\n c: 2\n",      // indentation between levels
		"a: [b: 1]\n",              // a single-pair mapping in a flow sequence
		"a: {b:1}\n",               // a key without its space
		"a: -\n",                   // a lone dash
	} {
		if _, ok := fastParse([]byte(src)); ok {
			t.Errorf("%q: taken by the fast path", src)
		}
		root, err := Parse("f.yaml", []byte(src))
		slow, serr := slowParse([]byte(src))
		if (err == nil) != (serr == nil && slow != nil) && !strings.Contains(fmt.Sprint(err), "not supported") && !strings.Contains(fmt.Sprint(err), "second YAML document") && !strings.Contains(fmt.Sprint(err), "not text") && !strings.Contains(fmt.Sprint(err), "one line of text") {
			t.Errorf("%q: Parse %v, yaml.v3 %v", src, err, serr)
		}
		if err == nil && serr == nil {
			if d := treeDiff(root, slow, ""); d != "" {
				t.Errorf("%q: %s", src, d)
			}
		}
	}
}

// What the subset takes, read exactly as yaml.v3 reads it.
func TestFastParseTakes(t *testing.T) {
	for _, src := range []string{
		"a: 1\n",
		"a: -20\nb: 0\nc: -0.5\nd: 12.25\ne: 0.0\n",
		"name: Battle of the Bulge   # a comment\n",
		"a: \"<1:5\"\nb: '3:2'\nc: \"\"\n",
		"a: true\nb: false\nc: yes\nd: off\n",
		"a: {x: 1, y: [p, q], z: {}}\nb: []\n",
		"a:\n  b:\n    c: 1\n  d: 2\ne: 3\n",
		"units:\n- {type: INF}\n- {type: ARM}\nnext: 1\n",
		"units:\n  - type: INF\n    factors: 5\n  -   type: ARM\n      factors: 6\n",
		"a:\n  -\n    b: 1\n",
		"# head\n\na: 1 # tail\n\n# foot\n",
		"a: [ 1 , 2 ]\nb: { c: d }\n",
		"a: x-ray_1 (b) / c+d.e\n",
		"a: Düsseldorf, 1945 (see §5; x=y)\n",
		"options: [wild-results, fractional-odds]\n",
		"- a\n- b\n",
		"# § comments may hold any text\na: 1 # ✓\n",
	} {
		if !agree(t, src, []byte(src)) {
			t.Errorf("%q: left to yaml.v3", src)
		}
	}
}

// FuzzFastParse: whatever the fast parser takes, yaml.v3 reads to the same
// tree; it never panics.
func FuzzFastParse(f *testing.F) {
	for _, s := range []string{
		"a: 1\n", "a: [1, 2]\nb: {c: x}\n", "units:\n  - type: INF\n    factors: 5\n", "a:\n- x\n- {y: 'z'}\n",
		"name: x # c\nkind: land\nhex: {terrain: forest, weather: mud}\n", "a: -0.5\nb: \"q\"\n",
	} {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("../../examples/*.yaml")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		agree(t, "fuzz", data)
	})
}

// Generated documents of the subset's shapes, with scalars chosen to sit
// on the edges of yaml.v3's typing (dates, bases, exponents, words that
// start with digits), read the same by both parsers; most take the fast
// path.
func TestFastParseGenerated(t *testing.T) {
	scalars := []string{"1", "-20", "0", "-0", "00", "007", "0.5", "-0.25", "12.", ".5", "1e5", "1E5", "2d6", "1d10", "2e6", "2024-01-02", "2024-1-2",
		"1999x", "0x1F", "0o17", "0b101", "1_000", "12abc", "9e", "1.5x", "true", "false", "True", "FALSE", "null", "Null", "~", "yes", "no", "on", "y",
		"INF", "corps", "wild-results", "a b", "a  b", "x-ray_1", "Düsseldorf", "(a)", "a/b", "a+b", "a, b", "a;b", "a=b", "a<b", "a!", "a'b", "a\"b",
		"\"q\"", "'q'", "\"a # b\"", "'a, b'", "\"\"", "''", "\"§\"", "'it''s'", "\"a\\tb\"", ".inf", "-.inf", ".nan", "<<", "-", "a:b", "a #c", "a#c"}
	keys := []string{"a", "b", "kind", "x_y", "k-2", "true", "null", "Y", "on", "A1"}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	var flowValue func(depth int) string
	flowValue = func(depth int) string {
		switch r := rng.IntN(8); {
		case r == 0 && depth < 3:
			var parts []string
			for range rng.IntN(4) {
				parts = append(parts, pick(keys)+": "+flowValue(depth+1))
			}
			return "{" + strings.Join(parts, pick([]string{", ", ",", " , "})) + "}"
		case r == 1 && depth < 3:
			var parts []string
			for range rng.IntN(4) {
				parts = append(parts, flowValue(depth+1))
			}
			return "[" + strings.Join(parts, ", ") + "]"
		}
		return pick(scalars)
	}
	var block func(b *strings.Builder, indent, depth int)
	block = func(b *strings.Builder, indent, depth int) {
		pad := strings.Repeat(" ", indent)
		seq := rng.IntN(4) == 0
		for range 1 + rng.IntN(4) {
			if seq {
				b.WriteString(pad + "-")
				if depth < 4 && rng.IntN(3) == 0 {
					// "- key: value" opening a mapping.
					b.WriteString(" " + pick(keys) + ": " + flowValue(0) + "\n")
					b.WriteString(strings.Repeat(" ", indent+2) + pick(keys) + ": " + flowValue(0) + "\n")
					continue
				}
				b.WriteString(" " + flowValue(0) + "\n")
				continue
			}
			b.WriteString(pad + pick(keys) + ":")
			switch r := rng.IntN(6); {
			case r == 0 && depth < 4:
				b.WriteString(pick([]string{"", "  # note"}) + "\n")
				block(b, indent+1+rng.IntN(3), depth+1)
			case r == 1 && depth < 4:
				b.WriteString("\n")
				block(b, indent, depth+1) // may be a same-indent sequence
			default:
				b.WriteString(" " + flowValue(0) + pick([]string{"", " # c", "#c", "  "}) + "\n")
			}
			if rng.IntN(8) == 0 {
				b.WriteString(pick([]string{"\n", "# comment\n", pad + "  # indented comment\n"}))
			}
		}
	}
	// Each scalar alone, in each place a scalar sits.
	for _, v := range scalars {
		for _, doc := range []string{"a: " + v + "\n", "a: [" + v + "]\n", "a: {b: " + v + "}\n", "- " + v + "\n", "a: " + v + " # c\n", "a:\n- " + v + "\n"} {
			agree(t, doc, []byte(doc))
		}
	}
	fast := 0
	const docs = 20000
	for range docs {
		var b strings.Builder
		block(&b, 0, 0)
		if agree(t, "generated", []byte(b.String())) {
			fast++
		}
	}
	t.Logf("%d of %d generated documents took the fast path", fast, docs)
	if fast < docs/20 {
		t.Fatalf("only %d of %d generated documents took the fast path", fast, docs)
	}
}

// manyKeys is a mapping of n distinct keys k0000000: 1 ..., with extra
// lines after them.
func manyKeys(n int, extra string) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "k%07d: 1\n", i)
	}
	b.WriteString(extra)
	return b.Bytes()
}

// Issue 23 item 9: a megabyte of distinct keys took 18 s, each key
// compared with every key before it. The work is bounded as a count of
// comparisons: at most fewKeys a key (it was n/2 on average).
func TestFastParseRepeatsAreLinear(t *testing.T) {
	n := MaxSize / len("k0000000: 1\n")
	data := manyKeys(n, "")
	if len(data) > MaxSize || len(data) < MaxSize-16 {
		t.Fatalf("built %d bytes, want about %d", len(data), MaxSize)
	}
	var p fastParser
	root, ok := p.parse(data)
	if !ok || len(root.Content) != 2*n {
		t.Fatalf("fast path refused %d distinct keys (ok %v)", n, ok)
	}
	if limit := fewKeys * n; p.compares > limit {
		t.Errorf("%d keys took %d comparisons; linear is at most %d", n, p.compares, limit)
	}
	if p.compares < n {
		t.Errorf("%d keys took %d comparisons: the count misses some", n, p.compares)
	}
}

// A repeat is still found however long the mapping, early or late, in a
// block or a flow mapping, and then yaml.v3 (and the Decoder) word it.
func TestFastParseFindsRepeatsInLongMappings(t *testing.T) {
	var flow strings.Builder
	flow.WriteString("f: {")
	for i := range 40 {
		fmt.Fprintf(&flow, "a%d: 1, ", i)
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"last repeats first", manyKeys(1000, "k0000000: 2\n")},
		{"last repeats one past the scan", manyKeys(1000, fmt.Sprintf("k%07d: 2\n", fewKeys))},
		{"repeat inside the scan", manyKeys(5, "k0000003: 2\n")},
		{"nested mapping repeats", append([]byte("m:\n"), bytes.ReplaceAll(manyKeys(100, "k0000099: 2\n"), []byte("k"), []byte("  k"))...)},
		{"flow mapping repeats", []byte(flow.String() + "a20: 2}\n")},
	} {
		if _, ok := fastParse(c.data); ok {
			t.Errorf("%s: the fast path took a repeated key", c.name)
		}
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"nested mappings may share keys", []byte("a:\n  x: 1\nb:\n  x: 1\n")},
		{"long flow mapping", []byte(flow.String() + "z: 2}\n")},
	} {
		if !agree(t, c.name, c.data) {
			t.Errorf("%s: the fast path refused distinct keys", c.name)
		}
	}
}
