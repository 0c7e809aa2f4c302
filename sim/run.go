package sim

// Methods a run may use.
const (
	MethodExact      = "exact"
	MethodMonteCarlo = "monte-carlo"
)

// Run is how a run was made, filled in by the engine and common to every
// summary: the method, the dice paths of an exact run, and for Monte Carlo
// the trials, seed, workers and chunk size, whether it was cut short and
// whether it reached its precision target.
type Run struct {
	Method  string  `json:"method"`
	Trials  uint64  `json:"trials,omitempty"`
	Seed    *uint64 `json:"seed,omitempty"`
	Workers int     `json:"workers,omitempty"`
	Chunk   int     `json:"chunk_size,omitempty"`
	Paths   int     `json:"paths,omitempty"`
	Elapsed float64 `json:"elapsed_seconds"`
	Partial bool    `json:"partial"`
	// Precision is the outcome of a precision target, when one was set.
	Precision *Precision `json:"precision,omitempty"`
}

// Precision reports a precision target: whether the largest headline 95%
// half-width fell below it within the trials allowed, and what it was.
type Precision struct {
	Target   float64 `json:"target"`
	Reached  bool    `json:"reached"`
	Achieved float64 `json:"achieved"`
}
