package fileio

import (
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
	return b.Commit()
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
	if err := b.Commit(); err == nil || !strings.Contains(err.Error(), "no output of this run was kept") {
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
