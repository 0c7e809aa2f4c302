package fileio

import (
	"fmt"
	"io"
	"os"
)

// Open opens the regular file at path to be streamed (a part to merge, in
// JSON), refusing anything else (a folder, a device, a pipe) and any file
// larger than limit bytes before reading any of it. The reader fails
// rather than read past limit should the file grow while it is read.
func Open(path string, limit int64) (io.ReadCloser, error) {
	f, st, err := openRegular(path, "a JSON file")
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		f.Close()
		return nil, tooLarge(path, limit)
	}
	return &capped{f: f, path: path, limit: limit, left: limit}, nil
}

func tooLarge(path string, limit int64) error {
	return fmt.Errorf("%s: the file is larger than %d bytes, the most this reads", path, limit)
}

// capped reads a file up to a limit, and fails past it.
type capped struct {
	f           *os.File
	path        string
	limit, left int64
}

func (c *capped) Read(b []byte) (int, error) {
	if c.left <= 0 {
		// One byte more tells a file that ends at the limit from one
		// that goes on.
		var one [1]byte
		if n, _ := c.f.Read(one[:]); n > 0 {
			return 0, tooLarge(c.path, c.limit)
		}
		return 0, io.EOF
	}
	if int64(len(b)) > c.left {
		b = b[:c.left]
	}
	n, err := c.f.Read(b)
	c.left -= int64(n)
	return n, err
}

func (c *capped) Close() error { return c.f.Close() }
