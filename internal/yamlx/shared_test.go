package yamlx

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ParseShared reads every YAML file in the repository as Parse does, one
// after another through the pooled parsers (each parse reusing the blocks
// the previous ones released), and a released parser holds no node.
func TestParseSharedAgreesWithParse(t *testing.T) {
	var files []string
	filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			files = append(files, path)
		}
		return nil
	})
	if len(files) < 20 {
		t.Fatalf("found %d YAML files", len(files))
	}
	for round := range 2 {
		for _, path := range files {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, werr := Parse(path, data)
			got, release, gerr := ParseShared(path, data)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("%s: Parse error %v, ParseShared error %v", path, werr, gerr)
			}
			if werr == nil {
				if d := treeDiff(got, want, ""); d != "" {
					t.Fatalf("round %d, %s: %s", round, path, d)
				}
			}
			release()
		}
	}
	p := sharedParsers.Get().(*fastParser)
	for _, n := range p.nodes[:cap(p.nodes)] {
		if n.Kind != 0 || n.Value != "" || n.Content != nil {
			t.Fatalf("a released parser still holds a node: %+v", n)
		}
	}
	for _, c := range p.children[:cap(p.children)] {
		if c != nil {
			t.Fatal("a released parser still holds a child pointer")
		}
	}
	for _, l := range p.lines[:cap(p.lines)] {
		if l.text != "" {
			t.Fatal("a released parser still holds a line")
		}
	}
	sharedParsers.Put(p)
}

// A file over the size limit is refused before anything is read, with a
// release that does nothing.
func TestParseSharedTooLarge(t *testing.T) {
	root, release, err := ParseShared("big.yaml", make([]byte, MaxSize+1))
	if root != nil || release == nil || err == nil || !strings.Contains(err.Error(), "the limit is") {
		t.Fatalf("%v %v", root, err)
	}
	release()
}
