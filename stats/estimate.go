package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// Z95 is the standard normal quantile for a two-sided 95% interval: gonum's
// distuv.UnitNormal.Quantile(0.975), written out (a test holds it to that)
// so the browser's engine carries no quantile function.
const Z95 = 1.9599639845400536

// Estimate is a probability with its 95% interval. Exact values have
// Lo == Hi == P.
type Estimate struct {
	P  float64 `json:"p"`
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// HalfWidth is the larger distance from P to an end of the interval.
func (e Estimate) HalfWidth() float64 { return math.Max(e.P-e.Lo, e.Hi-e.P) }

// Exact is a probability known exactly.
func Exact(p float64) Estimate { return Estimate{p, p, p} }

// Wilson estimates a probability from k successes in n trials with the
// Wilson score interval at normal quantile z:
//
//	centre = (p + z²/2n) / (1 + z²/n)
//	half   = z/(1 + z²/n) · sqrt(p(1-p)/n + z²/4n²)
//
// It behaves well at p near 0 or 1, where the normal interval collapses. n
// must be positive and k <= n.
func Wilson(k, n uint64, z float64) Estimate {
	if n == 0 || k > n {
		panic("stats: Wilson needs 0 <= k <= n and n > 0")
	}
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	e := Estimate{P: p, Lo: math.Max(0, centre-half), Hi: math.Min(1, centre+half)}
	// At the ends the interval touches 0 or 1 exactly; rounding must not
	// leave it a hair off.
	if k == 0 {
		e.Lo = 0
	}
	if k == n {
		e.Hi = 1
	}
	return e
}

// Mean is an expected value with its standard error and 95% interval.
// Exact means have SE 0 and Lo == Hi == Mean.
type Mean struct {
	Mean float64 `json:"mean"`
	SE   float64 `json:"se"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
}

// MeanOf is the mean of values weighted by weights (probabilities or
// counts). With n > 0 the values are n samples and the standard error is
// sqrt(var/n) with the unbiased sample variance; with n == 0 the weights are
// exact probabilities and the mean is exact.
func MeanOf(values, weights []float64, n uint64) Mean {
	if len(values) == 0 {
		return Mean{}
	}
	if n == 0 {
		m := stat.Mean(values, weights)
		return Mean{Mean: m, Lo: m, Hi: m}
	}
	m, v := stat.MeanVariance(values, weights)
	if math.IsNaN(v) || v < 0 {
		v = 0
	}
	se := math.Sqrt(v / float64(n))
	return Mean{Mean: m, SE: se, Lo: m - Z95*se, Hi: m + Z95*se}
}
