package exec

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/otir-dev/otir/ir"
)

// numKind tells which field of a num holds its value.
type numKind uint8

const (
	kInt   numKind = iota // an integer that fits in int64 (the fast path)
	kBig                  // any other integer
	kFloat                // a float64
)

// num is one exact scalar value: an integer of any size or a float. Integers
// are kept in the int64 field whenever they fit, so ordinary arithmetic never
// touches math/big. A *big.Int inside a num is never modified in place.
type num struct {
	k numKind
	i int64
	b *big.Int
	f float64
}

func intNum(i int64) num     { return num{k: kInt, i: i} }
func floatNum(f float64) num { return num{k: kFloat, f: f} }

// bigNum wraps a *big.Int, demoting it to the int64 fast path when it fits.
func bigNum(b *big.Int) num {
	if b.IsInt64() {
		return num{k: kInt, i: b.Int64()}
	}
	return num{k: kBig, b: b}
}

func (n num) isFloat() bool { return n.k == kFloat }

// big returns the integer value as a *big.Int (a fresh one for the fast path).
func (n num) big() *big.Int {
	if n.k == kBig {
		return n.b
	}
	return big.NewInt(n.i)
}

// sign is -1, 0 or 1 for an integer num.
func (n num) sign() int {
	if n.k == kBig {
		return n.b.Sign()
	}
	switch {
	case n.i < 0:
		return -1
	case n.i > 0:
		return 1
	}
	return 0
}

func (n num) String() string {
	switch n.k {
	case kBig:
		return n.b.String()
	case kFloat:
		return floatText(n.f)
	}
	return fmt.Sprint(n.i)
}

// floatText prints a float for people: NaN, inf and -inf by name, other
// values as OTIR literals.
func floatText(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return ir.FormatFloat(f)
}

// intInfo gives the width and signedness of an integer or index type; index
// is a 64-bit signed integer.
func intInfo(t ir.Type) (width int, signed bool, ok bool) {
	switch t := t.(type) {
	case *ir.IntType:
		return t.Width, t.Signed, true
	case *ir.IndexType:
		return 64, true, true
	}
	return 0, false, false
}

// fitsInt64 reports whether every value of the integer (or index) type t fits
// in an int64, so that buffers of t store []int64.
func fitsInt64(t ir.Type) bool {
	w, signed, ok := intInfo(t)
	return ok && (signed && w <= 64 || !signed && w <= 63)
}

// wrap64 is wrapInt of an int64 into a type whose values fit in an int64
// (width <= 64 signed, <= 63 unsigned).
func wrap64(x int64, width int, signed bool) int64 {
	if signed {
		s := uint(64 - width)
		return x << s >> s
	}
	return x & (1<<uint(width) - 1)
}

var one = big.NewInt(1)

// pow2 returns 2^n as a new *big.Int.
func pow2(n int) *big.Int { return new(big.Int).Lsh(one, uint(n)) }

// wrapInt converts an integer to a width-bit integer of the given signedness
// modulo 2^width (two's complement wrap-around).
func wrapInt(n num, width int, signed bool) num {
	if n.k == kInt && (width <= 63 || width == 64 && signed) {
		return intNum(wrap64(n.i, width, signed))
	}
	if n.k == kInt && n.i >= 0 && width > 64 {
		return n // already in range: every type this wide holds it
	}
	if n.k == kInt && signed && width > 64 {
		return n
	}
	m := new(big.Int).Mod(n.big(), pow2(width)) // Euclidean: 0 <= m < 2^width
	if signed && m.Bit(width-1) == 1 {
		m.Sub(m, pow2(width))
	}
	return bigNum(m)
}

// readSigned reinterprets an integer of type t as the two's-complement signed
// number with the same width bits (the reading of the _s operations).
func readSigned(n num, t ir.Type) num {
	w, signed, _ := intInfo(t)
	if signed {
		return n
	}
	return wrapInt(n, w, true)
}

// readUnsigned reinterprets an integer of type t as the unsigned number with
// the same width bits (the reading of the _u operations).
func readUnsigned(n num, t ir.Type) num {
	w, signed, _ := intInfo(t)
	if !signed {
		return n
	}
	return wrapInt(n, w, false)
}

// inRange reports whether the integer n is a value of type t.
func inRange(n num, t ir.Type) bool {
	w, signed, ok := intInfo(t)
	if !ok || n.k == kFloat {
		return false
	}
	r := wrapInt(n, w, signed)
	return cmpInt(r, n) == 0
}

// convert converts an exact value to type t (design section 4): integers wrap
// modulo 2^width; a float becomes an integer by rounding toward -inf (NaN and
// infinities have no integer value and are an error); a value becomes a float
// by rounding to nearest, ties to even.
func convert(n num, t ir.Type) (num, error) {
	switch tt := t.(type) {
	case *ir.IntType, *ir.IndexType:
		w, signed, _ := intInfo(tt)
		if n.k == kFloat {
			if math.IsNaN(n.f) || math.IsInf(n.f, 0) {
				return num{}, fmt.Errorf("cannot convert %s to %s", floatText(n.f), t)
			}
			fl := math.Floor(n.f)
			if fl >= -(1<<63) && fl < 1<<63 {
				n = intNum(int64(fl))
			} else {
				b, _ := new(big.Float).SetFloat64(fl).Int(nil)
				n = bigNum(b)
			}
		}
		return wrapInt(n, w, signed), nil
	case *ir.FloatType:
		if n.k == kFloat {
			return floatNum(roundFloat64(n.f, tt.Kind)), nil
		}
		return floatNum(intToFloat(n, tt.Kind)), nil
	}
	return num{}, fmt.Errorf("cannot convert a value to %s", t)
}

// intToFloat rounds an integer to the nearest value of a float format.
func intToFloat(n num, k ir.FloatKind) float64 {
	if n.k == kInt && n.i >= -(1<<53) && n.i <= 1<<53 {
		return roundFloat64(float64(n.i), k) // exact in float64, rounded once
	}
	return roundBigFloat(new(big.Float).SetInt(n.big()), k)
}

// cmpInt compares two integers.
func cmpInt(a, b num) int {
	if a.k == kInt && b.k == kInt {
		switch {
		case a.i < b.i:
			return -1
		case a.i > b.i:
			return 1
		}
		return 0
	}
	return a.big().Cmp(b.big())
}

// exactFloat returns a num as an exact *big.Float (NaN excluded by callers).
func exactFloat(n num) *big.Float {
	if n.k == kFloat {
		return new(big.Float).SetFloat64(n.f)
	}
	return new(big.Float).SetInt(n.big()) // precision 0: becomes exact
}

// cmpExact compares two numbers exactly, ints and floats alike; ok is false
// when either is NaN (unordered).
func cmpExact(a, b num) (c int, ok bool) {
	if a.k != kFloat && b.k != kFloat {
		return cmpInt(a, b), true
	}
	if a.k == kFloat && math.IsNaN(a.f) || b.k == kFloat && math.IsNaN(b.f) {
		return 0, false
	}
	if a.k == kFloat && b.k == kFloat {
		switch {
		case a.f < b.f:
			return -1, true
		case a.f > b.f:
			return 1, true
		}
		return 0, true
	}
	return exactFloat(a).Cmp(exactFloat(b)), true
}

// Exact integer arithmetic: each has an int64 fast path that detects overflow
// and falls back to math/big.

func addInt(a, b num) num {
	if a.k == kInt && b.k == kInt {
		if s, ok := add64(a.i, b.i); ok {
			return intNum(s)
		}
	}
	return bigNum(new(big.Int).Add(a.big(), b.big()))
}

func subInt(a, b num) num {
	if a.k == kInt && b.k == kInt {
		if d, ok := sub64(a.i, b.i); ok {
			return intNum(d)
		}
	}
	return bigNum(new(big.Int).Sub(a.big(), b.big()))
}

func mulInt(a, b num) num {
	if a.k == kInt && b.k == kInt {
		if p, ok := mul64(a.i, b.i); ok {
			return intNum(p)
		}
	}
	return bigNum(new(big.Int).Mul(a.big(), b.big()))
}

// add64, sub64 and mul64 are the exact sum, difference and product of two
// int64s; ok is false when it does not fit in an int64.
func add64(a, b int64) (s int64, ok bool) {
	s = a + b
	return s, (s > a) == (b > 0)
}

func sub64(a, b int64) (d int64, ok bool) {
	d = a - b
	return d, (d < a) == (b > 0)
}

func mul64(a, b int64) (p int64, ok bool) {
	hi, lo := bits.Mul64(uint64(abs64(a)), uint64(abs64(b)))
	if hi != 0 || lo >= 1<<63 || a == math.MinInt64 || b == math.MinInt64 {
		return 0, false
	}
	p = int64(lo)
	if (a < 0) != (b < 0) {
		p = -p
	}
	return p, true
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func negInt(a num) num {
	if a.k == kInt && a.i != math.MinInt64 {
		return intNum(-a.i)
	}
	return bigNum(new(big.Int).Neg(a.big()))
}

func absInt(a num) num {
	if a.sign() < 0 {
		return negInt(a)
	}
	return a
}

// notInt is the bitwise complement of an unbounded two's-complement integer.
func notInt(a num) num {
	if a.k == kInt {
		return intNum(^a.i)
	}
	return bigNum(new(big.Int).Not(a.b))
}

// bitwise applies and, or or xor (kind) to unbounded two's-complement
// integers.
func bitwise(kind string, a, b num) num {
	if a.k == kInt && b.k == kInt {
		switch kind {
		case "and":
			return intNum(a.i & b.i)
		case "or":
			return intNum(a.i | b.i)
		}
		return intNum(a.i ^ b.i)
	}
	z := new(big.Int)
	switch kind {
	case "and":
		z.And(a.big(), b.big())
	case "or":
		z.Or(a.big(), b.big())
	default:
		z.Xor(a.big(), b.big())
	}
	return bigNum(z)
}

// floorDivMod divides exactly and rounds the quotient toward -inf: the
// conversion rule (design section 4) of an exact rational to an integer, as
// matmul's sum; the remainder a - b*q has the divisor's sign. Division
// itself (div_s/rem_s) truncates: see truncDivMod. b must not be 0.
func floorDivMod(a, b num) (q, r num) {
	if a.k == kInt && b.k == kInt && !(a.i == math.MinInt64 && b.i == -1) {
		qi, ri := a.i/b.i, a.i%b.i
		if ri != 0 && (ri < 0) != (b.i < 0) {
			qi--
			ri += b.i
		}
		return intNum(qi), intNum(ri)
	}
	bq, br := new(big.Int).QuoRem(a.big(), b.big(), new(big.Int))
	if br.Sign() != 0 && (br.Sign() < 0) != (b.sign() < 0) {
		bq.Sub(bq, one)
		br.Add(br, b.big())
	}
	return bigNum(bq), bigNum(br)
}

// truncDivMod is integer division as div_s/rem_s define it (design section
// 4, as C, LLVM sdiv/srem and WebAssembly i32.div_s/rem_s): the quotient
// rounds toward zero and the remainder a - b*q takes the dividend's sign
// (-7/2 = -3 rem -1). The quotient is exact (MinInt64 / -1 = 2^63, wrapped
// only on conversion to the result type). b must not be 0.
func truncDivMod(a, b num) (q, r num) {
	if a.k == kInt && b.k == kInt && !(a.i == math.MinInt64 && b.i == -1) {
		return intNum(a.i / b.i), intNum(a.i % b.i) // Go's / and % truncate
	}
	bq, br := new(big.Int).QuoRem(a.big(), b.big(), new(big.Int)) // truncated
	return bigNum(bq), bigNum(br)
}

// shiftLeft is the exact a * 2^s, or 0 when the result is known to wrap to 0
// in a result integer of resultWidth bits (resultWidth 0: not an integer, the
// shift is capped at maxShift bits, far past any float's range).
func shiftLeft(a num, s int64, resultWidth int) num {
	const maxShift = 1 << 14
	if resultWidth > 0 && s >= int64(resultWidth) || a.sign() == 0 {
		return intNum(0)
	}
	if s > maxShift {
		s = maxShift
	}
	if a.k == kInt && s < 63 {
		v := a.i << uint(s)
		if v>>uint(s) == a.i {
			return intNum(v)
		}
	}
	return bigNum(new(big.Int).Lsh(a.big(), uint(s)))
}

// shiftRight is floor(a / 2^s).
func shiftRight(a num, s int64) num {
	if a.k == kInt {
		if s >= 63 {
			if a.i < 0 {
				return intNum(-1)
			}
			return intNum(0)
		}
		return intNum(a.i >> uint(s))
	}
	if s > int64(a.b.BitLen()) {
		if a.b.Sign() < 0 {
			return intNum(-1)
		}
		return intNum(0)
	}
	return bigNum(new(big.Int).Rsh(a.b, uint(s)))
}
