package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every "docs/NAME.md" the source and data files cite exists, and every
// "docs/NAME.md §N" names a section heading "§N" of that document, so a
// reader can follow each citation.
func TestCitationsResolve(t *testing.T) {
	cite := regexp.MustCompile(`docs/([a-z-]+\.md)(?: §(\d+(?:\.\d+)?))?`)
	rulesCite := regexp.MustCompile(`\brules §(\d+(?:\.\d+)?)`)
	headings := map[string]map[string]bool{}
	sections := func(doc string) map[string]bool {
		if h, ok := headings[doc]; ok {
			return h
		}
		data, err := os.ReadFile(doc)
		if err != nil {
			headings[doc] = nil
			return nil
		}
		h := map[string]bool{}
		for _, line := range strings.Split(string(data), "\n") {
			if m := regexp.MustCompile(`^#+ §(\d+(?:\.\d+)?) `).FindStringSubmatch(line); m != nil {
				h[m[1]] = true
			}
		}
		headings[doc] = h
		return h
	}
	n := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" && strings.Contains(path, "fuzz")) {
			return filepath.SkipDir
		}
		if ext := filepath.Ext(path); d.IsDir() || ext != ".go" && ext != ".yaml" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range cite.FindAllStringSubmatch(line, -1) {
				n++
				h := sections(m[1])
				if h == nil {
					t.Errorf("%s:%d: cites docs/%s, which does not exist", path, i+1, m[1])
				} else if m[2] != "" && !h[m[2]] {
					t.Errorf("%s:%d: cites docs/%s §%s, which has no such section", path, i+1, m[1], m[2])
				}
			}
			// Working lines shown to players cite "rules §N".
			for _, m := range rulesCite.FindAllStringSubmatch(line, -1) {
				n++
				if !sections("rules.md")[m[1]] {
					t.Errorf("%s:%d: cites rules §%s, which docs/rules.md does not have", path, i+1, m[1])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Errorf("found only %d citations; is the pattern right?", n)
	}
}
