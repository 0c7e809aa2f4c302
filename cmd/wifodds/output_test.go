package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 23 item 13: -o - is standard output.
func TestOutputDashIsStandardOutput(t *testing.T) {
	example, _ := filepath.Abs("../../examples/wild-results-3to1.yaml")
	plain, _, code := wifodds(t, "run", "--exact", example)
	if code != 0 {
		t.Fatal("run failed")
	}
	t.Chdir(t.TempDir())
	stdout, stderr, code := wifodds(t, "run", "--exact", "-o", "-", example)
	if code != 0 || normalise(stdout) != normalise(plain) {
		t.Errorf("-o -: exit %d, stderr %s; stdout differs from no -o:\n%s", code, stderr, stdout)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error("-o - wrote a file called -")
	}
	_, stderr, code = wifodds(t, "compare", "--exact", "-v", "a=modifier=1", "--html", "-", example)
	if code != exitUsage || !strings.Contains(stderr, "--html -: standard output takes the report") {
		t.Errorf("--html -: exit %d, %s", code, stderr)
	}
}

// Issue 23 items 10 and 13: mkfifo f; wifodds run -o f blocked forever.
// A pipe nothing reads is refused before any work; /dev/fd/N on a pipe
// (bash's >(cmd), /dev/stdout into a pipe) is written in place.
func TestOutputPipes(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "f")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runWithin(t, context.Background(), 10*time.Second, "run", "--exact", "-o", fifo, "../../examples/wild-results-3to1.yaml")
	if code != exitUsage || !strings.Contains(stderr, "--output "+fifo+": a named pipe that nothing reads; start its reader first") {
		t.Errorf("exit %d, %s", code, stderr)
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := make(chan []byte)
	go func() { data, _ := io.ReadAll(r); got <- data }()
	_, stderr, code = runWithin(t, context.Background(), 10*time.Second, "run", "--exact", "-f", "json", "-o", fmt.Sprintf("/dev/fd/%d", w.Fd()), "../../examples/wild-results-3to1.yaml")
	w.Close()
	if data := <-got; code != 0 || !json.Valid(data) {
		t.Errorf("exit %d, %s; the pipe got %q", code, stderr, data)
	}
}

// Issue 23 item 10: a pipe whose reader stops reading held the command
// forever, through the first signal. The signal (the cancelled context)
// now stops the write.
func TestOutputStalledPipeStops(t *testing.T) {
	fifo := stalledPipe(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, stderr, code := runWithin(t, ctx, 20*time.Second, "compare", "--exact", "-v", "a=modifier=1", "--html", fifo, "../../examples/wild-results-3to1.yaml")
	if code != exitInterrupted || !strings.Contains(stderr, "--html "+fifo+": stopped: nothing was reading it") {
		t.Errorf("exit %d, %s", code, stderr)
	}
}

// Issue 23 item 10, on standard output: a reader that never reads
// (wifodds run | sleep 1000) no longer holds the command past the signal.
func TestStalledStandardOutputStops(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	stuck := blockedWriter(make(chan struct{}))
	defer close(stuck)
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"wifodds", "run", "--exact", "../../examples/wild-results-3to1.yaml"}, stuck, &errb)
	}()
	select {
	case code := <-done:
		if code != exitInterrupted || !strings.Contains(errb.String(), "standard output: stopped: nothing was reading it") {
			t.Errorf("exit %d, %s", code, errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("still writing after 20 s")
	}
}

// blockedWriter is a writer whose writes wait until it is closed.
type blockedWriter chan struct{}

func (b blockedWriter) Write(p []byte) (int, error) {
	<-b
	return 0, io.ErrClosedPipe
}

// TestMain runs the command itself when a test starts this test binary as
// the command (with asCommand set), so signals reach a real process.
const asCommand = "WIFODDS_TEST_AS_COMMAND"

// Issue 23 item 10: the first SIGINT or SIGTERM did not stop a command
// writing to a pipe. It does now, in a real process with real signals,
// and exits 130 as the README says of an interrupted command (red-team
// finding F11: it exited 1).
func TestOutputStalledPipeStopsOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		fifo := stalledPipe(t)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, os.Args[0], "compare", "--exact", "-v", "a=modifier=1", "--html", fifo, "../../examples/wild-results-3to1.yaml")
		cmd.Env = append(os.Environ(), asCommand+"=1")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The comparison takes milliseconds; then the write fills the
		// pipe and waits.
		time.Sleep(2 * time.Second)
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		if ctx.Err() != nil {
			t.Fatalf("%v: the command was still running after 20 s", sig)
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted || !strings.Contains(errb.String(), "--html "+fifo+": stopped: nothing was reading it") {
			t.Errorf("%v: %v, %s", sig, err, errb.String())
		}
	}
}

// Issue 23 item 12: -o ro.txt replaced a read-only file.
func TestOutputReadOnlyRefused(t *testing.T) {
	ro := filepath.Join(t.TempDir(), "ro.txt")
	os.WriteFile(ro, []byte("keep"), 0o444)
	os.Chmod(ro, 0o444)
	_, stderr, code := wifodds(t, "run", "--exact", "-o", ro, "../../examples/wild-results-3to1.yaml")
	if code != exitUsage || !strings.Contains(stderr, "--output "+ro+": the file is read-only (mode 0444)") {
		t.Errorf("exit %d, %s", code, stderr)
	}
	if data, _ := os.ReadFile(ro); string(data) != "keep" {
		t.Errorf("the read-only file holds %q", data)
	}
}

// stalledPipe is a named pipe with a reader that never reads, its buffer
// one page (F_SETPIPE_SZ), far smaller than an HTML page.
func stalledPipe(t *testing.T) string {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "f")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	const fSetPipeSize = 1031
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, r.Fd(), fSetPipeSize, 4096); errno != 0 {
		t.Skipf("cannot shrink the pipe: %v", errno)
	}
	return fifo
}

// runWithin runs the command in-process under ctx and fails the test if
// it has not returned after d: a hang shows as a failure naming the
// command, not as a test binary killed at its deadline.
func runWithin(t *testing.T, ctx context.Context, d time.Duration, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	done := make(chan int, 1)
	var out, errb bytes.Buffer
	go func() { done <- run(ctx, append([]string{"wifodds"}, args...), &out, &errb) }()
	select {
	case code = <-done:
		return out.String(), errb.String(), code
	case <-time.After(d):
		t.Fatalf("%v: still running after %v", args, d)
	}
	return "", "", 0
}

// Red-team finding F2: `wifodds run -o /dev/stdout >> log.txt` followed
// /dev/stdout to log.txt and replaced it, losing what it held. In a real
// process whose standard output (or error) is a file opened for appending,
// each spelling of it appends the report, as -o - does, and keeps the file.
func TestOutputDescriptorAppends(t *testing.T) {
	example, _ := filepath.Abs("../../examples/wild-results-3to1.yaml")
	dir := t.TempDir()
	for _, c := range []struct {
		path   string
		stderr bool
	}{{"/dev/stdout", false}, {"/dev/fd/1", false}, {"/proc/self/fd/1", false}, {"/dev/stderr", true}} {
		log := filepath.Join(dir, "log.txt")
		if err := os.WriteFile(log, []byte("previous\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := f.Stat()
		cmd := exec.Command(os.Args[0], "run", "--exact", "-o", c.path, example)
		cmd.Env = append(os.Environ(), asCommand+"=1")
		var other bytes.Buffer
		if cmd.Stdout, cmd.Stderr = f, &other; c.stderr {
			cmd.Stdout, cmd.Stderr = &other, f
		}
		err = cmd.Run()
		f.Close()
		data, _ := os.ReadFile(log)
		after, _ := os.Stat(log)
		if err != nil || !strings.HasPrefix(string(data), "previous\nwild-results-3to1: land combat") || !os.SameFile(before, after) {
			t.Errorf("-o %s: %v %s; the file holds %q (same file: %v)", c.path, err, other.String(), data, os.SameFile(before, after))
		}
	}
}
