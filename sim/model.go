package sim

// Model is a compiled random process the engine can run: a combat, an
// invasion or a raid. The engine knows nothing of the rules behind it; it
// only rolls dice and counts outcome indices.
type Model interface {
	// NumOutcomes is the number of distinct outcomes; Resolve and Trial
	// return indices below it.
	NumOutcomes() int
	// Resolve runs one trial on d and returns its outcome index. It is the
	// reference routine: exact enumeration, replay and flat tables all
	// run it.
	Resolve(d Dice) int
	// Trial is Resolve on the engine's own Stream, called with no
	// interface dispatch per roll; it must return what Resolve would.
	Trial(d Stream) int
	// Flat is the model's dice tree laid out by BuildFlat, or nil when it
	// is too large or not fixed in advance; Monte Carlo then calls Trial,
	// or a Batcher's Trials a block of trials at a time.
	Flat() *Flat
}
