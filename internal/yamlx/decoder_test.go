package yamlx

import (
	"strings"
	"testing"
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
		`e: expected a number, found ".nan"`,
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
