package stats

import "math"

// ChiSquared is a chi-squared test of whether two samples come from the
// same categorical distribution.
type ChiSquared struct {
	Statistic float64 `json:"statistic"`
	DF        int     `json:"df"`
	P         float64 `json:"p_value"`
}

// ChiSquaredTwoSample tests the counts a and b (same categories, by index)
// for homogeneity: the statistic sums (O-E)^2/E over the 2xK table of
// categories either sample saw, with K-1 degrees of freedom. It assumes
// independent samples; samples drawn with common random numbers are
// positively correlated, which makes the test conservative.
func ChiSquaredTwoSample(a, b []uint64) ChiSquared {
	var na, nb float64
	for i := range a {
		na += float64(a[i])
		nb += float64(b[i])
	}
	n := na + nb
	var stat float64
	k := 0
	for i := range a {
		col := float64(a[i]) + float64(b[i])
		if col == 0 {
			continue
		}
		k++
		ea, eb := na*col/n, nb*col/n
		stat += (float64(a[i])-ea)*(float64(a[i])-ea)/ea + (float64(b[i])-eb)*(float64(b[i])-eb)/eb
	}
	if k < 2 || na == 0 || nb == 0 {
		return ChiSquared{DF: max(k-1, 0), P: 1}
	}
	return ChiSquared{Statistic: stat, DF: k - 1, P: chiSquaredSurvival(float64(k-1), stat)}
}

// chiSquaredSurvival is P(X > x) for X chi-squared with k degrees of
// freedom: the regularized upper incomplete gamma Q(k/2, x/2). It is
// written here rather than taken from gonum (distuv.ChiSquared.Survival),
// whose incomplete gamma brings about 17 kB gzipped into the browser's
// engine, for one p-value a comparison reports (docs/performance.md, "The
// browser build"); a test holds it to gonum's within 1e-12.
func chiSquaredSurvival(k, x float64) float64 {
	a, x := k/2, x/2
	switch {
	case x <= 0:
		return 1
	case math.IsInf(x, 1):
		return 0
	}
	lg, _ := math.Lgamma(a)
	front := math.Exp(a*math.Log(x) - x - lg) // x^a e^-x / Gamma(a)
	if x < a+1 {
		// The series of the lower function P; Q = 1 - P is not small here.
		sum, term := 1/a, 1/a
		for n := 1.0; n < 1000; n++ {
			term *= x / (a + n)
			sum += term
			if math.Abs(term) < math.Abs(sum)*1e-17 {
				break
			}
		}
		return max(0, 1-sum*front)
	}
	// Q's continued fraction, evaluated by the modified Lentz method.
	const tiny = 1e-300
	b := x + 1 - a
	c, d := 1/tiny, 1/b
	h := d
	for i := 1.0; i < 1000; i++ {
		an := -i * (i - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return front * h
}
