package cmvm

// digit is one non-zero signed digit of a constant: sign · 2^shift.
type digit struct {
	shift int
	sign  int8 // +1 or -1
}

// csd returns the canonical signed digits (non-adjacent form) of v, lowest
// shift first. Zero has no digits. CSD has the fewest non-zero digits of any
// signed-digit representation, and no two of them are adjacent. The magnitude
// is handled as a uint64, so math.MinInt64 works too (its single digit has
// shift 63); a 64-bit magnitude may produce a digit at shift 64.
func csd(v int64) []digit {
	if v == 0 {
		return nil
	}
	var sign int8 = 1
	n := uint64(v)
	if v < 0 {
		sign = -1
		n = -n // two's complement magnitude, exact for MinInt64
	}
	var out []digit
	for shift := 0; n != 0; shift++ {
		if n&1 == 1 {
			if n&3 == 1 {
				out = append(out, digit{shift, sign})
				n--
			} else {
				out = append(out, digit{shift, -sign})
				n++ // cannot overflow: n <= 2^63 here
			}
		}
		n >>= 1
	}
	return out
}

// smallWeights caches csdWeight for magnitudes below its length.
var smallWeights = func() (w [1 << 10]uint8) {
	for i := range w {
		w[i] = uint8(weightOfMagnitude(uint64(i)))
	}
	return w
}()

// csdWeight returns the number of non-zero CSD digits of v.
func csdWeight(v int64) int {
	n := uint64(v)
	if v < 0 {
		n = -n
	}
	if n < uint64(len(smallWeights)) {
		return int(smallWeights[n])
	}
	return weightOfMagnitude(n)
}

func weightOfMagnitude(n uint64) int {
	w := 0
	for n != 0 {
		if n&1 == 1 {
			w++
			if n&3 == 1 {
				n--
			} else {
				n++
			}
		}
		n >>= 1
	}
	return w
}
