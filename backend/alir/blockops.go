package alir

// Unrolled loops for the most frequent kernels, for either slot storage
// (int64, or int32 when every value fits). A left shift by s is a
// multiplication by m = 2^s (the same modulo 2^64, and cheaper than a shift
// by a variable count on amd64 without BMI2).
//
// Kernels without a right shift compute in T, that is modulo 2^32 for int32
// storage: their result is either proven to lie in its type (at most 32
// bits) or wrapped to it afterwards, and both only need the low 32 bits.
// Kernels with a right shift need the high bits and compute in int64.

const _ = -(blockSize % 4) // blockSize must be a multiple of 4

// elem is the storage type of slot values.
type elem interface{ ~int32 | ~int64 }

// blk is one slot's values for a block of samples.
type blk[T elem] [blockSize]T

func addBlock[T elem](d, a, b *blk[T]) {
	for i := 0; i < blockSize; i += 4 {
		dd, aa, bb := (*[4]T)(d[i:]), (*[4]T)(a[i:]), (*[4]T)(b[i:])
		dd[0] = aa[0] + bb[0]
		dd[1] = aa[1] + bb[1]
		dd[2] = aa[2] + bb[2]
		dd[3] = aa[3] + bb[3]
	}
}

func subBlock[T elem](d, a, b *blk[T]) {
	for i := 0; i < blockSize; i += 4 {
		dd, aa, bb := (*[4]T)(d[i:]), (*[4]T)(a[i:]), (*[4]T)(b[i:])
		dd[0] = aa[0] - bb[0]
		dd[1] = aa[1] - bb[1]
		dd[2] = aa[2] - bb[2]
		dd[3] = aa[3] - bb[3]
	}
}

// addMulBlock computes d = a + b*m.
func addMulBlock[T elem](d, a, b *blk[T], m int64) {
	mt := T(m)
	for i := 0; i < blockSize; i += 4 {
		dd, aa, bb := (*[4]T)(d[i:]), (*[4]T)(a[i:]), (*[4]T)(b[i:])
		dd[0] = aa[0] + bb[0]*mt
		dd[1] = aa[1] + bb[1]*mt
		dd[2] = aa[2] + bb[2]*mt
		dd[3] = aa[3] + bb[3]*mt
	}
}

// subMulBlock computes d = a - b*m.
func subMulBlock[T elem](d, a, b *blk[T], m int64) {
	mt := T(m)
	for i := 0; i < blockSize; i += 4 {
		dd, aa, bb := (*[4]T)(d[i:]), (*[4]T)(a[i:]), (*[4]T)(b[i:])
		dd[0] = aa[0] - bb[0]*mt
		dd[1] = aa[1] - bb[1]*mt
		dd[2] = aa[2] - bb[2]*mt
		dd[3] = aa[3] - bb[3]*mt
	}
}

// mulSubBlock computes d = a*m - b.
func mulSubBlock[T elem](d, a, b *blk[T], m int64) {
	mt := T(m)
	for i := 0; i < blockSize; i += 4 {
		dd, aa, bb := (*[4]T)(d[i:]), (*[4]T)(a[i:]), (*[4]T)(b[i:])
		dd[0] = aa[0]*mt - bb[0]
		dd[1] = aa[1]*mt - bb[1]
		dd[2] = aa[2]*mt - bb[2]
		dd[3] = aa[3]*mt - bb[3]
	}
}

// lin2Block computes d = (a*m0 + b*m1 + c) >> r.
func lin2Block[T elem](d, a, b *blk[T], m0, m1, c int64, r uint8) {
	r &= 63
	for i := 0; i < blockSize; i += 4 {
		dd, aa, bb := (*[4]T)(d[i:]), (*[4]T)(a[i:]), (*[4]T)(b[i:])
		dd[0] = T((int64(aa[0])*m0 + int64(bb[0])*m1 + c) >> r)
		dd[1] = T((int64(aa[1])*m0 + int64(bb[1])*m1 + c) >> r)
		dd[2] = T((int64(aa[2])*m0 + int64(bb[2])*m1 + c) >> r)
		dd[3] = T((int64(aa[3])*m0 + int64(bb[3])*m1 + c) >> r)
	}
}

// lin1Block computes d = (a*m + c) >> r.
func lin1Block[T elem](d, a *blk[T], m, c int64, r uint8) {
	r &= 63
	for i := 0; i < blockSize; i += 4 {
		dd, aa := (*[4]T)(d[i:]), (*[4]T)(a[i:])
		dd[0] = T((int64(aa[0])*m + c) >> r)
		dd[1] = T((int64(aa[1])*m + c) >> r)
		dd[2] = T((int64(aa[2])*m + c) >> r)
		dd[3] = T((int64(aa[3])*m + c) >> r)
	}
}

// lin1WBlock computes d = wrap((a*m + c) >> r), wrap(v) = (v << w >> w) & mask.
func lin1WBlock[T elem](d, a *blk[T], m, c int64, r, w uint8, mask int64) {
	r, w = r&63, w&63
	for i := 0; i < blockSize; i += 4 {
		dd, aa := (*[4]T)(d[i:]), (*[4]T)(a[i:])
		dd[0] = T(((int64(aa[0])*m + c) >> r) << w >> w & mask)
		dd[1] = T(((int64(aa[1])*m + c) >> r) << w >> w & mask)
		dd[2] = T(((int64(aa[2])*m + c) >> r) << w >> w & mask)
		dd[3] = T(((int64(aa[3])*m + c) >> r) << w >> w & mask)
	}
}

// lin2WBlock computes d = wrap((a*m0 + b*m1 + c) >> r).
func lin2WBlock[T elem](d, a, b *blk[T], m0, m1, c int64, r, w uint8, mask int64) {
	r, w = r&63, w&63
	for i := 0; i < blockSize; i += 4 {
		dd, aa, bb := (*[4]T)(d[i:]), (*[4]T)(a[i:]), (*[4]T)(b[i:])
		dd[0] = T(((int64(aa[0])*m0 + int64(bb[0])*m1 + c) >> r) << w >> w & mask)
		dd[1] = T(((int64(aa[1])*m0 + int64(bb[1])*m1 + c) >> r) << w >> w & mask)
		dd[2] = T(((int64(aa[2])*m0 + int64(bb[2])*m1 + c) >> r) << w >> w & mask)
		dd[3] = T(((int64(aa[3])*m0 + int64(bb[3])*m1 + c) >> r) << w >> w & mask)
	}
}

// wrapBlock wraps every value: (v << w >> w) & mask, in int64 (so w is
// 64 - W whatever the storage).
func wrapBlock[T elem](d *blk[T], w uint8, mask int64) {
	w &= 63
	for i := 0; i < blockSize; i += 4 {
		dd := (*[4]T)(d[i:])
		dd[0] = T(int64(dd[0]) << w >> w & mask)
		dd[1] = T(int64(dd[1]) << w >> w & mask)
		dd[2] = T(int64(dd[2]) << w >> w & mask)
		dd[3] = T(int64(dd[3]) << w >> w & mask)
	}
}
