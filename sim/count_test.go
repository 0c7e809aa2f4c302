package sim

import (
	"strings"
	"testing"
)

// A seed is read as a decimal number by the CLI and the API alike
// (issue 23 item 8): a leading zero is not octal and 0x is not hex.
func TestParseSeed(t *testing.T) {
	for in, want := range map[string]uint64{
		"0": 0, "1": 1, "010": 10, "007": 7, " 42 ": 42, "1_000": 1000,
		"18446744073709551615": 1<<64 - 1, "00018446744073709551615": 1<<64 - 1,
	} {
		got, err := ParseSeed(in)
		if err != nil || got != want {
			t.Errorf("ParseSeed(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"0x10": "decimal", "0X10": "decimal", "0o17": "decimal", "0b1": "decimal", "-1": "no sign", "+1": "no sign",
		"": "decimal", "1e3": "decimal", "1.0": "decimal", "_1": "decimal", "1_": "decimal", "1__0": "decimal", "seven": "decimal",
		"18446744073709551616": "at most 18446744073709551615",
	} {
		if v, err := ParseSeed(in); err == nil || !strings.Contains(err.Error(), msg) || !strings.Contains(err.Error(), `"`+in+`"`) {
			t.Errorf("ParseSeed(%q) = %d, %v; want an error naming it and saying %q", in, v, err, msg)
		}
	}
}
