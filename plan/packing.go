package plan

import "math/bits"

// A state is packed into a few 64-bit words for the search: each field
// of stateKey gets the bits its largest value needs in this plan (a cap, a
// count, the most factors the pool can send), and no field straddles two
// words. The fields run combat first, then the items sent, then the
// smallest factors, so a state's combat and its group (all but the
// smallest factors) are its leading bits.
type layout struct {
	words                       int
	n, flags, arm, blitz, anti  field
	quarters, gs, nations, size field
	sb                          field
	exact, low                  []field
	combatBits, groupBits       int // where the combat and the group end
	lowPad                      uint64
}

// field is where a value sits: word w, from bit at, width bits.
type field struct{ w, at, width int }

func (f field) get(k []uint64) uint64 {
	if f.width == 0 {
		return 0
	}
	return k[f.w] >> f.at & (1<<f.width - 1)
}

func (f field) put(k []uint64, v uint64) {
	if f.width > 0 {
		k[f.w] |= v << f.at
	}
}

// width is the bits a value up to max needs.
func width(max uint64) int { return bits.Len64(max) }

// newLayout lays out the fields of sp's states.
func newLayout(sp *stateSpace, p *pool, limit int) *layout {
	l := &layout{}
	off := 0
	place := func(w int) field {
		if w == 0 {
			return field{}
		}
		if off/64 != (off+w-1)/64 {
			off = (off/64 + 1) * 64
		}
		f := field{w: off / 64, at: off % 64, width: w}
		off += w
		return f
	}
	var q, gs, sb, maxQ uint64
	nations := 0
	for c := range p.classes {
		d := &sp.contrib[c]
		n := uint64(len(p.classes[c].items))
		switch {
		case d.plainUnit:
			q += n * uint64(d.quarters)
			nations = max(nations, d.nation+1)
		case d.plainGroundSupp:
			gs += n * uint64(d.gsQuarters)
		case d.plainShip:
			sb += n * uint64(d.sbQuarters)
		}
		if d.inCombat {
			maxQ = max(maxQ, uint64(d.quarters))
		}
	}
	for _, v := range sp.base.low {
		maxQ = max(maxQ, uint64(v))
	}
	l.n = place(width(uint64(sp.capN)))
	l.flags = place(5)
	l.arm = place(width(uint64(sp.capArm)))
	l.blitz = place(width(uint64(sp.capBlitz)))
	l.anti = place(width(uint64(sp.capAnti)))
	l.quarters = place(width(q))
	l.gs = place(width(gs))
	l.sb = place(width(sb))
	if sp.nations {
		l.nations = place(nations)
	}
	for c := range p.classes {
		if d := &sp.contrib[c]; d.exact >= 0 {
			l.exact = append(l.exact, place(width(uint64(len(p.classes[c].items)))))
		}
	}
	l.combatBits = off
	l.size = place(width(uint64(limit)))
	l.groupBits = off
	l.lowPad = 1<<width(maxQ+1) - 1
	for range sp.low {
		l.low = append(l.low, place(width(l.lowPad)))
	}
	l.words = max(1, (off+63)/64)
	return l
}

// encode packs s into k (l.words long), the smallest factors padded.
func (l *layout) encode(k []uint64, s *stateKey) {
	clear(k)
	l.n.put(k, uint64(s.n))
	l.flags.put(k, uint64(boolByte(s.armoured)|boolByte(s.anyTerr)<<1|boolByte(s.allTerr)<<2|boolByte(s.allJap)<<3|boolByte(s.hq)<<4))
	l.arm.put(k, uint64(s.arm2))
	l.blitz.put(k, uint64(s.blitz))
	l.anti.put(k, uint64(s.anti))
	l.quarters.put(k, uint64(s.quarters))
	l.gs.put(k, uint64(s.gs))
	l.sb.put(k, uint64(s.sb))
	l.nations.put(k, s.nations)
	for i, f := range l.exact {
		f.put(k, uint64(s.exact[i]))
	}
	l.size.put(k, uint64(s.size))
	for j, f := range l.low {
		v := l.lowPad
		if j < len(s.low) {
			v = uint64(s.low[j])
		}
		f.put(k, v)
	}
}

// decode unpacks k into s.
func (l *layout) decode(k []uint64, s *stateKey) {
	s.n = uint8(l.n.get(k))
	f := l.flags.get(k)
	s.armoured, s.anyTerr, s.allTerr, s.allJap, s.hq = f&1 != 0, f&2 != 0, f&4 != 0, f&8 != 0, f&16 != 0
	s.arm2, s.blitz, s.anti = uint16(l.arm.get(k)), uint16(l.blitz.get(k)), uint16(l.anti.get(k))
	s.quarters, s.gs, s.sb = int32(l.quarters.get(k)), int32(l.gs.get(k)), int32(l.sb.get(k))
	s.nations = l.nations.get(k)
	s.exact = s.exact[:0]
	for _, f := range l.exact {
		s.exact = append(s.exact, uint8(f.get(k)))
	}
	s.size = uint8(l.size.get(k))
	s.low = s.low[:0]
	for _, f := range l.low {
		v := f.get(k)
		if v == l.lowPad {
			break
		}
		s.low = append(s.low, int32(v))
	}
}

// lowAt is the j-th smallest factor (in quarters) of a packed state, or
// false past the last.
func (l *layout) lowAt(k []uint64, j int) (uint64, bool) {
	if j >= len(l.low) {
		return 0, false
	}
	v := l.low[j].get(k)
	return v, v != l.lowPad
}

// masked writes into dst the first n bits of k (the rest cleared).
func masked(dst, k []uint64, n int) []uint64 {
	dst = append(dst[:0], k...)
	for w := range dst {
		switch lo := w * 64; {
		case n <= lo:
			dst[w] = 0
		case n < lo+64:
			dst[w] &= 1<<(n-lo) - 1
		}
	}
	return dst
}

// sameBits reports whether a and b agree in their first n bits.
func sameBits(a, b []uint64, n int) bool {
	for w := 0; w*64 < n; w++ {
		d := a[w] ^ b[w]
		if n < w*64+64 {
			d &= 1<<(n-w*64) - 1
		}
		if d != 0 {
			return false
		}
	}
	return true
}

// hashBits hashes the first n bits of k.
func hashBits(k []uint64, n int) uint64 {
	h := uint64(0x9E3779B97F4A7C15)
	for w := 0; w*64 < n; w++ {
		v := k[w]
		if n < w*64+64 {
			v &= 1<<(n-w*64) - 1
		}
		h = (h ^ v) * 0xBF58476D1CE4E5B9
		h ^= h >> 31
	}
	return h
}

// forceLayout packs a force's counts into words for the search: each
// class's count gets the bits its class's size needs, placed from the top
// of the first word down, no count straddling two words. Comparing packed
// forces word by word as numbers is then comparing the counts in
// lexicographic order, the enumeration order.
type forceLayout struct {
	words  int
	fields []field // by class
}

func newForceLayout(p *pool) *forceLayout {
	fl := &forceLayout{fields: make([]field, len(p.classes))}
	used := 0 // bits used in the last word
	for c := range p.classes {
		w := width(uint64(len(p.classes[c].items)))
		if fl.words == 0 || used+w > 64 {
			fl.words++
			used = 0
		}
		used += w
		fl.fields[c] = field{w: fl.words - 1, at: 64 - used, width: w}
	}
	fl.words = max(fl.words, 1)
	return fl
}

// encode packs counts x into f (fl.words long).
func (fl *forceLayout) encode(f []uint64, x counts) {
	clear(f)
	for c, k := range x {
		fl.fields[c].put(f, uint64(k))
	}
}

// decode unpacks f into x (one count per class).
func (fl *forceLayout) decode(x counts, f []uint64) {
	for c := range x {
		x[c] = uint8(fl.fields[c].get(f))
	}
}
