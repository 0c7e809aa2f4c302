//go:build unix

package fileio

import "syscall"

// nonblock opens a pipe without waiting for its reader (see output.open).
const nonblock = syscall.O_NONBLOCK
