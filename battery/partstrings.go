package battery

import (
	"fmt"
	"io"
)

// MaxPartString is the longest text a battery part may hold in one JSON
// string, escapes included: its names, variants and results are short (a
// scenario's name is at most 200 bytes, a variant's overrides a few
// hundred). Without it one long string, which the JSON decoder buffers
// and copies whole, cost about four times its size in memory (red-team
// finding F6: a 250 MB name took a gigabyte to refuse).
const MaxPartString = 1 << 20

// stringBound passes a JSON document through, failing as soon as a string
// in it runs past max bytes, before the decoder has buffered it. It
// tracks only whether it is inside a string; the syntax is the decoder's
// to check.
type stringBound struct {
	r       io.Reader
	max     int
	offset  int64 // bytes read so far
	in, esc bool  // inside a string; after its backslash
	run     int   // bytes of the string so far
	tooLong error
}

func (s *stringBound) Read(b []byte) (int, error) {
	if s.tooLong != nil {
		return 0, s.tooLong
	}
	n, err := s.r.Read(b)
	for i, c := range b[:n] {
		switch {
		case !s.in:
			s.in = c == '"'
			s.run = 0
		case s.esc:
			s.esc = false
		case c == '\\':
			s.esc = true
		case c == '"':
			s.in = false
		}
		if s.in {
			if s.run++; s.run > s.max {
				s.tooLong = fmt.Errorf("byte %d: a text longer than %d bytes; a part's names and variants are short", s.offset+int64(i), s.max)
				s.offset += int64(n)
				return i, s.tooLong
			}
		}
	}
	s.offset += int64(n)
	return n, err
}
