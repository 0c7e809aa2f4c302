package stats

// Acc accumulates the probability of an event outcome by outcome, for
// summaries that read many events in one pass over a tally instead of one
// pass (and one predicate call per outcome) each. Adding a tally's
// outcomes in index order gives the very estimate Event does.
type Acc struct {
	p float64 // exact: the sum of weights
	k uint64  // sampled: the sum of counts
}

// Add adds outcome i of t.
func (a *Acc) Add(t *Tally, i int) {
	if t.Exact() {
		a.p += t.Weights[i]
	} else {
		a.k += t.Counts[i]
	}
}

// Estimate is the event's probability, as Event gives it.
func (a *Acc) Estimate(t *Tally) Estimate {
	if t.Exact() {
		return Exact(min(a.p, 1))
	}
	return Wilson(a.k, t.N, Z95)
}

// MeanWeights are the tally's weights as MeanOf takes them: exact
// probabilities, or counts. dst is reused when long enough.
func (t *Tally) MeanWeights(dst []float64) []float64 {
	n := t.Len()
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	for i := range dst {
		if t.Exact() {
			dst[i] = t.Weights[i]
		} else {
			dst[i] = float64(t.Counts[i])
		}
	}
	return dst
}
