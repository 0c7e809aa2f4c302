package sim

// Test hooks: the engine's tests run real combats (package combat, which
// imports sim), so they live in package sim_test and reach the internals
// through these.

// ChunkRunner runs chunks of a model into its histograms, as a worker does.
type ChunkRunner interface {
	Run(seed, chunk uint64, size int)
}

type chunkRunner struct{ w *denseWorker }

func (r chunkRunner) Run(seed, chunk uint64, size int) { r.w.run(seed, chunk, size) }

// NewChunkRunner returns a worker's chunk loop for m.
func NewChunkRunner(m Model) ChunkRunner {
	return chunkRunner{&denseWorker{m: m, h: make([]uint64, 4*m.NumOutcomes()), d: NewStream(1, 0), pcg: &pcg{1, 1}}}
}

// SampleFlat runs n trials of a flat table into h (4 interleaved histograms).
func SampleFlat(f *Flat, seed1, seed2 uint64, h []uint64, n int) { f.sample(&pcg{seed1, seed2}, h, n) }

// EachPath calls fn with the rolls and outcome of every path of m's dice
// tree, as exact enumeration walks it.
func EachPath(m Model, fn func(rolls []int, outcome int)) {
	e := &enumerator{}
	rolls := make([]int, 0, 16)
	for {
		o := m.Resolve(e)
		rolls = rolls[:0]
		for _, ch := range e.path[:e.depth] {
			rolls = append(rolls, ch.value)
		}
		fn(rolls, o)
		if !e.next() {
			return
		}
	}
}

// FlatOutcome is the outcome a flat table lists for a roll sequence; a
// path that stops early stands for every extension of it (rolls of 1 here).
func FlatOutcome(f *Flat, rolls []int) int {
	i := 0
	for k, s := range f.sides {
		r := 1
		if k < len(rolls) {
			r = rolls[k]
		}
		i = i*s + r - 1
	}
	return int(f.outcome[i])
}
