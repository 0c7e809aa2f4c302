package fileio

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Audit item 9: reads are bounded and refuse what is not a regular file.
func TestReadFileRefusesDevicesAndLargeFiles(t *testing.T) {
	dir := t.TempDir()
	start := time.Now()
	for path, want := range map[string]string{
		"/dev/zero":    "/dev/zero: not a regular file (a device); give the path of a YAML file",
		"/dev/urandom": "/dev/urandom: not a regular file (a device); give the path of a YAML file",
		dir:            dir + ": is a folder, not a file",
		dir + "/none":  dir + "/none: no such file or directory",
	} {
		if _, err := ReadFile(path, 1<<20); err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %s", path, err, want)
		}
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("refusing devices took %v", time.Since(start))
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(fifo, 100); err == nil || !strings.Contains(err.Error(), "not a regular file (a named pipe)") {
		t.Errorf("pipe: %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	os.WriteFile(big, make([]byte, 101), 0o644)
	if _, err := ReadFile(big, 100); err == nil || !strings.Contains(err.Error(), "larger than 100 bytes") {
		t.Errorf("big: %v", err)
	}
	if data, err := ReadFile(big, 101); err != nil || len(data) != 101 {
		t.Errorf("at the limit: %d bytes, %v", len(data), err)
	}
}

func commit(t *testing.T, inputs []string, targets ...Target) error {
	t.Helper()
	b, err := NewBatch(inputs, targets...)
	if err != nil {
		return err
	}
	for _, tg := range targets {
		b.Set(tg.Name, []byte("report "+tg.Name+"\n"))
	}
	return b.Commit(context.Background())
}

// Audit item 10: -o /dev/null writes through and leaves the device a device.
func TestDeviceWrittenThrough(t *testing.T) {
	if err := commit(t, nil, Target{"output", "/dev/null"}); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat("/dev/null")
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v %v", st.Mode(), err)
	}
	if err := commit(t, nil, Target{"output", "/dev/full"}); err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Errorf("/dev/full: %v", err)
	}
}

// Audit item 10: a symbolic link is followed, a hard link kept, a mode kept.
func TestLinksAndModesKept(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.txt")
	os.WriteFile(real, []byte("old"), 0o600)
	link := filepath.Join(dir, "link.txt")
	os.Symlink("real.txt", link)
	if err := commit(t, nil, Target{"output", link}); err != nil {
		t.Fatal(err)
	}
	if li, _ := os.Lstat(link); li.Mode()&os.ModeSymlink == 0 {
		t.Error("the symbolic link was replaced")
	}
	if data, _ := os.ReadFile(real); string(data) != "report output\n" {
		t.Errorf("the link's target holds %q", data)
	}
	if st, _ := os.Stat(real); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	hard := filepath.Join(dir, "hard.txt")
	os.Link(real, hard)
	if err := commit(t, nil, Target{"html", hard}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.Stat(real)
	b, _ := os.Stat(hard)
	if !os.SameFile(a, b) || a.Sys().(*syscall.Stat_t).Nlink != 2 {
		t.Error("the hard link was broken")
	}
	if data, _ := os.ReadFile(real); string(data) != "report html\n" {
		t.Errorf("the other name sees %q", data)
	}
	if a.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", a.Mode().Perm())
	}
}

// Audit item 10: an output that is an input, or another output, or a
// folder, is refused before any work.
func TestConflictsRefused(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "scen.yaml")
	os.WriteFile(in, []byte("kind: land\n"), 0o644)
	out := filepath.Join(dir, "out.png")
	cases := []struct {
		inputs  []string
		targets []Target
		want    string
	}{
		{[]string{in}, []Target{{"output", in}}, "that is an input of this command"},
		{[]string{in}, []Target{{"html", filepath.Join(dir, ".", "scen.yaml")}}, "that is an input of this command"},
		{nil, []Target{{"chart", out}, {"loss-chart", out}}, "--loss-chart " + out + ": --chart writes that file too"},
		{nil, []Target{{"output", dir}}, "is a folder; give the path of a file to write"},
		{nil, []Target{{"output", filepath.Join(dir, "no", "x")}}, "the folder " + filepath.Join(dir, "no") + " does not exist"},
	}
	for _, c := range cases {
		_, err := NewBatch(c.inputs, c.targets...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.targets, err, c.want)
		}
	}
	if data, _ := os.ReadFile(in); string(data) != "kind: land\n" {
		t.Error("the input was changed")
	}
	os.Symlink(in, filepath.Join(dir, "alias.yaml"))
	if _, err := NewBatch([]string{in}, Target{"output", filepath.Join(dir, "alias.yaml")}); err == nil {
		t.Error("a link to the input was accepted as an output")
	}
}

// Audit item 10: outputs are all or nothing.
func TestCommitAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "first.txt")
	kept := filepath.Join(dir, "kept.txt")
	os.WriteFile(kept, []byte("before"), 0o644)
	second := filepath.Join(dir, "second.txt")
	b, err := NewBatch(nil, Target{"output", first}, Target{"html", kept}, Target{"chart", second})
	if err != nil {
		t.Fatal(err)
	}
	b.Set("output", []byte("1"))
	b.Set("html", []byte("2"))
	b.Set("chart", []byte("3"))
	// The last target turns into a non-empty folder after the check, so
	// moving it into place fails after the first two have been.
	os.MkdirAll(filepath.Join(second, "x"), 0o755)
	if err := b.Commit(context.Background()); err == nil || !strings.Contains(err.Error(), "no output of this run was kept") {
		t.Fatalf("commit: %v", err)
	}
	if _, err := os.Stat(first); !os.IsNotExist(err) {
		t.Error("the first output was left behind")
	}
	if data, _ := os.ReadFile(kept); string(data) != "before" {
		t.Errorf("the replaced file holds %q, want its old content", data)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left in the folder: %v", names)
	}
}

// within fails the test if f has not returned after d: a hang shows as a
// failure, not as a test binary killed at its deadline.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: still blocked after %v", what, d)
	}
}

// Issue 23 item 10: a named pipe that nothing reads is refused at once
// (opening it for writing used to wait for a reader forever); one with a
// reader is written in place.
func TestNamedPipes(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "f")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	within(t, 10*time.Second, "a pipe without a reader", func() {
		_, err := NewBatch(nil, Target{"output", fifo})
		if err == nil || !strings.Contains(err.Error(), "--output "+fifo+": a named pipe that nothing reads") {
			t.Errorf("got %v", err)
		}
	})
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	within(t, 10*time.Second, "a pipe with a reader", func() {
		if err := commit(t, nil, Target{"output", fifo}); err != nil {
			t.Error(err)
		}
	})
	got, err := io.ReadAll(r)
	if err != nil || string(got) != "report output\n" {
		t.Errorf("the reader got %q, %v", got, err)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode().Type() != os.ModeNamedPipe {
		t.Errorf("the pipe was replaced: %v", err)
	}
	// A batch refused after the pipe was opened closes it: its reader
	// sees the end instead of waiting for the command to exit.
	r2, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if _, err := NewBatch(nil, Target{"output", fifo}, Target{"html", dir}); err == nil {
		t.Fatal("a folder was taken as an output")
	}
	within(t, 10*time.Second, "the reader of a refused batch", func() {
		if got, err := io.ReadAll(r2); len(got) != 0 || err != nil {
			t.Errorf("the reader got %q, %v", got, err)
		}
	})
}

// Issue 23 item 10: a reader that never reads holds a write to its pipe;
// cancelling the context (a signal, in the command) stops it.
func TestStalledPipeStopsOnCancel(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "f")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := NewBatch(nil, Target{"output", fifo})
	if err != nil {
		t.Fatal(err)
	}
	b.Set("output", make([]byte, 4<<20)) // far past a pipe's buffer
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	within(t, 10*time.Second, "a write nothing reads", func() {
		if err := b.Commit(ctx); err == nil || !strings.Contains(err.Error(), "stopped: nothing was reading it") {
			t.Errorf("got %v", err)
		}
	})
}

// Issue 23 item 13: /dev/stdout on a pipe and bash's >(cmd) are links to
// "pipe:[N]", which names no file; they are written in place.
func TestPipeLinksWrittenInPlace(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	path := fmt.Sprintf("/dev/fd/%d", w.Fd())
	if _, err := os.Readlink(path); err != nil {
		t.Skipf("no /dev/fd here: %v", err)
	}
	within(t, 10*time.Second, path, func() {
		if err := commit(t, nil, Target{"output", path}); err != nil {
			t.Error(err)
		}
	})
	w.Close()
	if got, _ := io.ReadAll(r); string(got) != "report output\n" {
		t.Errorf("the pipe got %q", got)
	}
	// A link to a regular file that does not exist is still refused.
	dir := t.TempDir()
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "none", "x"), dangling)
	if _, err := NewBatch(nil, Target{"output", dangling}); err == nil || !strings.Contains(err.Error(), "a symbolic link to a file that cannot be reached") {
		t.Errorf("dangling link: %v", err)
	}
}

// Issue 23 item 13: sockets and block devices are not written to.
func TestSocketsAndBlockDevicesRefused(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := NewBatch(nil, Target{"output", sock}); err == nil || !strings.Contains(err.Error(), "is a socket; give the path of a file, a pipe or a character device") {
		t.Errorf("socket: %v", err)
	}
	devs, _ := os.ReadDir("/dev")
	for _, d := range devs {
		if d.Type()&os.ModeDevice != 0 && d.Type()&os.ModeCharDevice == 0 {
			path := filepath.Join("/dev", d.Name())
			if _, err := NewBatch(nil, Target{"output", path}); err == nil || !strings.Contains(err.Error(), "is a block device") {
				t.Errorf("%s: %v", path, err)
			}
			return
		}
	}
	t.Log("no block device in /dev to try")
}

// Issue 23 item 12: a file its owner made read-only is not replaced, by
// anyone (root included: its permission bits are read, not access(2)),
// through a symbolic link or a hard link either.
func TestReadOnlyFilesRefused(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro.txt")
	os.WriteFile(ro, []byte("keep"), 0o644)
	os.Chmod(ro, 0o444)
	link := filepath.Join(dir, "link.txt")
	os.Symlink("ro.txt", link)
	hard := filepath.Join(dir, "hard.txt")
	os.Link(ro, hard)
	for _, path := range []string{ro, link, hard} {
		if _, err := NewBatch(nil, Target{"output", path}); err == nil || !strings.Contains(err.Error(), "--output "+path+": the file is read-only (mode 0444)") {
			t.Errorf("%s: %v", path, err)
		}
	}
	if data, _ := os.ReadFile(ro); string(data) != "keep" {
		t.Errorf("the read-only file holds %q", data)
	}
	os.Chmod(ro, 0o644)
	if err := commit(t, nil, Target{"output", ro}); err != nil {
		t.Errorf("writable again: %v", err)
	}
}

// Issue 23 item 12: whose bit counts.
func TestWritableBits(t *testing.T) {
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	other := uid + 12345
	for _, c := range []struct {
		perm     os.FileMode
		uid, gid uint32
		want     bool
	}{
		{0o644, uid, gid, true},
		{0o444, uid, gid, false},
		{0o200, uid, gid, true},
		{0o464, uid, gid, false}, // the owner's bit decides for the owner, root included
	} {
		st := fakeInfo{perm: c.perm, sys: &syscall.Stat_t{Uid: c.uid, Gid: c.gid}}
		if got := writable(st); got != c.want {
			t.Errorf("mode %04o owner %d: writable %v, want %v", c.perm, c.uid, got, c.want)
		}
	}
	if os.Getuid() != 0 {
		if writable(fakeInfo{perm: 0o646, sys: &syscall.Stat_t{Uid: other, Gid: other}}) != true ||
			writable(fakeInfo{perm: 0o644, sys: &syscall.Stat_t{Uid: other, Gid: other}}) != false {
			t.Error("others' bit does not decide for others")
		}
	} else if !writable(fakeInfo{perm: 0o644, sys: &syscall.Stat_t{Uid: other, Gid: other}}) {
		t.Error("root may replace a file another user owns and can write")
	}
}

type fakeInfo struct {
	perm os.FileMode
	sys  *syscall.Stat_t
}

func (f fakeInfo) Name() string       { return "f" }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() os.FileMode  { return f.perm }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return false }
func (f fakeInfo) Sys() any           { return f.sys }
