package plan

// A packed step adds one item of a class to a packed state in place,
// without decoding it: the one-hex search makes one move per state and
// item sent, and decoding, adding and encoding each move was about a
// seventh of plan-hex-24's time. It gives the key encoding the state
// stateSpace.add builds would give (TestPackedStepIsAdd).
type packedStep struct {
	// plus is added word by word: the sums (factors, ground support,
	// shore bombardment), an exact class's count and the items sent,
	// whose fields are wide enough for the most the pool can send, so no
	// sum carries into the next field.
	plus []uint64
	// set and clear are or-ed in and cleared: the flags (armoured, any
	// territorial, HQ support; all territorial and all Japanese cleared
	// by a unit that is not) and the nation's bit.
	set, clear []uint64
	// sat are the counts kept up to a cap.
	sat []satStep
	// low is the factor (quarters) a unit in the combat adds to the
	// smallest factors, or -1.
	low int64
	hq  bool // the class is an HQ: a target takes one (stateSpace.room)
}

// satStep adds d to a field, keeping it at most limit.
type satStep struct {
	f        field
	d, limit uint64
}

// newSteps works out each class's packed step for sp's states laid out
// by l, the same changes stateSpace.add makes to one item.
func newSteps(sp *stateSpace, l *layout) []packedStep {
	steps := make([]packedStep, len(sp.contrib))
	for c := range sp.contrib {
		d := &sp.contrib[c]
		st := packedStep{plus: make([]uint64, l.words), set: make([]uint64, l.words), clear: make([]uint64, l.words), low: -1, hq: d.hq}
		l.size.put(st.plus, 1)
		var flags, unset uint64
		sat := func(f field, d uint8, limit uint16) {
			if f.width > 0 && d > 0 {
				st.sat = append(st.sat, satStep{f: f, d: uint64(d), limit: uint64(limit)})
			}
		}
		switch {
		case d.plainUnit:
			sat(l.n, 1, sp.capN)
			l.quarters.put(st.plus, uint64(d.quarters))
			sat(l.arm, d.arm2, sp.capArm)
			sat(l.blitz, d.blitz, sp.capBlitz)
			sat(l.anti, d.anti, sp.capAnti)
			if d.armoured && sp.armoured {
				flags |= 1
			}
			if sp.terr {
				if d.territorial {
					flags |= 2
				} else {
					unset |= 4
				}
			}
			if sp.jap && !d.japanese {
				unset |= 8
			}
			if sp.nations {
				l.nations.put(st.set, 1<<d.nation)
			}
		case d.plainGroundSupp:
			l.gs.put(st.plus, uint64(d.gsQuarters))
		case d.plainShip:
			l.sb.put(st.plus, uint64(d.sbQuarters))
		case d.hq:
			flags |= 16
		default:
			l.exact[d.exact].put(st.plus, 1)
		}
		l.flags.put(st.set, flags)
		l.flags.put(st.clear, unset)
		if d.inCombat && sp.low > 0 {
			st.low = int64(d.quarters)
		}
		steps[c] = st
	}
	return steps
}

// step adds one item of the class to packed state k, in place.
func (l *layout) step(k []uint64, st *packedStep) {
	for w := range k {
		k[w] = (k[w]+st.plus[w])&^st.clear[w] | st.set[w]
	}
	for _, s := range st.sat {
		v := min(s.f.get(k)+s.d, s.limit)
		s.f.set(k, v)
	}
	if st.low >= 0 {
		// Insert into the ascending smallest factors, the padding (above
		// any factor) at the end; past the last kept, nothing changes.
		v := uint64(st.low)
		for _, f := range l.low {
			if o := f.get(k); o > v {
				f.set(k, v)
				v = o
			}
		}
	}
}

// set overwrites the field with v.
func (f field) set(k []uint64, v uint64) {
	if f.width > 0 {
		m := uint64(1)<<f.width - 1
		k[f.w] = k[f.w]&^(m<<f.at) | v<<f.at
	}
}

// sizeOf is the items a packed state sends.
func (l *layout) sizeOf(k []uint64) int { return int(l.size.get(k)) }

// room is the most items of the class packed state k may still take
// (stateSpace.room).
func (l *layout) room(k []uint64, st *packedStep) int {
	if !st.hq {
		return int(^uint(0) >> 1)
	}
	if l.flags.get(k)&16 != 0 {
		return 0
	}
	return 1
}
