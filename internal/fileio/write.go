package fileio

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Batch is the set of files one command writes. NewBatch checks them all
// before any work; Commit writes them all or none.
type Batch struct {
	outs []*output
}

type output struct {
	name string // the flag that named it, for messages
	path string // as given
	real string // the file written: path with symbolic links followed
	mode fs.FileMode
	info fs.FileInfo // the existing file, or nil
	// through: a pipe or character device, written to as it is, through
	// file, opened when checked; inPlace: a regular file with other hard
	// links, rewritten so they all see it.
	through, inPlace bool
	file             *os.File
	data             []byte
	set              bool
}

// Target is one output: the flag (or other name) that gave it, and its path.
type Target struct{ Name, Path string }

// NewBatch checks every target with a path before any work: its folder
// exists, it is not a folder, it is none of the inputs, and no two targets
// are the same file. Targets with an empty path are left out.
func NewBatch(inputs []string, targets ...Target) (*Batch, error) {
	b := &Batch{}
	for _, t := range targets {
		if t.Path == "" {
			continue
		}
		o, err := check(t)
		if err != nil {
			b.close()
			return nil, err
		}
		b.outs = append(b.outs, o)
		for _, in := range inputs {
			if in != "" && same(o, in) {
				b.close()
				return nil, fmt.Errorf("--%s %s: that is an input of this command (%s); write the report to another file", t.Name, t.Path, in)
			}
		}
		for _, p := range b.outs[:len(b.outs)-1] {
			if !o.through && same(o, p.real) {
				b.close()
				return nil, fmt.Errorf("--%s %s: --%s writes that file too; give each output its own file", t.Name, t.Path, p.name)
			}
		}
	}
	return b, nil
}

// close closes the pipes and devices a batch that will not be written
// opened, so their readers see the end.
func (b *Batch) close() {
	for _, o := range b.outs {
		if o.file != nil {
			o.file.Close()
		}
	}
}

// check resolves a target and works out how it will be written.
func check(t Target) (*output, error) {
	if fd, ok := descriptorPath(t.Path); ok {
		if o, ok, err := throughDescriptor(t, fd); ok || err != nil {
			return o, err
		}
	}
	o := &output{name: t.Name, path: t.Path, real: t.Path, mode: 0o644}
	if li, err := os.Lstat(t.Path); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(t.Path)
		switch {
		case err == nil:
			o.real = real
		case isStream(t.Path):
			// /dev/stdout or /dev/fd/N on a pipe (bash's >(cmd)): the
			// link names no file ("pipe:[N]"), but the kernel opens it.
		default:
			return nil, fmt.Errorf("--%s %s: a symbolic link to a file that cannot be reached: %v", t.Name, t.Path, unwrap(err))
		}
	}
	st, err := os.Stat(o.real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		dir := filepath.Dir(o.real)
		if ds, err := os.Stat(dir); err != nil || !ds.IsDir() {
			return nil, fmt.Errorf("--%s %s: the folder %s does not exist", t.Name, t.Path, dir)
		}
		return o, nil
	case err != nil:
		return nil, fmt.Errorf("--%s %s: %v", t.Name, t.Path, unwrap(err))
	case st.IsDir():
		return nil, fmt.Errorf("--%s %s: is a folder; give the path of a file to write", t.Name, t.Path)
	}
	o.info, o.mode = st, st.Mode().Perm()
	switch typ := st.Mode().Type(); {
	case typ == fs.ModeNamedPipe || typ == fs.ModeDevice|fs.ModeCharDevice:
		return o, o.open()
	case typ != 0:
		return nil, fmt.Errorf("--%s %s: is %s; give the path of a file, a pipe or a character device such as /dev/null", t.Name, t.Path, kind(st.Mode()))
	}
	if !writable(st) {
		return nil, fmt.Errorf("--%s %s: the file is read-only (mode %04o); make it writable or write another file", t.Name, t.Path, st.Mode().Perm())
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Nlink > 1 {
		o.inPlace = true
	}
	return o, nil
}

// isStream reports whether path opens a pipe or a character device.
func isStream(path string) bool {
	st, err := os.Stat(path)
	return err == nil && (st.Mode().Type() == fs.ModeNamedPipe || st.Mode().Type() == fs.ModeDevice|fs.ModeCharDevice)
}

// open opens a pipe or character device for writing now, so a pipe with no
// reader is refused before any work instead of blocking the command at the
// end (opening a pipe for writing waits for a reader; with O_NONBLOCK it
// fails at once with ENXIO). The file stays open until Commit: closing it
// would end the reader that is waiting on it. Non-blocking, the file is
// written through Go's poller, so a write deadline can stop a write that a
// reader never takes.
func (o *output) open() error {
	f, err := os.OpenFile(o.real, os.O_WRONLY|nonblock, 0)
	// A reader started just before (cat f & wifodds run -o f, as the
	// refusal suggests) may not have opened the pipe yet on a busy
	// machine: look again for a moment before refusing.
	for wait := readerWait; errors.Is(err, syscall.ENXIO) && wait > 0; wait -= readerPoll {
		time.Sleep(readerPoll)
		f, err = os.OpenFile(o.real, os.O_WRONLY|nonblock, 0)
	}
	switch {
	case errors.Is(err, syscall.ENXIO):
		return fmt.Errorf("--%s %s: a named pipe that nothing reads; start its reader first (for example cat %s &), or write a file", o.name, o.path, o.path)
	case err != nil:
		return fmt.Errorf("--%s %s: %v", o.name, o.path, unwrap(err))
	}
	o.file, o.through = f, true
	return nil
}

// readerWait is how long open waits for a named pipe's reader to open it,
// looking every readerPoll.
const (
	readerWait = 200 * time.Millisecond
	readerPoll = 10 * time.Millisecond
)

// writable reports whether the permission bits let the user write the file:
// the owner's bit to its owner, the group's to its group, others' to the
// rest. Root, whom the bits do not bind, is held to the owner's bit, so a
// file its owner marked read-only (chmod a-w) is not replaced even by root;
// a file another user owns is replaced, as access(2) would allow.
func writable(st fs.FileInfo) bool {
	perm := st.Mode().Perm()
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return perm&0o222 != 0
	}
	uid := os.Getuid()
	switch {
	case uid == 0:
		return perm&0o200 != 0
	case uint32(uid) == sys.Uid:
		return perm&0o200 != 0
	case inGroup(sys.Gid):
		return perm&0o020 != 0
	}
	return perm&0o002 != 0
}

// inGroup reports whether the user belongs to group gid.
func inGroup(gid uint32) bool {
	if uint32(os.Getgid()) == gid {
		return true
	}
	groups, _ := os.Getgroups()
	for _, g := range groups {
		if uint32(g) == gid {
			return true
		}
	}
	return false
}

// same reports whether o is the file at path.
func same(o *output, path string) bool {
	if o.info != nil {
		if st, err := os.Stat(path); err == nil {
			return os.SameFile(o.info, st)
		}
		return false
	}
	a, err1 := filepath.Abs(o.real)
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	b, err2 := filepath.Abs(path)
	return err1 == nil && err2 == nil && a == b
}

// Set gives the content of the target called name. It panics on a name the
// batch was not built with: that is a bug in the caller, not bad input.
func (b *Batch) Set(name string, data []byte) {
	for _, o := range b.outs {
		if o.name == name {
			o.data, o.set = data, true
			return
		}
	}
	panic("fileio: no output " + name)
}

// Has reports whether the batch writes the target called name.
func (b *Batch) Has(name string) bool {
	for _, o := range b.outs {
		if o.name == name {
			return true
		}
	}
	return false
}

// Commit writes every target that was Set, all or none. Each regular file
// is first written beside its target; pipes and devices are written next;
// then the files are moved into place. If anything fails, the files this
// commit created are removed and the files it replaced get their old
// content back. Cancelling ctx stops a write to a pipe or device that its
// reader does not take (a stalled reader would otherwise hold the command
// forever); it does not stop anything else.
func (b *Batch) Commit(ctx context.Context) error {
	var staged []*stage
	defer func() {
		for _, s := range staged {
			s.discard()
		}
	}()
	for _, o := range b.outs {
		if !o.set || o.through {
			continue
		}
		s, err := o.stage()
		if err != nil {
			return err
		}
		staged = append(staged, s)
	}
	for _, o := range b.outs {
		if o.set && o.through {
			if err := writeThrough(ctx, o); err != nil {
				return err
			}
		}
	}
	for i, s := range staged {
		if err := s.install(); err != nil {
			for _, done := range staged[:i] {
				done.rollback()
			}
			return fmt.Errorf("--%s %s: %v; no output of this run was kept", s.o.name, s.o.path, unwrap(err))
		}
	}
	for _, s := range staged {
		s.finish()
	}
	staged = nil
	return nil
}

// stage is a regular output written to a temporary file beside its target.
type stage struct {
	o       *output
	tmp     string
	backup  string // a hard link to the file replaced, until the commit holds
	old     []byte // the old content of a file rewritten in place
	created bool
}

func (o *output) stage() (*stage, error) {
	f, err := os.CreateTemp(filepath.Dir(o.real), "."+filepath.Base(o.real)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("--%s %s: cannot write there: %v", o.name, o.path, unwrap(err))
	}
	s := &stage{o: o, tmp: f.Name()}
	_, err = f.Write(o.data)
	if err == nil {
		err = f.Chmod(o.mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(s.tmp)
		return nil, fmt.Errorf("--%s %s: %v", o.name, o.path, unwrap(err))
	}
	return s, nil
}

// install moves the staged file into place, keeping what it needs to undo.
func (s *stage) install() error {
	o := s.o
	if o.inPlace {
		old, err := os.ReadFile(o.real)
		if err != nil {
			return err
		}
		s.old = old
		return os.WriteFile(o.real, o.data, o.mode)
	}
	if o.info != nil {
		s.backup = s.tmp + ".old"
		if err := os.Link(o.real, s.backup); err != nil {
			s.backup = ""
			return err
		}
	}
	if err := os.Rename(s.tmp, o.real); err != nil {
		return err
	}
	s.tmp, s.created = "", o.info == nil
	return nil
}

// rollback undoes an install.
func (s *stage) rollback() {
	o := s.o
	switch {
	case o.inPlace && s.old != nil:
		os.WriteFile(o.real, s.old, o.mode)
	case s.backup != "":
		os.Rename(s.backup, o.real)
		s.backup = ""
	case s.created:
		os.Remove(o.real)
	}
}

// finish drops what an install kept for undoing it.
func (s *stage) finish() {
	if s.backup != "" {
		os.Remove(s.backup)
		s.backup = ""
	}
}

// discard removes the temporary files of a stage that was not kept.
func (s *stage) discard() {
	if s.tmp != "" {
		os.Remove(s.tmp)
	}
	s.finish()
}

// ErrStopped is wrapped by the error of a write that cancelling the
// context stopped: a signal, for the command, which exits as interrupted.
var ErrStopped = errors.New("stopped")

// writeThrough writes to a pipe or character device as it is, until ctx
// is cancelled.
func writeThrough(ctx context.Context, o *output) error {
	f := o.file
	// A file outside the poller (such as /dev/null) has no deadline; it
	// does not block either.
	stop := context.AfterFunc(ctx, func() { f.SetWriteDeadline(time.Now()) })
	_, err := f.Write(o.data)
	stop()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("--%s %s: %w: nothing was reading it (%v)", o.name, o.path, ErrStopped, context.Cause(ctx))
	case err != nil:
		return fmt.Errorf("--%s %s: %v", o.name, o.path, unwrap(err))
	}
	return nil
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
