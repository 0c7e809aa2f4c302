package sim

import (
	"math/rand/v2"
	"testing"
)

// The hot loops do not allocate.
func TestHotLoopsDoNotAllocate(t *testing.T) {
	for _, path := range []string{"../testdata/bench-plain-2d6.yaml", "testdata/wild-2d6-fractional.yaml"} {
		c := load(t, path)
		for _, m := range []Model{c, PerTrial(c)} {
			w := &denseWorker{m: m, h: make([]uint64, 4*len(c.Outcomes)), d: NewStream(1, 0), pcg: rand.NewPCG(1, 1)}
			if n := testing.AllocsPerRun(5, func() { w.run(1, 0, 4096) }); n != 0 {
				t.Errorf("%s: %v allocations per chunk", path, n)
			}
		}
	}
	c := load(t, "../examples/artillery-support.yaml")
	w0 := &denseWorker{m: PerTrial(c), h: make([]uint64, 4*len(c.Outcomes)), d: NewStream(1, 0), pcg: rand.NewPCG(1, 1)}
	if n := testing.AllocsPerRun(5, func() { w0.run(1, 0, 4096) }); n != 0 {
		t.Errorf("pre-combat steps: %v allocations per chunk", n)
	}
	r := loadRaid(t, "../examples/dusseldorf-bombardment.yaml")
	w := &denseWorker{m: r, h: make([]uint64, 4*len(r.Outcomes)), d: NewStream(1, 0), pcg: rand.NewPCG(1, 1)}
	if n := testing.AllocsPerRun(5, func() { w.run(1, 0, 4096) }); n != 0 {
		t.Errorf("raid: %v allocations per chunk", n)
	}
}
