package fileio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
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
	// through: a device, pipe or socket, written to as it is; inPlace: a
	// regular file with other hard links, rewritten so they all see it.
	through, inPlace bool
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
			return nil, err
		}
		for _, in := range inputs {
			if in != "" && same(o, in) {
				return nil, fmt.Errorf("--%s %s: that is an input of this command (%s); write the report to another file", t.Name, t.Path, in)
			}
		}
		for _, p := range b.outs {
			if !o.through && same(o, p.real) {
				return nil, fmt.Errorf("--%s %s: --%s writes that file too; give each output its own file", t.Name, t.Path, p.name)
			}
		}
		b.outs = append(b.outs, o)
	}
	return b, nil
}

// check resolves a target and works out how it will be written.
func check(t Target) (*output, error) {
	o := &output{name: t.Name, path: t.Path, real: t.Path, mode: 0o644}
	if li, err := os.Lstat(t.Path); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(t.Path)
		if err != nil {
			return nil, fmt.Errorf("--%s %s: a symbolic link to a file that cannot be reached: %v", t.Name, t.Path, unwrap(err))
		}
		o.real = real
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
	if !st.Mode().IsRegular() {
		o.through = true
	} else if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Nlink > 1 {
		o.inPlace = true
	}
	return o, nil
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
// is first written beside its target; devices are written next; then the
// files are moved into place. If anything fails, the files this commit
// created are removed and the files it replaced get their old content back.
func (b *Batch) Commit() error {
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
			if err := writeThrough(o); err != nil {
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

// writeThrough writes to a device, pipe or socket as it is.
func writeThrough(o *output) error {
	f, err := os.OpenFile(o.real, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("--%s %s: %v", o.name, o.path, unwrap(err))
	}
	_, err = f.Write(o.data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
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
