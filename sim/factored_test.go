package sim

import (
	"math"
	"testing"
)

// Every layout of a factored tree samples its exact distribution: a
// direct pre table, the alias table, and two draws a trial when the
// digits do not fit one word. Each outcome is within 4.5 standard errors
// of P(o) = sum over branches of counts[b]/size times its share of the
// branch's table.
func TestFactoredLayoutsSampleTheirDistribution(t *testing.T) {
	post := []*Flat{BuildFlat(faces{6, 3}.resolve), BuildFlat(faces{36, 5}.resolve), nil, BuildFlat(faces{1, 1}.resolve), BuildFlat(faces{7, 7}.resolve)}
	for _, tc := range []struct {
		name   string
		counts []uint64
		layout string
	}{
		{"direct", []uint64{5, 11, 0, 1, 7}, "direct"},
		{"alias", []uint64{70001, 3, 0, 65536, 9}, "alias"},
		{"two draws", []uint64{1<<47 + 1, 3, 0, 1 << 40, 5}, "two draws"},
	} {
		var size uint64
		for _, c := range tc.counts {
			size += c
		}
		f := NewFactored(tc.counts, size, post)
		if f == nil {
			t.Fatalf("%s: no table", tc.name)
		}
		layout := "two draws"
		switch {
		case f.direct != nil:
			layout = "direct"
		case f.slots != nil:
			layout = "alias"
		}
		if layout != tc.layout {
			t.Fatalf("%s: laid out as %s", tc.name, layout)
		}
		want := make([]float64, 7)
		for b, c := range tc.counts {
			if c == 0 {
				continue
			}
			m := post[b].Paths()
			for i := range m {
				want[post[b].Outcome(i)] += float64(c) / float64(size) / float64(m)
			}
		}
		const trials = 1 << 20
		h := make([]uint64, 4*len(want))
		f.sample(&pcg{3, 4}, h, trials)
		for o, p := range want {
			got := float64(h[o]+h[7+o]+h[14+o]+h[21+o]) / trials
			if se := math.Sqrt(p * (1 - p) / trials); math.Abs(got-p) > 4.5*se+1e-12 {
				t.Errorf("%s: outcome %d sampled %.5f, exact %.5f", tc.name, o, got, p)
			}
		}
	}
}
