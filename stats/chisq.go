package stats

import "gonum.org/v1/gonum/stat/distuv"

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
	return ChiSquared{Statistic: stat, DF: k - 1, P: distuv.ChiSquared{K: float64(k - 1)}.Survival(stat)}
}
