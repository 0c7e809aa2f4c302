package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/internal/fileio"
	"github.com/wifodds/wifodds/web"
)

// wasmPackage is the browser build's main package.
const wasmPackage = "github.com/wifodds/wifodds/cmd/wifodds-wasm"

// engineMeta marks which engine the page talks to; the static folder's
// page runs the one in the browser.
const (
	serverEngine = `<meta name="wifodds-engine" content="server">`
	wasmEngine   = `<meta name="wifodds-engine" content="wasm">`
)

func siteCommand() *cli.Command {
	return command("site", "write the web app as a static folder that computes in the browser (no server, no install)", "DIR",
		"Writes DIR (made if missing): index.html, app.js, worker.js, sw.js and style.css (the page wifodds serve\n"+
			"serves; sw.js keeps the files for offline use),\n"+
			"wifodds.wasm (the engine, built now from the source) and wasm_exec.js (Go's loader, copied from the\n"+
			"installed Go). Any static host serves the folder; the page then runs every computation in a Web Worker.\n\n"+
			"The engine is built by the installed Go toolchain, as\n"+
			"   GOOS=js GOARCH=wasm go build "+strings.Replace(strings.Join(wasmFlags, " "), "-s -w", "'-s -w'", 1)+" -o wifodds.wasm "+wasmPackage+"\n"+
			"(no inlining in the packages an answer barely runs: YAML beyond the plain form, JSON requests, formatting,\n"+
			"regular expressions, time, reading the scenario; about 110 kB gzipped less, docs/performance.md)\n"+
			"in the clone of wifodds named by --source (default: the working folder), with Go installed; wasm_exec.js\n"+
			"comes from $(go env GOROOT)/lib/wasm.\n"+
			"The page fetches nothing from elsewhere. The files are written all or none.\n\n"+
			"Examples:\n"+
			"   go run ./cmd/wifodds site site\n"+
			"   python3 -m http.server -d site 8000      # or any static host; docs/web.md",
		[]cli.Flag{
			&cli.StringFlag{Name: "source", Value: ".", Usage: "build the engine from the wifodds clone in `FOLDER`"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no summary line"},
		}, siteAction)
}

func siteAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("site takes one folder to write, got %d arguments", c.NArg())
	}
	dir := c.Args().First()
	files, err := siteFiles(c)
	if err != nil {
		return err
	}
	if err := fileio.Folder(dir); err != nil {
		return err
	}
	var targets []fileio.Target
	for name := range files {
		targets = append(targets, fileio.Target{Name: name, Path: filepath.Join(dir, name)})
	}
	out, err := fileio.NewBatch(nil, targets...)
	if err != nil {
		return err
	}
	for name, data := range files {
		out.Set(name, data)
	}
	if err := out.Commit(c.Context); err != nil {
		return err
	}
	if !c.Bool("quiet") {
		wasm := files["wifodds.wasm"]
		fmt.Fprintf(c.App.ErrWriter, "wrote %s: %d files; wifodds.wasm is %.1f MB (%.1f MB gzipped)\n", dir, len(files),
			float64(len(wasm))/1e6, float64(gzipped(wasm))/1e6)
	}
	return nil
}

// siteFiles are the static folder's files by name: the page, switched to
// the in-browser engine, the engine and Go's loader.
func siteFiles(c *cli.Context) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(web.Page(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files[path], err = fs.ReadFile(web.Page(), path)
		return err
	})
	if err != nil {
		return nil, err
	}
	page := string(files["index.html"])
	if !strings.Contains(page, serverEngine) {
		return nil, fmt.Errorf("index.html has no %s to switch to the in-browser engine", serverEngine)
	}
	files["index.html"] = []byte(strings.Replace(page, serverEngine, wasmEngine, 1))
	if files["wifodds.wasm"], err = buildWasm(c); err != nil {
		return nil, err
	}
	goroot, err := goTool(c, nil, "env", "GOROOT")
	if err != nil {
		return nil, err
	}
	loader := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	if files["wasm_exec.js"], err = fileio.ReadFile(loader, 1<<20); err != nil {
		return nil, fmt.Errorf("the Go wasm loader: %w (Go 1.24 and later keep it in $(go env GOROOT)/lib/wasm)", err)
	}
	return files, nil
}

// wasmFlags build the browser engine: no symbol table or DWARF, and no
// inlining in the packages an answer passes through only briefly (yaml.v3,
// which reads what the plain YAML parser does not; encoding/json, the
// request and the answers not written by hand; fmt, reflect, regexp,
// time, strconv, sort, the file and URL packages and syscall/js; reading
// the scenario, internal/yamlx, scenario and internal/fileio, once an
// answer; answer, answer/query, answer/browser and the engine's main, the
// front door that dispatches a request and writes its answer once; crt,
// whose table lookups run once per combat compiled; and operation, which
// chains whole combats; strings, the text of requests and answers;
// stats, which sums an answer up once, and analysis, whose sweeps and
// comparisons the page asks for by the combat), which keeps the engine
// within its 2 MB gzipped (about 180 kB less) while the packages that
// search and enumerate (combat, sim, plan, cells) and the runtime keep
// their inlining and their speed.
var wasmFlags = []string{"-trimpath", "-ldflags=-s -w",
	"-gcflags=go.yaml.in/yaml/v3=-l", "-gcflags=encoding/json=-l", "-gcflags=fmt=-l",
	"-gcflags=reflect=-l", "-gcflags=regexp/...=-l", "-gcflags=time=-l",
	"-gcflags=strconv=-l", "-gcflags=sort=-l", "-gcflags=os=-l", "-gcflags=io/fs=-l",
	"-gcflags=path/filepath=-l", "-gcflags=net/url=-l", "-gcflags=net/netip=-l",
	"-gcflags=unicode/utf16=-l", "-gcflags=encoding/base64=-l", "-gcflags=syscall/js=-l",
	"-gcflags=github.com/wifodds/wifodds/internal/yamlx=-l", "-gcflags=github.com/wifodds/wifodds/scenario=-l",
	"-gcflags=github.com/wifodds/wifodds/internal/fileio=-l",
	"-gcflags=github.com/wifodds/wifodds/answer=-l", "-gcflags=github.com/wifodds/wifodds/answer/query=-l",
	"-gcflags=github.com/wifodds/wifodds/answer/browser=-l", "-gcflags=github.com/wifodds/wifodds/cmd/wifodds-wasm=-l",
	"-gcflags=github.com/wifodds/wifodds/crt=-l", "-gcflags=github.com/wifodds/wifodds/operation=-l",
	"-gcflags=strings=-l", "-gcflags=github.com/wifodds/wifodds/stats=-l", "-gcflags=github.com/wifodds/wifodds/analysis=-l"}

// buildWasm builds the browser engine with the installed Go toolchain.
func buildWasm(c *cli.Context) ([]byte, error) {
	tmp, clean, err := fileio.Scratch("wifodds-site-")
	if err != nil {
		return nil, err
	}
	defer clean()
	out := filepath.Join(tmp, "wifodds.wasm")
	env := append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	args := append(append([]string{"build"}, wasmFlags...), "-o", out, wasmPackage)
	if _, err := goTool(c, env, args...); err != nil {
		return nil, fmt.Errorf("%w\n(wifodds site builds the engine from source: run it in a clone of wifodds, or name one with --source)", err)
	}
	return fileio.ReadFile(out, 64<<20)
}

// goTool runs the go command and returns what it prints.
func goTool(c *cli.Context, env []string, args ...string) ([]byte, error) {
	path, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("wifodds site needs the Go toolchain to build the engine: install Go (https://go.dev/dl/): %w", err)
	}
	cmd := exec.CommandContext(c.Context, path, args...)
	cmd.Env, cmd.Dir = env, c.String("source")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// gzipped is the size of data gzipped, as a static host would send it.
func gzipped(data []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(data)
	w.Close()
	return buf.Len()
}
