package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// chiSquaredSurvival is gonum's chi-squared survival function within
// 1e-12 (relative, or absolute below 1e-300) from 1 to 80 degrees of
// freedom and statistics from 0 to 400, the tail included.
func TestChiSquaredSurvivalIsGonums(t *testing.T) {
	worst := 0.0
	for k := 1.0; k <= 80; k++ {
		for x := 0.0; x <= 400; x += 0.37 {
			got, want := chiSquaredSurvival(k, x), distuv.ChiSquared{K: k}.Survival(x)
			if want < 1e-300 {
				if got > 1e-290 {
					t.Errorf("k %v, x %v: %v, gonum %v", k, x, got, want)
				}
				continue
			}
			rel := math.Abs(got-want) / want
			worst = max(worst, rel)
			if rel > 1e-12 {
				t.Errorf("k %v, x %v: %v, gonum %v (relative %v)", k, x, got, want, rel)
			}
		}
	}
	if got := chiSquaredSurvival(3, math.NaN()); !math.IsNaN(got) {
		t.Errorf("x NaN: %v, want NaN as gonum", got)
	}
	for _, x := range []float64{-1, 0, math.Inf(1), 1e308} {
		if got, want := chiSquaredSurvival(3, x), (distuv.ChiSquared{K: 3}).Survival(x); got != want {
			t.Errorf("x %v: %v, gonum %v", x, got, want)
		}
	}
	t.Logf("worst relative difference %v", worst)
}

// Z95 is the normal quantile gonum gives.
func TestZ95IsGonums(t *testing.T) {
	if want := distuv.UnitNormal.Quantile(0.975); Z95 != want {
		t.Errorf("Z95 = %v, gonum %v", Z95, want)
	}
}
