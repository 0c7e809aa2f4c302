package fileio

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ReadFile reads the regular file at path, refusing anything else (a
// folder, a device, a pipe) and any file larger than limit bytes, before
// reading more than limit+1 bytes of it.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, _, err := openRegular(path, "a YAML file")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, plainError(path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: the file is larger than %d bytes; a scenario or table is a few kilobytes", path, limit)
	}
	return data, nil
}

// openRegular opens the regular file at path, refusing anything else; a
// refusal asks for what, the kind of file the caller reads.
func openRegular(path, what string) (*os.File, fs.FileInfo, error) {
	// Look before opening: opening a named pipe waits for a writer.
	if st, err := os.Stat(path); err != nil {
		return nil, nil, plainError(path, err)
	} else if err := regular(path, what, st); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, plainError(path, err)
	}
	st, err := f.Stat()
	if err == nil {
		err = regular(path, what, st)
	} else {
		err = plainError(path, err)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// regular explains why a file that is not a regular file cannot be read as
// one.
func regular(path, what string, st fs.FileInfo) error {
	switch m := st.Mode(); {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return fmt.Errorf("%s: is a folder, not a file", path)
	default:
		return fmt.Errorf("%s: not a regular file (%s); give the path of %s", path, kind(m), what)
	}
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// plainError words an *fs.PathError without repeating the operation.
func plainError(path string, err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", path, err)
}
