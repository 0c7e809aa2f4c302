package combat

import "slices"

// TableChoice is the table read at one final odds level, who chose it and
// the docs/rules.md §2.3 clause that made them the chooser: what a player
// who left the table on auto needs to see to trust it.
type TableChoice struct {
	Odds    string  `json:"odds"`
	Table   string  `json:"table"`
	Chooser Chooser `json:"chooser"`
	Reason  string  `json:"reason"`
}

// TableChoices lists the table chosen at each final odds level the combat
// can read (both of a fractional-odds step; each pre-combat state's), once
// each, in the order the states hold them (docs/rules.md §2.3).
func (c *Combat) TableChoices() []TableChoice {
	states := []State{c.State}
	if c.pre != nil {
		states = c.pre.states
	}
	var out []TableChoice
	for _, st := range states {
		for i := range st.AtOdds {
			v := &st.AtOdds[i]
			if tc := (TableChoice{v.Odds, v.Table.String(), v.Chooser, v.Reason}); !slices.Contains(out, tc) {
				out = append(out, tc)
			}
		}
	}
	return out
}
