package crt

import "fmt"

// Provenance says where a table value comes from (docs/rules.md §0).
type Provenance uint8

const (
	// Printed values appear in a source rulebook.
	Printed Provenance = iota + 1
	// Reconstructed values are fixed by docs/rules.md to agree with every worked
	// example where the rulebooks do not print them.
	Reconstructed
	// Edited values are a designer's what-if edits of a loaded table
	// (package cells); no file records them.
	Edited
)

func (p Provenance) String() string {
	switch p {
	case Printed:
		return "printed"
	case Reconstructed:
		return "reconstructed"
	case Edited:
		return "edited"
	}
	return "unknown"
}

// ParseProvenance parses "printed" or "reconstructed".
func ParseProvenance(s string) (Provenance, error) {
	switch s {
	case "printed":
		return Printed, nil
	case "reconstructed":
		return Reconstructed, nil
	}
	return 0, fmt.Errorf("provenance %q: want printed or reconstructed", s)
}

// Source is a value's provenance and the note saying where it comes from.
type Source struct {
	Provenance Provenance
	Note       string // e.g. "AfA 8" or "docs/rules.md §2.1 reconstruction"
}
