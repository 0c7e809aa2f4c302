package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain runs the test binary as the command itself when asCommand is
// set (the signal tests need a real process), and removes the static
// folder the site tests built once for all of them.
func TestMain(m *testing.M) {
	if os.Getenv(asCommand) != "" {
		os.Args = append([]string{"wifodds"}, os.Args[1:]...)
		main()
	}
	code := m.Run()
	if site.dir != "" {
		os.RemoveAll(filepath.Dir(site.dir))
	}
	os.Exit(code)
}
