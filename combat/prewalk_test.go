package combat

// walkPreWeights is the reference for preWeights: it runs preState on
// every sequence of the pre-combat dice (which every path rolls in full)
// and counts the sequences reaching each state and odds level. ok is false
// past 2^24 sequences.
func walkPreWeights(p *preCombat) (weights []uint64, preSize uint64, ok bool) {
	var sides []int
	if p.fracSides > 0 {
		sides = append(sides, p.fracSides)
	}
	for range p.d6s() {
		sides = append(sides, 6)
	}
	preSize = 1
	for _, s := range sides {
		if preSize *= uint64(s); preSize > 1<<24 {
			return nil, 0, false
		}
	}
	weights = make([]uint64, 2*len(p.states))
	seq := &sequence{rolls: make([]int, len(sides)), sides: sides}
	for i := range seq.rolls {
		seq.rolls[i] = 1
	}
	for {
		seq.next = 0
		st, b := preState(p, seq)
		if seq.bad || seq.next != len(sides) {
			return nil, 0, false
		}
		weights[2*st+b]++
		// The odometer: the last die turns fastest.
		k := len(seq.rolls) - 1
		for ; k >= 0 && seq.rolls[k] == sides[k]; k-- {
			seq.rolls[k] = 1
		}
		if k < 0 {
			return weights, preSize, true
		}
		seq.rolls[k]++
	}
}

// sequence replays one sequence of pre-combat rolls; bad records a roll
// the sequence did not plan (a die of other sides, or one too many).
type sequence struct {
	rolls []int
	sides []int
	next  int
	bad   bool
}

func (s *sequence) Roll(sides int) int {
	if s.next >= len(s.rolls) || s.sides[s.next] != sides {
		s.bad = true
		return 1
	}
	v := s.rolls[s.next]
	s.next++
	return v
}

// PreWeights gives the pre-combat weights worked out step by step and by
// walking every sequence (ok false when the walk is too long), for
// checking one against the other.
func PreWeights(c *Combat) (steps, walk []uint64, stepSize, walkSize uint64, ok bool) {
	if c.pre == nil {
		return nil, nil, 0, 0, false
	}
	steps, stepSize, ok1 := preWeights(c.pre)
	walk, walkSize, ok2 := walkPreWeights(c.pre)
	return steps, walk, stepSize, walkSize, ok1 && ok2
}
