package reports

import "testing"

// Counts of trials and paths are written with commas between groups of
// three digits.
func TestThousands(t *testing.T) {
	for n, want := range map[uint64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", 1 << 40: "1,099,511,627,776"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
