package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/wifodds/wifodds/"

// layers lists, for each package of ours, the packages of ours it may
// import (docs/architecture.md): imports run one way, down the list.
var layers = map[string][]string{
	"stats":            {},
	"internal/yamlx":   {},
	"internal/fileio":  {},
	"crt":              {"internal/yamlx", "internal/fileio"},
	"scenario":         {"crt", "internal/yamlx", "internal/fileio"},
	"sim":              {"stats"},
	"combat":           {"crt", "scenario", "sim"},
	"analysis":         {"combat", "sim", "stats", "crt", "scenario"},
	"internal/fixture": {"combat", "crt", "scenario"},
	"operation":        {"analysis", "combat", "sim", "stats", "crt", "scenario", "internal/yamlx"},
	"plan":             {"analysis", "combat", "sim", "stats", "crt", "scenario", "operation"},
	"battery":          {"analysis", "combat", "sim", "stats", "crt", "scenario", "cells", "shard"},
	"shard":            {"combat", "sim", "stats", "crt", "scenario"},
	"cells":            {"analysis", "combat", "sim", "stats", "crt", "scenario"},
	"reports":          {"analysis", "combat", "sim", "stats", "crt", "scenario", "plan", "battery", "operation", "answer", "cells"},
	"benchmarks":       {"analysis", "combat", "sim", "stats", "crt", "scenario", "plan", "battery"},
	"answer":           {"analysis", "combat", "sim", "stats", "crt", "scenario", "plan", "operation", "cells"},
	"answer/query":     {"answer", "analysis", "combat", "crt", "plan", "sim"},
	"web":              {"analysis", "combat", "sim", "stats", "crt", "scenario", "plan", "reports", "answer", "answer/query"},
	"cmd/wifodds":      {"analysis", "combat", "sim", "stats", "crt", "scenario", "plan", "battery", "cells", "web", "reports", "benchmarks", "answer", "internal/yamlx", "internal/fileio", "operation", "shard"},
	"answer/browser":   {"answer", "answer/query", "analysis", "crt", "scenario"},
	"cmd/wifodds-wasm": {"answer/browser"},
	"docs":             {},
}

// Packages that may open files: the one reader and writer, and the two
// loaders it serves.
var fileUsers = map[string]bool{"internal/fileio": true, "scenario": true, "crt": true}

// Calls that open, create or replace files.
var fileCalls = map[string]bool{"Open": true, "OpenFile": true, "ReadFile": true, "Create": true, "CreateTemp": true,
	"WriteFile": true, "Rename": true, "Remove": true, "Link": true, "Symlink": true, "Mkdir": true, "MkdirAll": true}

// goFiles maps each package directory (relative to the module root) to its
// non-test Go files, parsed.
func goFiles(t *testing.T) (map[string][]*ast.File, *token.FileSet) {
	fset := token.NewFileSet()
	pkgs := map[string][]*ast.File{}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel("..", filepath.Dir(path))
		pkgs[filepath.ToSlash(dir)] = append(pkgs[filepath.ToSlash(dir)], f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs, fset
}

// Imports run one way: no package imports one above it.
func TestLayers(t *testing.T) {
	pkgs, fset := goFiles(t)
	for dir, files := range pkgs {
		allowed, ok := layers[dir]
		if !ok {
			t.Errorf("package %s has no place in the layers; add it here and to docs/architecture.md", dir)
			continue
		}
		for _, f := range files {
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				ours, isOurs := strings.CutPrefix(p, module)
				if !isOurs {
					continue
				}
				found := false
				for _, a := range allowed {
					found = found || a == ours
				}
				if !found {
					t.Errorf("%s: %s imports %s, which it may not (docs/architecture.md)", fset.Position(imp.Pos()), dir, ours)
				}
			}
		}
	}
}

// Only the file reader and writer and the two loaders open files, and only
// the command prints.
func TestNoStrayIO(t *testing.T) {
	pkgs, fset := goFiles(t)
	for dir, files := range pkgs {
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				switch {
				case x.Name == "os" && fileCalls[sel.Sel.Name] && !fileUsers[dir]:
					t.Errorf("%s: %s calls os.%s: only internal/fileio, scenario and crt touch files", fset.Position(sel.Pos()), dir, sel.Sel.Name)
				case x.Name == "os" && (sel.Sel.Name == "Stdout" || sel.Sel.Name == "Stderr") && dir != "cmd/wifodds":
					t.Errorf("%s: %s uses os.%s: only the command prints", fset.Position(sel.Pos()), dir, sel.Sel.Name)
				case x.Name == "fmt" && strings.HasPrefix(sel.Sel.Name, "Print") && dir != "cmd/wifodds":
					t.Errorf("%s: %s calls fmt.%s: only the command prints", fset.Position(sel.Pos()), dir, sel.Sel.Name)
				case x.Name == "log" && dir != "cmd/wifodds":
					t.Errorf("%s: %s logs: only the command prints", fset.Position(sel.Pos()), dir)
				}
				return true
			})
		}
	}
}

// maxSurfaceLines bounds a function of the surfaces: they read flags,
// files, HTTP or JavaScript values and call the front door (package
// answer), so a long function there is a pipeline that crept back or
// steps that want naming.
const maxSurfaceLines = 60

// The surfaces' functions are short.
func TestSurfacesStayThin(t *testing.T) {
	pkgs, fset := goFiles(t)
	for _, dir := range []string{"cmd/wifodds", "cmd/wifodds-wasm", "web", "answer", "answer/browser", "answer/query"} {
		if len(pkgs[dir]) == 0 {
			t.Errorf("no Go files in %s", dir)
		}
		for _, f := range pkgs[dir] {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxSurfaceLines {
					t.Errorf("%s: %s is %d lines, over %d: name its phases", fset.Position(fd.Pos()), fd.Name.Name, n, maxSurfaceLines)
				}
			}
		}
	}
}
