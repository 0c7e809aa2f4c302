package answer

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// jsonWriter appends indented JSON (two spaces, no prefix) to a byte
// slice, producing what encoding/json's Encoder with SetIndent("", "  ")
// produces for the same values: strings escaped as it escapes them, HTML
// characters included; floats in its ES6-style format; an empty object
// or array written {} or []; a newline at the end. The first error (a
// NaN or an infinity, which JSON cannot hold) sticks.
type jsonWriter struct {
	b     []byte
	depth int
	empty bool // nothing written yet in the object or array just opened
	err   error
	// The last float written, as its bits and where its text is in b:
	// an exact answer repeats each probability (an estimate's p, lo and hi,
	// a result and its interval), and copying beats formatting again.
	lastBits         uint64
	lastFrom, lastTo int
}

// open starts an object ('{') or an array ('[').
func (w *jsonWriter) open(c byte) {
	w.b = append(w.b, c)
	w.depth++
	w.empty = true
}

// close ends the object or array open.
func (w *jsonWriter) close(c byte) {
	w.depth--
	if !w.empty {
		w.newline()
	}
	w.b = append(w.b, c)
	w.empty = false
}

func (w *jsonWriter) newline() {
	w.b = append(w.b, '\n')
	for range w.depth {
		w.b = append(w.b, ' ', ' ')
	}
}

// elem starts an array element.
func (w *jsonWriter) elem() {
	if !w.empty {
		w.b = append(w.b, ',')
	}
	w.empty = false
	w.newline()
}

// field starts an object member whose key needs no escaping (a struct
// tag's name).
func (w *jsonWriter) field(k string) {
	w.elem()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':', ' ')
}

// key starts an object member with any key.
func (w *jsonWriter) key(k string) {
	w.elem()
	w.b = appendJSONString(w.b, k)
	w.b = append(w.b, ':', ' ')
}

func (w *jsonWriter) null() { w.b = append(w.b, "null"...) }

func (w *jsonWriter) str(s string) { w.b = appendJSONString(w.b, s) }

func (w *jsonWriter) boolean(v bool) { w.b = strconv.AppendBool(w.b, v) }

func (w *jsonWriter) int(v int) { w.b = strconv.AppendInt(w.b, int64(v), 10) }

func (w *jsonWriter) uint(v uint64) { w.b = strconv.AppendUint(w.b, v, 10) }

// float writes f as encoding/json does: 'f' notation unless f is below
// 1e-6 or at least 1e21 in size, then 'e' with a one-digit negative
// exponent unpadded (1e-7, not 1e-07); the shortest digits that read back
// as f.
func (w *jsonWriter) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if w.err == nil {
			w.err = &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, 64)}
		}
		w.null()
		return
	}
	if bits := math.Float64bits(f); w.lastTo > 0 && bits == w.lastBits {
		w.b = append(w.b, w.b[w.lastFrom:w.lastTo]...)
		return
	}
	from := len(w.b)
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	w.b = strconv.AppendFloat(w.b, f, format, -1, 64)
	if n := len(w.b); format == 'e' && n >= 4 && w.b[n-4] == 'e' && w.b[n-3] == '-' && w.b[n-2] == '0' {
		w.b[n-2] = w.b[n-1]
		w.b = w.b[:n-1]
	}
	w.lastBits, w.lastFrom, w.lastTo = math.Float64bits(f), from, len(w.b)
}

// start opens an object ('{') or an array ('[') and says so, or writes
// null for a nil map or slice and says it did not.
func (w *jsonWriter) start(c byte, null bool) bool {
	if null {
		w.null()
		return false
	}
	w.open(c)
	return true
}

// The lists a summary holds, each null when nil. (Written out per type:
// a function value taking w would move w to the heap, and every append
// to w.b would then pay the garbage collector's write barrier.)

func (w *jsonWriter) floats(v []float64) {
	if w.start('[', v == nil) {
		for _, x := range v {
			w.elem()
			w.float(x)
		}
		w.close(']')
	}
}

func (w *jsonWriter) ints(v []int) {
	if w.start('[', v == nil) {
		for _, x := range v {
			w.elem()
			w.int(x)
		}
		w.close(']')
	}
}

func (w *jsonWriter) strs(v []string) {
	if w.start('[', v == nil) {
		for _, x := range v {
			w.elem()
			w.str(x)
		}
		w.close(']')
	}
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json quotes a string with
// HTML escaping on (its default): ", \ and control characters escaped
// (\b \f \n \r \t by name, the others as \u00XX), <, > and & as \u003c,
// \u003e and \u0026, U+2028 and U+2029 as \u2028 and \u2029, and each
// byte of invalid UTF-8 as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
