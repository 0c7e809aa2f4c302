package main

import (
	"fmt"
	"runtime/debug"
)

// version is the module version and the VCS revision the binary was built
// from, as the Go toolchain recorded them.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return fmt.Sprintf("%s, %s", v, info.GoVersion)
	}
	return fmt.Sprintf("%s, revision %s (%s%s), %s", v, rev, when, dirty, info.GoVersion)
}
