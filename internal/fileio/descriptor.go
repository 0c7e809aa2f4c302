package fileio

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// descriptorPath reports the descriptor of this process that path names:
// /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N,
// /proc/thread-self/fd/N and /proc/PID/fd/N with this process's PID.
// Followed as links, these lead to whatever the descriptor is open on,
// which for `-o /dev/stdout >> log.txt` is log.txt itself: replaced, it
// would lose what the shell's append kept. Such an output is written
// through the descriptor instead, as standard output is.
func descriptorPath(path string) (int, bool) {
	p, err := filepath.Abs(path)
	if err != nil {
		return 0, false
	}
	switch p {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	var n string
	switch {
	case strings.HasPrefix(p, "/dev/fd/"):
		n = p[len("/dev/fd/"):]
	case strings.HasPrefix(p, "/proc/"):
		proc, rest, ok := strings.Cut(p[len("/proc/"):], "/fd/")
		if !ok || proc != "self" && proc != "thread-self" && proc != strconv.Itoa(os.Getpid()) {
			return 0, false
		}
		n = rest
	default:
		return 0, false
	}
	if n == "" || strings.TrimLeft(n, "0123456789") != "" || len(n) > 9 {
		return 0, false
	}
	fd, err := strconv.Atoi(n)
	return fd, err == nil
}
