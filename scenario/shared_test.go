package scenario

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// ParseWith reads through yamlx.ParseShared, whose nodes are reused by
// the next parse once it returns: a scenario must keep nothing of them.
// Every example and test scenario is read, then all of them again (the
// first pass's nodes rewritten by the second), and each scenario of the
// first pass must still equal its reading in the second.
func TestParseKeepsNoSharedNode(t *testing.T) {
	var files []string
	for _, g := range []string{"../examples/*.yaml", "testdata/*.yaml", "../combat/testdata/*.yaml", "../benchmarks/scenarios/*.yaml"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	first := make([]*Scenario, len(files))
	for i, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if first[i], err = Parse(p, data); err != nil {
			first[i] = nil // a file of refusals: nothing kept to compare
		}
	}
	checked := 0
	for i, p := range files {
		data, _ := os.ReadFile(p)
		again, err := Parse(p, data)
		if (err == nil) != (first[i] != nil) {
			t.Fatalf("%s: read once %v, then %v", p, first[i] != nil, err)
		}
		if err == nil {
			if !reflect.DeepEqual(first[i], again) {
				t.Fatalf("%s: the first reading changed when later files were read:\n%+v\n%+v", p, first[i], again)
			}
			checked++
		}
	}
	if checked < 15 {
		t.Fatalf("compared %d scenarios", checked)
	}
}
