package plan

import "slices"

// keyTable is a set of packed keys (words uint64s each) in the order they
// were added, found through an open-addressing table. A slot holds a
// key's first word beside its index, so a probe of a one-word key reads
// one cache line and never the key array: the searches are bound by the
// memory latency of these probes. The table's size need not be a power
// of two (a hash is mapped onto it by multiplying), so it is sized to
// the keys expected, not up to twice that.
type keyTable struct {
	words int
	bits  int // the keys' bits that count: hashed and compared
	keys  []uint64
	slots []slot
}

// slot is one entry of a keyTable: the key's first word, in two halves
// so a slot is 12 bytes, and its index + 1 (0 is empty).
type slot struct{ lo, hi, i uint32 }

// slotBytes is what a slot costs.
const slotBytes = 12

// The slots are at most three quarters full, so linear probing stays
// short (a probe's next slots are mostly in the cache line it read). A
// table reset for room keys has 64 or 4/3 room slots, and one that
// doubled fewer than 8/3 a key (4 while the old slots are still held).

// reset empties the table for about room keys, keeping its arrays.
func (t *keyTable) reset(room int) {
	t.slots = emptied(t.slots, max(64, (4*room+2)/3))
	t.keys = t.keys[:0]
}

// tableSize is the smallest power of two from 64 up that is at least n.
func tableSize(n int) int {
	size := 64
	for size < n {
		size *= 2
	}
	return size
}

// home is where a key hashed to h starts probing in n slots.
func home(h uint64, n int) int { return int(h >> 32 * uint64(n) >> 32) }

func slotOf(w0 uint64, i int) slot {
	return slot{lo: uint32(w0), hi: uint32(w0 >> 32), i: uint32(i + 1)}
}

// emptied is s with n zero elements, in its own array when it holds them.
func emptied[T any](s []T, n int) []T {
	if cap(s) >= n {
		s = s[:n]
		clear(s)
		return s
	}
	return make([]T, n)
}

func (t *keyTable) len() int           { return len(t.keys) / t.words }
func (t *keyTable) key(i int) []uint64 { return t.keys[i*t.words : (i+1)*t.words] }

func newKeyTable(words, bits int) keyTable { return keyTable{words: words, bits: bits} }

// hash hashes a key's bits.
func (t *keyTable) hash(key []uint64) uint64 { return hashBits(key, t.bits) }

// find returns the index of key (hashed to h), or -1 and the empty slot
// for it.
func (t *keyTable) find(key []uint64, h uint64) (int, int) {
	n := len(t.slots)
	lo, hi := uint32(key[0]), uint32(key[0]>>32)
	for j := home(h, n); ; {
		s := t.slots[j]
		if s.i == 0 {
			return -1, j
		}
		if s.lo == lo && s.hi == hi && (t.words == 1 || slices.Equal(t.key(int(s.i - 1))[1:], key[1:])) {
			return int(s.i - 1), j
		}
		if j++; j == n {
			j = 0
		}
	}
}

// add appends key at the empty slot find gave and returns its index,
// doubling the slots when they are three quarters full. Bits past t.bits
// must be clear.
func (t *keyTable) add(j int, key []uint64) int {
	i := t.len()
	appendAll(&t.keys, key)
	t.slots[j] = slotOf(key[0], i)
	if 4*t.len() > 3*len(t.slots) {
		n := 2 * len(t.slots)
		t.slots = make([]slot, n)
		for k := range t.len() {
			kk := t.key(k)
			j := home(t.hash(kk), n)
			for t.slots[j].i != 0 {
				if j++; j == n {
					j = 0
				}
			}
			t.slots[j] = slotOf(kk[0], k)
		}
	}
	return i
}

// heldBytes is the memory the table's arrays hold.
func (t *keyTable) heldBytes() int { return 8*cap(t.keys) + slotBytes*cap(t.slots) }

// appendAll appends v to *s, storing the slice only when it grows: a
// slice stored into the heap on every append pays the collector's write
// barrier while it marks, and a search appends once a state (x = x[:n]
// stores only the length).
func appendAll[T any](s *[]T, v []T) {
	n := len(*s)
	if n+len(v) > cap(*s) {
		*s = append(*s, v...)
		return
	}
	*s = (*s)[:n+len(v)]
	copyWords((*s)[n:], v)
}

// copyWords copies src into dst (as long) element by element: a key or a
// force is a word or two, for which copy's call to memmove costs more
// than the copy (it was 9% of the one-hex search).
func copyWords[T any](dst, src []T) {
	for w := range dst {
		dst[w] = src[w]
	}
}

// appendOne appends v to *s as appendAll does.
func appendOne[T any](s *[]T, v T) {
	n := len(*s)
	if n == cap(*s) {
		*s = append(*s, v)
		return
	}
	*s = (*s)[:n+1]
	(*s)[n] = v
}
