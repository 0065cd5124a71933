package qonnx

import (
	"math"
	"math/big"
	"slices"

	"github.com/otir-dev/otir/dialect/nn"
)

// Exact arithmetic on rationals: QONNX's quantizers evaluated on the exact
// value of their input (every float64 is a dyadic rational), which is how
// the circuit must decide each rounding.

func ratOf(f float64) *big.Rat { return new(big.Rat).SetFloat64(f) }

func ratInt(n int64) *big.Rat { return new(big.Rat).SetInt64(n) }

func floorRat(x *big.Rat) *big.Int {
	// Euclidean division by a positive denominator is floor.
	q, _ := new(big.Int).DivMod(x.Num(), x.Denom(), new(big.Int))
	return q
}

func ceilRat(x *big.Rat) *big.Int {
	return new(big.Int).Neg(floorRat(new(big.Rat).Neg(x)))
}

var half = big.NewRat(1, 2)

// roundRat rounds x to an integer by one of QONNX's rounding modes.
func roundRat(x *big.Rat, mode string) *big.Int {
	switch mode {
	case "CEIL":
		return ceilRat(x)
	case "FLOOR":
		return floorRat(x)
	case "UP": // away from zero
		if x.Sign() < 0 {
			return floorRat(x)
		}
		return ceilRat(x)
	case "DOWN": // toward zero
		if x.Sign() < 0 {
			return ceilRat(x)
		}
		return floorRat(x)
	case "HALF_UP": // ties away from zero
		if x.Sign() < 0 {
			return ceilRat(new(big.Rat).Sub(x, half))
		}
		return floorRat(new(big.Rat).Add(x, half))
	case "HALF_DOWN": // ties toward zero
		if x.Sign() < 0 {
			return floorRat(new(big.Rat).Add(x, half))
		}
		return ceilRat(new(big.Rat).Sub(x, half))
	}
	// ROUND: half to even.
	f := floorRat(new(big.Rat).Add(x, half))
	if new(big.Rat).Sub(x, new(big.Rat).SetInt(floorRat(x))).Cmp(half) == 0 && f.Bit(0) == 1 {
		f.Sub(f, big.NewInt(1))
	}
	return f
}

// value is the quantizer's value of a float64 x by the shared rules of
// dialect/nn (the evaluator's): the integer decided exactly, the rescale in
// float64 as QONNX's.
func (q *quantizer) value(x float64) float64 {
	s, _ := q.scale.Float64()
	z, _ := q.zp.Float64()
	switch {
	case q.kind == kMultiThreshold:
		return q.multi.Value(nn.Count(x, q.row))
	case q.kind == kBipolarQuant:
		return nn.BipolarValue(x, s)
	case q.kind == kFloatQuant:
		return q.float.FloatQuantValue(x, s, q.maxVal)
	case q.kind == kTrunc:
		o := 0.0
		if q.outScale != nil {
			o, _ = q.outScale.Float64()
		}
		return q.spec.TruncValue(x, s, z, o)
	}
	return q.spec.QuantValue(x, s, z)
}

// quantizer is one element's QONNX quantizer: the integer code n of an
// exact input x, and the output value (n - zp)·scale as out·n + off.
type quantizer struct {
	kind           string // kQuant, kBipolarQuant, kTrunc, kFloatQuant or kMultiThreshold
	spec           nn.QuantSpec
	float          nn.FloatQuantSpec // kFloatQuant
	maxVal         float64           // kFloatQuant: min(MaxValue, max_val), the saturation bound
	maxCode        *big.Rat          // kFloatQuant: maxVal/2^MinExp, the largest code
	scale, zp      *big.Rat
	outScale       *big.Rat // trunc v2
	truncShift     *big.Rat // trunc: the divisor 2^(in_bits-out_bits) (v1) or t (v2)
	outMul, outOff *big.Rat // the value is outMul·code + outOff
	// kMultiThreshold: the node's rule and the element's thresholds; the
	// finite ones exactly, ascending, and how many are -inf (always
	// reached).
	multi      nn.MultiThreshold
	row        []float64
	thresholds []*big.Rat
	always     int
	cachedKey  string // key()'s, once computed
}

// newThresholdQuantizer is one element's nn.multithreshold: its code is
// the number of the thresholds row it reaches, its value
// OutScale·code + OutBias.
func newThresholdQuantizer(m nn.MultiThreshold, row []float64) *quantizer {
	q := &quantizer{kind: kMultiThreshold, multi: m, row: row, scale: big.NewRat(1, 1), zp: new(big.Rat), outMul: ratOf(m.OutScale), outOff: ratOf(m.OutBias)}
	for _, t := range row {
		switch {
		case math.IsInf(t, -1):
			q.always++
		case !math.IsInf(t, 1):
			q.thresholds = append(q.thresholds, ratOf(t))
		}
	}
	slices.SortFunc(q.thresholds, (*big.Rat).Cmp)
	return q
}

// newQuantizer builds the quantizer of one element from its float64
// parameters (outScale only for a version-2 trunc).
func newQuantizer(kind string, spec nn.QuantSpec, scale, zp, outScale float64) *quantizer {
	q := &quantizer{kind: kind, spec: spec, scale: ratOf(scale), zp: ratOf(zp)}
	switch {
	case kind == kBipolarQuant || kind == kQuant && spec.Bipolar():
		// code 0 means -1, code 1 means +1: the value is 2s·code - s.
		q.outMul = new(big.Rat).Mul(ratInt(2), q.scale)
		q.outOff = new(big.Rat).Neg(q.scale)
		return q
	case kind == kTrunc && spec.Version == 2:
		q.outScale = ratOf(outScale)
		q.truncShift = ratOf(spec.TruncDivisor(scale, outScale))
		q.outMul = q.outScale
		q.outOff = new(big.Rat).Neg(new(big.Rat).Mul(new(big.Rat).Quo(q.zp, q.truncShift), q.outScale))
		return q
	case kind == kTrunc:
		q.truncShift = ratOf(spec.TruncDivisor(scale, outScale))
	}
	q.outMul = q.scale
	q.outOff = new(big.Rat).Neg(new(big.Rat).Mul(q.zp, q.scale))
	return q
}

// maxPieces bounds the runs of thresholds of the quantizer's step
// function: a minifloat's is uniform within each binade of each sign, so
// it takes a run a binade (two where ties to even alternate its spacings;
// 2^E binades a sign) and two for the steps around zero.
func (q *quantizer) maxPieces() int {
	switch q.kind {
	case kFloatQuant:
		return max(maxPieces, 4<<q.float.ExpBits+4)
	case kMultiThreshold: // a run a threshold at worst, a comparison each
		return max(maxPieces, len(q.thresholds))
	}
	return maxPieces
}

// rounding is the quantizer's rounding mode.
func (q *quantizer) rounding() string {
	switch q.kind {
	case kFloatQuant:
		return q.float.Rounding
	case kMultiThreshold:
		return "by thresholds"
	}
	return q.spec.Rounding
}

// newFloatQuantizer is one element's nn.float_quant: its code is the
// value over scale·2^MinExp (zero offset).
func newFloatQuantizer(spec nn.FloatQuantSpec, scale, maxVal float64) *quantizer {
	q := &quantizer{kind: kFloatQuant, float: spec, scale: ratOf(scale), zp: new(big.Rat), maxVal: min(spec.MaxValue(), maxVal)}
	q.outMul = new(big.Rat).Mul(q.scale, pow2(int(spec.MinExp())))
	q.outOff = new(big.Rat)
	q.maxCode = new(big.Rat).Mul(ratOf(q.maxVal), pow2(-int(spec.MinExp())))
	return q
}

// floatCode is nn.float_quant's code of the exact x: y = x/scale, its
// binade k = ⌊log2|y|⌋, the step 2^e with e = max(k − M, MinExp), y rounded
// to a multiple of the step, clamped to ±maxCode steps of 2^MinExp.
func (q *quantizer) floatCode(x *big.Rat) *big.Int {
	y := new(big.Rat).Quo(x, q.scale)
	if y.Sign() == 0 {
		return new(big.Int)
	}
	a := new(big.Rat).Abs(y)
	k := a.Num().BitLen() - a.Denom().BitLen() // ⌊log2 a⌋ or one more
	if pow2(k).Cmp(a) > 0 {
		k--
	}
	minExp := int(q.float.MinExp())
	e := max(k-int(q.float.ManBits), minExp)
	n := roundRat(new(big.Rat).Mul(y, pow2(-e)), q.float.Rounding) // y/2^e rounded
	n.Lsh(n, uint(e-minExp))                                       // in steps of 2^MinExp
	c := new(big.Rat).SetInt(n)
	switch neg := new(big.Rat).Neg(q.maxCode); {
	case c.Cmp(q.maxCode) > 0:
		c = q.maxCode
	case c.Cmp(neg) < 0:
		c = neg
	}
	return new(big.Int).Set(c.Num()) // an integer: maxCode is one (floatQuantizers)
}

// code is the quantizer's integer code of the exact input x (bipolar: 0
// for -1, 1 for +1).
func (q *quantizer) code(x *big.Rat) *big.Int {
	switch q.kind {
	case kFloatQuant:
		return q.floatCode(x)
	case kMultiThreshold: // the thresholds at most x: a binary search of the ascending ones
		n, _ := slices.BinarySearchFunc(q.thresholds, x, func(t, x *big.Rat) int {
			if t.Cmp(x) <= 0 {
				return -1
			}
			return 1
		})
		return big.NewInt(int64(q.always + n))
	}
	if q.kind == kBipolarQuant {
		if x.Sign() >= 0 {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	}
	v := new(big.Rat).Add(new(big.Rat).Quo(x, q.scale), q.zp)
	if q.kind == kQuant {
		if q.spec.Bipolar() {
			if v.Sign() >= 0 {
				return big.NewInt(1)
			}
			return big.NewInt(0)
		}
		return roundRat(clampRat(v, q.spec.Min(), q.spec.Max()), q.spec.Rounding)
	}
	// trunc: the input is first rounded half to even to an integer.
	w := new(big.Rat).Quo(new(big.Rat).SetInt(roundRat(v, "ROUND")), q.truncShift)
	if q.spec.Version == 2 {
		c := clampRat(w, q.spec.Min(), q.spec.Max())
		return roundRat(c, q.spec.Rounding)
	}
	return roundRat(w, q.spec.Rounding)
}

func clampRat(v *big.Rat, lo, hi int64) *big.Rat {
	if v.Cmp(ratInt(lo)) < 0 {
		return ratInt(lo)
	}
	if v.Cmp(ratInt(hi)) > 0 {
		return ratInt(hi)
	}
	return v
}
