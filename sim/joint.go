package sim

import (
	"context"
	"sync"
)

// fillChunk runs size trials of m for chunk of the run seeded with seed and
// writes each trial's outcome index to out: the same trials Sample tallies.
func fillChunk(m Model, pcg *pcg, d Stream, seed, chunk uint64, out []int32) {
	if f := m.Flat(); f != nil {
		seedChunk(pcg, seed, chunk)
		f.fill(pcg, out)
		return
	}
	if fm, ok := m.(FactoredModel); ok {
		if f := fm.Factored(); f != nil {
			seedChunk(pcg, seed, chunk)
			f.fill(&factoredDraw{g: *pcg}, out)
			return
		}
	}
	d.Reset(seed, chunk)
	if b, ok := m.(Batcher); ok {
		b.Trials(d, out)
		return
	}
	for j := range out {
		out[j] = int32(m.Trial(d))
	}
}

// Joint is the joint tally of two models run trial by trial: Counts[a*NB+b]
// trials gave outcome a of the first and b of the second.
type Joint struct {
	Counts  []uint64
	NA, NB  int
	Trials  uint64
	Partial bool
}

// SampleJoint runs the same trials of a and b: trial j of chunk i of a
// uses the stream (cfg.Seed, i) and of b the stream (seedB, i). With
// seedB == cfg.Seed the two share their random numbers (common random
// numbers), so the difference between them carries far less noise than two
// independent runs; another seedB gives independent runs, for comparison.
func SampleJoint(ctx context.Context, a, b Model, cfg Config, seedB uint64) (*Joint, error) {
	p, err := newPool(cfg)
	if err != nil {
		return nil, err
	}
	na, nb := a.NumOutcomes(), b.NumOutcomes()
	j := &Joint{Counts: make([]uint64, na*nb), NA: na, NB: nb}
	var mu sync.Mutex
	newWorker := func() chunkWorker {
		return &jointWorker{a: a, b: b, seedB: seedB, h: make([]uint64, na*nb), nb: nb,
			bufA: make([]int32, ChunkSize), bufB: make([]int32, ChunkSize), pcg: new(pcg), d: NewStream(0, 0),
			merge: func(h []uint64) {
				mu.Lock()
				defer mu.Unlock()
				for i, c := range h {
					j.Counts[i] += c
				}
			}}
	}
	j.Partial = !p.rounds(ctx, newWorker, nil)
	j.Trials = p.trials
	return j, nil
}

type jointWorker struct {
	a, b       Model
	seedB      uint64
	h          []uint64
	nb         int
	bufA, bufB []int32
	pcg        *pcg
	d          Stream
	merge      func([]uint64)
}

func (w *jointWorker) run(seed, chunk uint64, size int) {
	fillChunk(w.a, w.pcg, w.d, seed, chunk, w.bufA[:size])
	fillChunk(w.b, w.pcg, w.d, w.seedB, chunk, w.bufB[:size])
	for k := 0; k < size; k++ {
		w.h[int(w.bufA[k])*w.nb+int(w.bufB[k])]++
	}
}

func (w *jointWorker) done() { w.merge(w.h) }

// Marginal returns the first (which == 0) or second model's tally.
func (j *Joint) Marginal(which int) []uint64 {
	if which == 0 {
		out := make([]uint64, j.NA)
		for a := 0; a < j.NA; a++ {
			for b := 0; b < j.NB; b++ {
				out[a] += j.Counts[a*j.NB+b]
			}
		}
		return out
	}
	out := make([]uint64, j.NB)
	for a := 0; a < j.NA; a++ {
		for b := 0; b < j.NB; b++ {
			out[b] += j.Counts[a*j.NB+b]
		}
	}
	return out
}
