//go:build unix

package fileio

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// throughDescriptor makes t, which names descriptor fd of this process, an
// output written through a copy of that descriptor when it is open on a
// regular file: where the shell opened it for appending, the report is
// appended; nothing is replaced. On a pipe or device (ok false) the path
// is opened as any other. A descriptor that is not open, or is open only
// for reading, is refused before any work.
func throughDescriptor(t Target, fd int) (o *output, ok bool, err error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		if errors.Is(err, syscall.EBADF) {
			return nil, false, fmt.Errorf("--%s %s: descriptor %d is not open; open it for writing (for example 3>>log.txt) or give a file", t.Name, t.Path, fd)
		}
		return nil, false, fmt.Errorf("--%s %s: %v", t.Name, t.Path, err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, false, nil
	}
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	if errno != 0 {
		return nil, false, fmt.Errorf("--%s %s: %v", t.Name, t.Path, errno)
	}
	if flags&syscall.O_ACCMODE == syscall.O_RDONLY {
		return nil, false, fmt.Errorf("--%s %s: descriptor %d is open for reading only; give a file to write", t.Name, t.Path, fd)
	}
	dup, err := syscall.Dup(fd)
	if err != nil {
		return nil, false, fmt.Errorf("--%s %s: %v", t.Name, t.Path, err)
	}
	syscall.CloseOnExec(dup)
	f := os.NewFile(uintptr(dup), t.Path)
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, false, fmt.Errorf("--%s %s: %v", t.Name, t.Path, unwrap(err))
	}
	return &output{name: t.Name, path: t.Path, real: t.Path, mode: info.Mode().Perm(), info: info, through: true, file: f}, true, nil
}
