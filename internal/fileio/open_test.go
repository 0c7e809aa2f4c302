package fileio

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Open refuses what ReadFile refuses, a file over the limit before any of
// it is read, and a file that grows past the limit while it is read.
func TestOpenIsBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, make([]byte, 101), 0o644)
	for path, want := range map[string]string{
		"/dev/zero":   "/dev/zero: not a regular file (a device)",
		dir:           dir + ": is a folder, not a file",
		dir + "/none": dir + "/none: no such file or directory",
		fifo:          "not a regular file (a named pipe)",
		big:           big + ": the file is larger than 100 bytes",
	} {
		if r, err := Open(path, 100); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %s", path, err, want)
			if r != nil {
				r.Close()
			}
		}
	}
	r, err := Open(big, 101)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := io.ReadAll(r); err != nil || len(data) != 101 {
		t.Errorf("at the limit: %d bytes, %v", len(data), err)
	}
	r.Close()

	// The file grows after Open has checked its size.
	r, err = Open(big, 101)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, _ := os.OpenFile(big, os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte("more"))
	f.Close()
	if data, err := io.ReadAll(r); err == nil || !strings.Contains(err.Error(), "larger than 101 bytes") {
		t.Errorf("a file that grew: %d bytes, %v", len(data), err)
	}
}
