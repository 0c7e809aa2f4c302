package combat

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// num writes a factor total as %g does, which the working and the table
// choice's reasons have always shown.
func TestNumIsPercentG(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	vals := []float64{0, math.Copysign(0, -1), 0.5, 1, 13.5, 1e-5, 1e20, 1e21, 123456789, -3.25}
	for range 100000 {
		vals = append(vals, float64(rng.IntN(4000))/4, rng.Float64()*1e9, math.Float64frombits(rng.Uint64()))
	}
	for _, v := range vals {
		if got, want := num(v), fmt.Sprintf("%g", v); got != want {
			t.Fatalf("num(%v) = %q, %%g %q", v, got, want)
		}
	}
}
