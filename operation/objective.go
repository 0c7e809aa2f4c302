package operation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wifodds/wifodds/internal/yamlx"
)

// ObjectiveKind is what an operation aims for.
type ObjectiveKind string

// Objective kinds (issue 28: plan.objective).
const (
	// Expected is the expected value of the hexes taken, each worth its
	// value.
	Expected ObjectiveKind = "expected"
	// All is the chance of taking every target.
	All ObjectiveKind = "all"
	// AtLeast is the chance of taking K or more targets.
	AtLeast ObjectiveKind = "at_least"
	// Set is the chance of taking every target of a set (e.g. the ring
	// that closes a pocket).
	Set ObjectiveKind = "set"
)

// ObjectiveKinds lists every kind.
var ObjectiveKinds = []string{string(Expected), string(All), string(AtLeast), string(Set)}

// Objective is an aim a joint distribution is scored by: K for AtLeast,
// the target ids of Set.
type Objective struct {
	Kind ObjectiveKind
	K    int
	Set  []string
}

func (o Objective) String() string {
	switch o.Kind {
	case AtLeast:
		return fmt.Sprintf("at least %d taken", o.K)
	case Set:
		return "every one of " + strings.Join(o.Set, ", ") + " taken"
	case All:
		return "every target taken"
	}
	return "expected value taken"
}

// Score is the joint distribution's figure for the objective: a chance,
// or the expected value for Expected. An objective that does not fit the
// targets (K out of range, an unknown id) is an error.
func (j *Joint) Score(o Objective) (float64, error) {
	switch o.Kind {
	case Expected:
		return j.Expected(), nil
	case All:
		return j.All(), nil
	case AtLeast:
		if o.K < 1 || o.K > len(j.Targets) {
			return 0, fmt.Errorf("objective at_least: %d is outside 1..%d (the targets)", o.K, len(j.Targets))
		}
		return j.AtLeast()[o.K], nil
	case Set:
		if len(o.Set) == 0 {
			return 0, fmt.Errorf("objective set: name at least one target")
		}
		ids := make([]string, len(j.Targets))
		for i, t := range j.Targets {
			ids[i] = t.ID
		}
		mask := 0
		for _, id := range o.Set {
			i := slices.Index(ids, id)
			if i < 0 {
				if c := yamlx.Closest(id, ids); c != "" {
					return 0, fmt.Errorf("objective set: unknown target %q (did you mean %q?)", id, c)
				}
				return 0, fmt.Errorf("objective set: unknown target %q (targets: %s)", id, strings.Join(ids, ", "))
			}
			mask |= 1 << i
		}
		return j.AllOf(mask), nil
	}
	if c := yamlx.Closest(string(o.Kind), ObjectiveKinds); c != "" {
		return 0, fmt.Errorf("unknown objective %q (did you mean %q?)", o.Kind, c)
	}
	return 0, fmt.Errorf("unknown objective %q: want %s", o.Kind, strings.Join(ObjectiveKinds, ", "))
}
