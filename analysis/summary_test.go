package analysis

import (
	"math"
	"strconv"
	"testing"
)

// A factor total's key is the shortest decimal of its value, whether
// the name was kept written or not (docs/rules.md §7 reports losses by
// factor total).
func TestFactorKey(t *testing.T) {
	vals := []float64{math.Copysign(0, -1), 0.25, 127.5, 128, 1e21, -3, 2.75, 1.0 / 3}
	for h := 0; h < 300; h++ {
		vals = append(vals, float64(h)/2)
	}
	for _, v := range vals {
		if got, want := factorKey(v), strconv.FormatFloat(v, 'f', -1, 64); got != want {
			t.Errorf("factorKey(%v) = %q, want %q", v, got, want)
		}
	}
}
