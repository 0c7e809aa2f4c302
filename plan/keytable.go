package plan

import "slices"

// keyTable is a set of packed keys (words uint64s each) in the order they
// were added, found through an open-addressing table. A slot holds a
// key's first word beside its index, so a probe of a one-word key reads
// one cache line and never the key array: the searches are bound by the
// memory latency of these probes.
type keyTable struct {
	words int
	bits  int // the keys' bits that count: hashed and compared
	keys  []uint64
	slots []slot
}

// slot is one entry of a keyTable: the key's first word and its index + 1
// (0 is empty).
type slot struct {
	w0 uint64
	i  int32
}

// slotBytes is what a slot costs.
const slotBytes = 16

// The slots are at most three quarters full, so linear probing stays
// short (a probe's next slots are mostly in the cache line it read). A
// table reset for room keys has fewer than 8/3 room slots, and one that
// doubled fewer than 8/3 a key (4 while the old slots are still held).

// reset empties the table for about room keys, keeping its arrays.
func (t *keyTable) reset(room int) {
	t.slots = emptied(t.slots, tableSize((4*room+2)/3))
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
	mask := len(t.slots) - 1
	w0 := key[0]
	for j := int(h) & mask; ; j = (j + 1) & mask {
		s := t.slots[j]
		if s.i == 0 {
			return -1, j
		}
		if s.w0 == w0 && (t.words == 1 || slices.Equal(t.key(int(s.i - 1))[1:], key[1:])) {
			return int(s.i - 1), j
		}
	}
}

// add appends key at the empty slot find gave and returns its index,
// doubling the slots when they are three quarters full. Bits past t.bits
// must be clear.
func (t *keyTable) add(j int, key []uint64) int {
	i := t.len()
	t.keys = append(t.keys, key...)
	t.slots[j] = slot{w0: key[0], i: int32(i + 1)}
	if 4*t.len() > 3*len(t.slots) {
		t.slots = make([]slot, 2*len(t.slots))
		mask := len(t.slots) - 1
		for k := range t.len() {
			kk := t.key(k)
			j := int(t.hash(kk)) & mask
			for t.slots[j].i != 0 {
				j = (j + 1) & mask
			}
			t.slots[j] = slot{w0: kk[0], i: int32(k + 1)}
		}
	}
	return i
}

// heldBytes is the memory the table's arrays hold.
func (t *keyTable) heldBytes() int { return 8*cap(t.keys) + slotBytes*cap(t.slots) }
