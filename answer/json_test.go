package answer

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// escapeControlsByRune is the plain reference for escapeJSONControls:
// every rune of the (valid UTF-8) text, DEL and U+0080 to U+009F escaped.
func escapeControlsByRune(js []byte) []byte {
	var out strings.Builder
	for _, r := range string(js) {
		if r >= 0x7f && r <= 0x9f {
			fmt.Fprintf(&out, "\\u%04x", r)
			continue
		}
		out.WriteRune(r)
	}
	return []byte(out.String())
}

// Looking for DEL and the C1 controls by their bytes escapes what
// decoding every rune escapes (issue 23 item 14: JSON on a terminal is as
// safe as text), on random names mixing ASCII, DEL, C1, Latin-1 (0xc2 0xa0
// and up share C1's lead byte), other two-, three- and four-byte runes and
// invalid bytes, as encoding/json writes them.
func TestEscapeJSONControlsByBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 3))
	runes := []rune{'a', '"', '\\', 0x7f, 0x80, 0x9b, 0x9f, 0xa0, 0xc2, 0xff, 0x100, 0x2028, 0x7f7f, 0x1f600}
	for i := range 5000 {
		var name []byte
		for range rng.IntN(12) {
			if rng.IntN(8) == 0 {
				name = append(name, byte(rng.IntN(256))) // maybe invalid UTF-8
			} else {
				name = utf8.AppendRune(name, runes[rng.IntN(len(runes))])
			}
		}
		js, err := appendReflectJSON(nil, map[string]string{"name": string(name)})
		if err != nil {
			t.Fatal(err)
		}
		want := escapeControlsByRune(js)
		if got := escapeJSONControls(js); !bytes.Equal(got, want) {
			t.Fatalf("case %d %q: got %s, want %s", i, name, got, want)
		}
	}
}
