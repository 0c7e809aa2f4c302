package sim

import "math/bits"

// pcg is the PCG-DXSM generator of math/rand/v2's PCG, output for output
// (a test checks it), as a value: the hot loops keep a copy in local
// variables, so its state stays in registers instead of being stored and
// reloaded through a pointer on every draw (docs/performance.md). Seeded
// runs are therefore what they were with rand.PCG.
type pcg struct{ hi, lo uint64 }

// Seed sets the state, as rand.PCG.Seed does.
func (p *pcg) Seed(seed1, seed2 uint64) { p.hi, p.lo = seed1, seed2 }

// Uint64 returns the next output and advances p.
func (p *pcg) Uint64() uint64 {
	var x uint64
	*p, x = p.step()
	return x
}

// step is one step of the 128-bit LCG and the DXSM output of the new
// state: the returned generator and the draw.
func (p pcg) step() (pcg, uint64) {
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	hi, lo := bits.Mul64(p.lo, mulLo)
	hi += p.hi*mulLo + p.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	// DXSM: double xorshift multiply of the high half, by the low half.
	const cheapMul = 0xda942042e4dd58b5
	x := hi
	x ^= x >> 32
	x *= cheapMul
	x ^= x >> 48
	x *= lo | 1
	return pcg{hi, lo}, x
}

// PCG is the engine's generator for code outside the package that must
// draw exactly as the engine does, at its speed: the benchmarks' limit
// kernels. It is a value; Next returns the generator past the draw.
type PCG struct{ g pcg }

// NewPCG returns the generator seeded as rand.NewPCG(seed1, seed2).
func NewPCG(seed1, seed2 uint64) PCG { return PCG{pcg{seed1, seed2}} }

// Next returns the generator past one draw, and the draw.
func (p PCG) Next() (PCG, uint64) {
	g, x := p.g.step()
	return PCG{g}, x
}
