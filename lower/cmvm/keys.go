package cmvm

// A pattern is the normalised form of a two-term pair found in one output:
// node a at some shift s plus or minus node b at shift s+d, written
// a ± (b << d) with d >= 0 and, when d = 0, a < b. An occurrence of the
// pattern contributes ±(pattern << s) to its output, so the same key is
// found wherever the pair appears, whatever its shift or overall sign.
//
// Keys pack (a, b, d, neg) into a uint64: a and b take 26 bits each, d 7 bits
// (shifts never exceed 64) and neg 1 bit.
const (
	keyNodeBits  = 26
	maxNodes     = 1 << keyNodeBits
	keyShiftBits = 7
)

func makeKey(a, b int32, d int32, neg bool) uint64 {
	k := uint64(a)<<(keyNodeBits+keyShiftBits+1) | uint64(b)<<(keyShiftBits+1) | uint64(d)<<1
	if neg {
		k |= 1
	}
	return k
}

func splitKey(k uint64) (a, b, d int32, neg bool) {
	const nodeMask = 1<<keyNodeBits - 1
	a = int32(k >> (keyNodeBits + keyShiftBits + 1) & nodeMask)
	b = int32(k >> (keyShiftBits + 1) & nodeMask)
	d = int32(k >> 1 & (1<<keyShiftBits - 1))
	return a, b, d, k&1 == 1
}

// pairKey returns the pattern key of the pair (t, u) of one output, and
// the pattern's base term (the one at the lower shift, whose shift and sign
// the occurrence carries).
func pairKey(t, u term) (key uint64, base term) {
	lo, hi := t, u
	if u.shift < t.shift || (u.shift == t.shift && u.node < t.node) {
		lo, hi = u, t
	}
	return makeKey(lo.node, hi.node, hi.shift-lo.shift, lo.sign != hi.sign), lo
}
