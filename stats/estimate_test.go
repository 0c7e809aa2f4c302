package stats

import (
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	// Reference values: Wilson score interval at z = 1.959964.
	cases := []struct {
		k, n   uint64
		lo, hi float64
	}{
		{50, 100, 0.403831, 0.596169},
		{0, 10, 0, 0.277533},
		{10, 10, 0.722467, 1},
		{1, 1000, 0.000177, 0.0056425},
	}
	for _, c := range cases {
		e := Wilson(c.k, c.n, Z95)
		if math.Abs(e.Lo-c.lo) > 1e-6 || math.Abs(e.Hi-c.hi) > 1e-6 {
			t.Errorf("Wilson(%d, %d) = [%.6f, %.6f], want [%.6f, %.6f]", c.k, c.n, e.Lo, e.Hi, c.lo, c.hi)
		}
		if e.P != float64(c.k)/float64(c.n) || e.Lo > e.P || e.Hi < e.P {
			t.Errorf("Wilson(%d, %d) = %+v does not bracket the estimate", c.k, c.n, e)
		}
	}
	if math.Abs(Z95-1.959963985) > 1e-9 {
		t.Errorf("Z95 = %v", Z95)
	}
}

func TestMeanOf(t *testing.T) {
	vals := []float64{0, 1, 2}
	m := MeanOf(vals, []float64{0.25, 0.5, 0.25}, 0)
	if m.Mean != 1 || m.SE != 0 || m.Lo != 1 || m.Hi != 1 {
		t.Errorf("exact mean %+v", m)
	}
	// Counts 1, 2, 1 out of 4: sample variance (unbiased) = 2/3.
	m = MeanOf(vals, []float64{1, 2, 1}, 4)
	if m.Mean != 1 || math.Abs(m.SE-math.Sqrt(2.0/3/4)) > 1e-12 || math.Abs(m.Hi-m.Mean-Z95*m.SE) > 1e-12 {
		t.Errorf("sampled mean %+v", m)
	}
}

func TestTally(t *testing.T) {
	ex := &Tally{Weights: []float64{0.5, 0.25, 0.25}}
	mc := &Tally{Counts: []uint64{50, 25, 25}, N: 100}
	value := func(i int) int { return []int{0, 2, 2}[i] }
	for _, tl := range []*Tally{ex, mc} {
		d := tl.Distribution(nil, value)
		if len(d) != 3 || d[0].P != 0.5 || d[1].P != 0 || d[2].P != 0.5 {
			t.Errorf("distribution %+v", d)
		}
		if e := tl.Event(func(i int) bool { return i > 0 }); e.P != 0.5 {
			t.Errorf("event %+v", e)
		}
	}
	if e := mc.Event(func(i int) bool { return i == 0 }); e.Lo >= 0.5 || e.Hi <= 0.5 {
		t.Errorf("sampled event has no interval: %+v", e)
	}
	if e := ex.Event(func(i int) bool { return i == 0 }); e.Lo != 0.5 || e.Hi != 0.5 {
		t.Errorf("exact event has an interval: %+v", e)
	}
}

func TestChiSquaredTwoSample(t *testing.T) {
	// Identical samples: statistic 0, p 1.
	if c := ChiSquaredTwoSample([]uint64{10, 20, 30}, []uint64{10, 20, 30}); c.Statistic != 0 || c.DF != 2 || math.Abs(c.P-1) > 1e-12 {
		t.Errorf("identical: %+v", c)
	}
	// 2x2 table [[30, 70], [50, 50]]: expected 40/60 each row; statistic
	// 2*(100/40 + 100/60) = 8.3333, df 1, p = 0.00389.
	c := ChiSquaredTwoSample([]uint64{30, 70}, []uint64{50, 50})
	if math.Abs(c.Statistic-8.333333) > 1e-5 || c.DF != 1 || math.Abs(c.P-0.003892) > 1e-5 {
		t.Errorf("2x2: %+v", c)
	}
	// Categories neither sample saw do not count.
	if c := ChiSquaredTwoSample([]uint64{30, 0, 70}, []uint64{50, 0, 50}); c.DF != 1 {
		t.Errorf("empty category counted: %+v", c)
	}
}

// An accumulator fed a tally's outcomes in order gives Event's estimate.
func TestAccIsEvent(t *testing.T) {
	for _, tl := range []*Tally{{Weights: []float64{0.1, 0.2, 0.3, 0.4}}, {Counts: []uint64{5, 0, 7, 9}, N: 21}} {
		var a Acc
		for i := 0; i < tl.Len(); i++ {
			if i != 1 {
				a.Add(tl, i)
			}
		}
		if got, want := a.Estimate(tl), tl.Event(func(i int) bool { return i != 1 }); got != want {
			t.Errorf("%v, want %v", got, want)
		}
	}
}
