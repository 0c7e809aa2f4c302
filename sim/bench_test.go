package sim

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// BenchmarkLimit is the floor for a plain land combat: two dice from a
// shared word, a padded table lookup and a histogram increment per trial.
func BenchmarkLimit(b *testing.B) {
	table := make([]uint32, 64)
	for i := range table {
		table[i] = uint32(i % 7)
	}
	var h [4][8]uint64
	pcg := rand.NewPCG(1, 2)
	var word uint64
	left := 0
	b.ResetTimer()
	for j := 0; j < b.N; j++ {
		if left == 0 {
			for {
				word = pcg.Uint64()
				if _, lo := bits.Mul64(word, pow6); lo >= rejectBelow {
					break
				}
			}
			left = 5
		}
		hi, lo := bits.Mul64(word, 36)
		word = lo
		left--
		h[j&3][table[hi+4]]++
	}
}

func BenchmarkFlat(b *testing.B) {
	c := load(b, "../testdata/bench-plain-2d6.yaml")
	h := make([]uint64, 4*len(c.Outcomes))
	b.ResetTimer()
	c.flat.sample(rand.NewPCG(1, 2), h, b.N)
}

func BenchmarkResolve(b *testing.B) {
	c := load(b, "../testdata/bench-plain-2d6.yaml")
	h := make([]uint64, 4*len(c.Outcomes))
	d := NewStream(1, 0)
	b.ResetTimer()
	sampleChunk(c, d, h, b.N)
}
