package stats

// Tally is an outcome distribution: either exact probabilities (Weights,
// N == 0) or Monte Carlo counts out of N trials (Counts).
type Tally struct {
	Counts  []uint64
	Weights []float64
	N       uint64
}

// Exact reports whether the tally holds exact probabilities.
func (t *Tally) Exact() bool { return t.N == 0 }

// Len is the number of outcomes.
func (t *Tally) Len() int {
	if t.Exact() {
		return len(t.Weights)
	}
	return len(t.Counts)
}

// Prob is the probability (or relative frequency) of outcome i.
func (t *Tally) Prob(i int) float64 {
	if t.Exact() {
		return t.Weights[i]
	}
	return float64(t.Counts[i]) / float64(t.N)
}

// Event estimates the probability of the outcomes for which in is true.
func (t *Tally) Event(in func(i int) bool) Estimate {
	if t.Exact() {
		p := 0.0
		for i, w := range t.Weights {
			if in(i) {
				p += w
			}
		}
		return Exact(min(p, 1))
	}
	var k uint64
	for i, c := range t.Counts {
		if in(i) {
			k += c
		}
	}
	return Wilson(k, t.N, Z95)
}

// Distribution estimates P(value == v) for v = 0..len-1 where value maps
// each outcome to a whole number. dst is reused when long enough.
func (t *Tally) Distribution(dst []Estimate, value func(i int) int) []Estimate {
	top := -1
	for i := 0; i < t.Len(); i++ {
		if t.Prob(i) > 0 {
			top = max(top, value(i))
		}
	}
	if cap(dst) < top+1 {
		dst = make([]Estimate, top+1)
	}
	dst = dst[:top+1]
	for v := range dst {
		dst[v] = t.Event(func(i int) bool { return value(i) == v })
	}
	return dst
}

// Mean estimates the expected value of value over the outcomes.
func (t *Tally) Mean(value func(i int) float64) Mean {
	vals := make([]float64, t.Len())
	ws := make([]float64, t.Len())
	for i := range vals {
		vals[i] = value(i)
		if t.Exact() {
			ws[i] = t.Weights[i]
		} else {
			ws[i] = float64(t.Counts[i])
		}
	}
	return MeanOf(vals, ws, t.N)
}
