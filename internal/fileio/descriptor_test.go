//go:build unix

package fileio

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Red-team finding F2: `-o /dev/stdout >> log.txt` followed /dev/stdout to
// log.txt and replaced it, so what the shell's append kept was lost. A
// path naming one of our descriptors open on a regular file is written
// through the descriptor: appended where it was opened for appending, the
// file never replaced.
func TestDescriptorPathsWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	for _, form := range []string{"/dev/fd/%d", "/proc/self/fd/%d", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/%d", "/dev/../dev/fd/%d"} {
		log := filepath.Join(dir, "log.txt")
		if err := os.WriteFile(log, []byte("previous\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := f.Stat()
		path := fmt.Sprintf(form, f.Fd())
		if err := commit(t, nil, Target{"output", path}); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		if _, err := f.WriteString("after\n"); err != nil { // the shell's descriptor still works
			t.Errorf("%s: %v", path, err)
		}
		f.Close()
		data, _ := os.ReadFile(log)
		after, _ := os.Stat(log)
		if string(data) != "previous\nreport output\nafter\n" || !os.SameFile(before, after) {
			t.Errorf("%s: the file now holds %q (same file: %v)", path, data, os.SameFile(before, after))
		}
	}
	if fd, ok := descriptorPath("/dev/stdout"); !ok || fd != 1 {
		t.Errorf("/dev/stdout: %d %v", fd, ok)
	}
	for _, p := range []string{"/dev/fd/", "/dev/fd/x", "/dev/fd/+1", "/proc/1/fd/1", "/proc/self/fdinfo/1", "/dev/fd/1/x", "fd/1"} {
		if fd, ok := descriptorPath(p); ok && os.Getpid() != 1 {
			t.Errorf("%s: read as descriptor %d", p, fd)
		}
	}
	// A descriptor that is not open, or open only for reading, is refused
	// before any work.
	in := filepath.Join(dir, "in.txt")
	os.WriteFile(in, []byte("input\n"), 0o644)
	r, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for path, want := range map[string]string{
		"/dev/fd/987654":                  "descriptor 987654 is not open",
		fmt.Sprintf("/dev/fd/%d", r.Fd()): "is open for reading only",
	} {
		if _, err := NewBatch(nil, Target{"output", path}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %s", path, err, want)
		}
	}
	if data, _ := os.ReadFile(in); string(data) != "input\n" {
		t.Errorf("the input now holds %q", data)
	}
}

// Red-team finding F12: merge, which streams JSON parts through Open,
// asked for "the path of a YAML file" when given a pipe.
func TestOpenAsksForJSON(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "f")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(fifo, 100); err == nil || err.Error() != fifo+": not a regular file (a named pipe); give the path of a JSON file" {
		t.Errorf("a pipe: %v", err)
	}
	if _, err := ReadFile(fifo, 100); err == nil || !strings.HasSuffix(err.Error(), "give the path of a YAML file") {
		t.Errorf("a pipe read whole: %v", err)
	}
}

// Red-team finding F3: `cat f & wifodds run -o f`, the recipe the refusal
// gives, was refused now and then on a busy machine, when cat had not yet
// opened the pipe. A reader that opens it within a moment is waited for.
func TestNamedPipeReaderStartedJustBefore(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "f")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		time.Sleep(20 * time.Millisecond) // the reader is late
		r, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		defer r.Close()
		data, _ := io.ReadAll(r)
		got <- string(data)
	}()
	if err := commit(t, nil, Target{"output", fifo}); err != nil {
		t.Fatal(err)
	}
	if data := <-got; data != "report output\n" {
		t.Errorf("the reader got %q", data)
	}
	// With no reader at all, the refusal still comes at once.
	start := time.Now()
	if _, err := NewBatch(nil, Target{"output", fifo}); err == nil || !strings.Contains(err.Error(), "a named pipe that nothing reads") {
		t.Errorf("no reader: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusing took %v", d)
	}
}
