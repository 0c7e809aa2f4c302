package fileio

import (
	"fmt"
	"os"
)

// Folder makes the folder a command writes its files into, and its
// parents, when missing; an existing file there is an error.
func Folder(path string) error {
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		return fmt.Errorf("%s: is a file; give a folder to write into", path)
	}
	if err := os.MkdirAll(path, 0o755); err != nil {
		return fmt.Errorf("%s: %v", path, unwrap(err))
	}
	return nil
}

// Scratch makes a private temporary folder for a tool's output (a build)
// and returns it with the function that removes it.
func Scratch(prefix string) (string, func(), error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}
