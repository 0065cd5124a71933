package nn

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// QONNX quantizers: nn.quant, nn.bipolar_quant, nn.trunc, nn.float_quant
// and nn.multithreshold, the operators Quant, BipolarQuant, Trunc,
// FloatQuant (minifloat) and MultiThreshold (FINN's thresholds) of QONNX
// (domains finn.custom_op.general,
// qonnx.custom_op.general, onnx.brevitas) as float-graph nodes. Their
// scales and zero points are payload entries (params.scale,
// params.zero_point, and for a version-2 trunc params.output_scale), each
// broadcast to the input by NumPy's rules: one value per tensor, or one per
// channel. Their semantics (docs/nn.md, "QONNX quantizers") are QONNX's
// reference implementation in float64: divide by the scale, add the zero
// point, clamp to the integer range, round by the rounding mode, subtract
// the zero point, multiply by the scale. They belong to float graphs:
// nn-to-circuit absorbs them into a quantized graph's integer arithmetic.

// Operation names of the family.
const (
	OpQuant          = "nn.quant"
	OpBipolarQuant   = "nn.bipolar_quant"
	OpTrunc          = "nn.trunc"
	OpFloatQuant     = "nn.float_quant"
	OpMultiThreshold = "nn.multithreshold"
)

// RoundingModes are QONNX's rounding modes, the words of the attribute
// `rounding` (ROUND is half to even, NumPy's np.round).
var RoundingModes = []string{"ROUND", "CEIL", "FLOOR", "UP", "DOWN", "HALF_UP", "HALF_DOWN"}

// Attribute names of the quantizers.
const (
	BitsAttr     = "bits"
	SignedAttr   = "signed"
	NarrowAttr   = "narrow"
	RoundingAttr = "rounding"
	InBitsAttr   = "in_bits"
	OutBitsAttr  = "out_bits"
	VersionAttr  = "version"
	ExpBitsAttr  = "exponent_bits"
	ManBitsAttr  = "mantissa_bits"
	ExpBiasAttr  = "exponent_bias"
	OutScaleAttr = "out_scale"
	OutBiasAttr  = "out_bias"
)

// The bounds of a minifloat format (nn.float_quant): an exponent of at most
// 8 bits (FP32's), a mantissa of at most 23 bits, a bias of magnitude at
// most 256, so that every value and step is a float64 number.
const (
	MaxExpBits = 8
	MaxManBits = 23
	MaxExpBias = 256
)

// FloatFormatField is one of nn.float_quant's three integer attributes:
// its name, what QONNX's FloatQuant calls the input it comes from, its
// bounds.
type FloatFormatField struct {
	Name, What string
	Lo, Hi     int64
}

// FloatFormatFields are the format's attributes in FloatQuant's input
// order (inputs 2, 3, 4): the one statement of their bounds, which the
// verifier, FloatQuantSpecOf and the ONNX importer check.
var FloatFormatFields = []FloatFormatField{
	{ExpBitsAttr, "exponent bit width", 1, MaxExpBits},
	{ManBitsAttr, "mantissa bit width", 0, MaxManBits},
	{ExpBiasAttr, "exponent bias", -MaxExpBias, MaxExpBias},
}

// MaxQuantBits bounds a quantizer's bit width: its integers fit an int64
// with room for the arithmetic around them.
const MaxQuantBits = 32

var (
	quantParamsAttr = ir.AttrDef{Name: "params", Kind: ir.AttrString, Doc: "the payload prefix: params.scale, params.zero_point (each one value, or NumPy-broadcast to the input)"}
	signedAttr      = ir.AttrDef{Name: SignedAttr, Kind: ir.AttrAny, Optional: true, Doc: "true (default): the integer range is signed"}
	narrowAttr      = ir.AttrDef{Name: NarrowAttr, Kind: ir.AttrAny, Optional: true, Doc: "true: the range loses its most negative value (signed) or its largest value (unsigned); default false"}
)

func roundingAttr(def string) ir.AttrDef {
	return ir.AttrDef{Name: RoundingAttr, Kind: ir.AttrString, Enum: RoundingModes, EnumName: "rounding mode", Optional: true,
		Doc: "how the scaled value becomes an integer: ROUND (half to even), CEIL, FLOOR, UP (away from 0), DOWN (toward 0), HALF_UP, HALF_DOWN; default " + def}
}

var qonnxFamily = family{
	ops: []ir.OpDef{
		{Name: OpQuant, Summary: "QONNX Quant: (clamp-and-round(x/scale + zero_point) - zero_point)·scale, the integers of a bits-wide range",
			Operands: unaryOperand, Results: outputResult, Parents: graphParent,
			Attrs: []ir.AttrDef{quantParamsAttr,
				{Name: BitsAttr, Kind: ir.AttrInt, Doc: "the bit width, in [1, 32]; a signed 1-bit quant is bipolar (x/scale + zero_point ≥ 0 gives 1, else -1), as QONNX's"},
				signedAttr, narrowAttr, roundingAttr("ROUND")},
			Verify: nodeHook(checkQuant), Infer: inferWith(checkQuant), Format: formatUnary},
		{Name: OpBipolarQuant, Summary: "QONNX BipolarQuant: scale where x ≥ 0, -scale elsewhere",
			Operands: unaryOperand, Results: outputResult, Parents: graphParent,
			Attrs:  []ir.AttrDef{{Name: "params", Kind: ir.AttrString, Doc: "the payload prefix: params.scale (one value, or NumPy-broadcast to the input)"}},
			Verify: nodeHook(checkBipolar), Infer: inferWith(checkBipolar), Format: formatUnary},
		{Name: OpTrunc, Summary: "QONNX Trunc: drops in_bits - out_bits low bits of the integer x/scale + zero_point, rounding by the mode",
			Operands: unaryOperand, Results: outputResult, Parents: graphParent,
			Attrs: []ir.AttrDef{
				{Name: "params", Kind: ir.AttrString, Doc: "the payload prefix: params.scale, params.zero_point, and for version 2 params.output_scale"},
				{Name: InBitsAttr, Kind: ir.AttrInt, Doc: "the input's bit width, in [1, 32] (version 1: the truncation is in_bits - out_bits bits)"},
				{Name: OutBitsAttr, Kind: ir.AttrInt, Doc: "the output's bit width, in [1, in_bits]"},
				signedAttr, narrowAttr, roundingAttr("FLOOR"),
				{Name: VersionAttr, Kind: ir.AttrInt, Optional: true, Doc: "1 (default; QONNX Trunc v1) or 2 (Trunc v2: output_scale, clamped to out_bits)"}},
			Verify: nodeHook(checkTrunc), Infer: inferWith(checkTrunc), Format: formatUnary},
		{Name: OpFloatQuant, Summary: "QONNX FloatQuant: x/scale rounded to a signed minifloat of exponent_bits and mantissa_bits, saturated to ±max_val, times scale",
			Operands: unaryOperand, Results: outputResult, Parents: graphParent,
			Attrs: []ir.AttrDef{
				{Name: "params", Kind: ir.AttrString, Doc: "the payload prefix: params.scale and params.max_val (each one value, or NumPy-broadcast to the input)"},
				{Name: ExpBitsAttr, Kind: ir.AttrInt, Doc: "the exponent's bit width, in [1, 8]"},
				{Name: ManBitsAttr, Kind: ir.AttrInt, Doc: "the mantissa's bit width, in [0, 23]"},
				{Name: ExpBiasAttr, Kind: ir.AttrInt, Doc: "the exponent bias, in [-256, 256]"},
				roundingAttr("ROUND")},
			Verify: nodeHook(checkFloatQuant), Infer: inferWith(checkFloatQuant), Format: formatUnary},
		{Name: OpMultiThreshold, Summary: "QONNX MultiThreshold: out_scale·(the number of its channel's thresholds that x reaches) + out_bias",
			Operands: unaryOperand, Results: outputResult, Parents: graphParent,
			Attrs: []ir.AttrDef{
				{Name: "params", Kind: ir.AttrString, Doc: "the payload prefix: params.thresholds, [C, T]: a row of thresholds per channel of axis (C its size), or one row for every channel"},
				{Name: "axis", Kind: ir.AttrInt, Optional: true, Doc: "the channel axis (default 1)"},
				{Name: OutScaleAttr, Kind: ir.AttrFloat, Optional: true, Doc: "the factor of the count (default 1.0)"},
				{Name: OutBiasAttr, Kind: ir.AttrFloat, Optional: true, Doc: "the offset added (default 0.0)"}},
			Verify: nodeHook(checkMultiThreshold), Infer: inferWith(checkMultiThreshold), Format: formatUnary},
	},
	quant: map[string]quantRule{
		OpQuant:          {role: QuantForbidden, why: "a QONNX quantizer belongs to a float graph: nn-to-circuit absorbs it into integer arithmetic"},
		OpBipolarQuant:   {role: QuantForbidden, why: "a QONNX quantizer belongs to a float graph: nn-to-circuit absorbs it into integer arithmetic"},
		OpTrunc:          {role: QuantForbidden, why: "a QONNX quantizer belongs to a float graph: nn-to-circuit absorbs it into integer arithmetic"},
		OpFloatQuant:     {role: QuantForbidden, why: "a QONNX quantizer belongs to a float graph: nn-to-circuit absorbs it into integer arithmetic"},
		OpMultiThreshold: {role: QuantForbidden, why: "a QONNX quantizer belongs to a float graph: nn-to-circuit absorbs it into integer arithmetic"},
	},
}

// checkQuant: a payload name, bits in [1, 32], the boolean flags and the
// rounding mode; the result has the input's shape.
func checkQuant(n *node) ([]int64, error) {
	if err := n.params(); err != nil {
		return nil, err
	}
	if _, err := n.bits(BitsAttr); err != nil {
		return nil, err
	}
	if err := n.quantFlags(); err != nil {
		return nil, err
	}
	return n.ins[0].Shape, nil
}

// checkBipolar: a payload name; the result has the input's shape.
func checkBipolar(n *node) ([]int64, error) {
	if err := n.params(); err != nil {
		return nil, err
	}
	return n.ins[0].Shape, nil
}

// checkTrunc: a payload name, in_bits in [1, 32], out_bits in [1, in_bits],
// the flags, the rounding mode and the version; the result has the input's
// shape.
func checkTrunc(n *node) ([]int64, error) {
	if err := n.params(); err != nil {
		return nil, err
	}
	in, err := n.bits(InBitsAttr)
	if err != nil {
		return nil, err
	}
	out, err := n.bits(OutBitsAttr)
	if err != nil {
		return nil, err
	}
	if out > in {
		return nil, fmt.Errorf("out_bits (%d) must not exceed in_bits (%d)", out, in)
	}
	if err := n.quantFlags(); err != nil {
		return nil, err
	}
	if v, err := n.intAttr(VersionAttr); err != nil {
		return nil, err
	} else if v != nil && (!v.IsInt64() || v.Int64() != 1 && v.Int64() != 2) {
		return nil, fmt.Errorf("version must be 1 or 2, but got %s", v)
	}
	return n.ins[0].Shape, nil
}

// checkFloatQuant: a payload name, the format's three integers within
// their bounds and the rounding mode; the result has the input's shape.
func checkFloatQuant(n *node) ([]int64, error) {
	if err := n.params(); err != nil {
		return nil, err
	}
	for _, b := range FloatFormatFields {
		v, err := n.intAttr(b.Name)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, fmt.Errorf("requires attribute '%s'", b.Name)
		}
		if !v.IsInt64() || v.Int64() < b.Lo || v.Int64() > b.Hi {
			return nil, fmt.Errorf("%s must lie in [%d, %d], but got %s", b.Name, b.Lo, b.Hi, v)
		}
	}
	if err := n.roundingMode(); err != nil {
		return nil, err
	}
	return n.ins[0].Shape, nil
}

// checkMultiThreshold: a payload name, the channel axis, a finite
// out_scale and out_bias; the result has the input's shape.
func checkMultiThreshold(n *node) ([]int64, error) {
	if err := n.params(); err != nil {
		return nil, err
	}
	if _, err := n.axisOr(1, len(n.ins[0].Shape)); err != nil {
		return nil, err
	}
	for _, name := range []string{OutScaleAttr, OutBiasAttr} {
		f, err := n.float(name, 0)
		if err != nil {
			return nil, err
		}
		if !finite(f) {
			return nil, fmt.Errorf("%s must be finite, but got %v", name, f)
		}
	}
	return n.ins[0].Shape, nil
}

// MultiThreshold is what an nn.multithreshold computes: per element, the
// number n of its channel's thresholds t (along Axis) with x ≥ t, as
// OutScale·n + OutBias (QONNX's multithreshold).
type MultiThreshold struct {
	Axis              int
	OutScale, OutBias float64
}

// MultiThresholdOf reads a verified nn.multithreshold op.
func MultiThresholdOf(op *ir.Operation) (MultiThreshold, error) {
	m := MultiThreshold{Axis: 1, OutScale: 1}
	if op.Name != OpMultiThreshold {
		return m, fmt.Errorf("'%s' is not nn.multithreshold", op.Name)
	}
	if a, ok := op.IntAttr("axis"); ok {
		m.Axis = int(a)
	}
	if f, ok := op.Attr(OutScaleAttr).(*ir.FloatAttr); ok && f != nil {
		m.OutScale = f.Value
	}
	if f, ok := op.Attr(OutBiasAttr).(*ir.FloatAttr); ok && f != nil {
		m.OutBias = f.Value
	}
	return m, nil
}

// Count is the number of thresholds that x reaches (x ≥ t; a NaN reaches
// none).
func Count(x float64, thresholds []float64) int {
	n := 0
	for _, t := range thresholds {
		if x >= t {
			n++
		}
	}
	return n
}

// Value is the output for count n: OutScale·n + OutBias in float64.
func (m MultiThreshold) Value(n int) float64 { return m.OutScale*float64(n) + m.OutBias }

// CheckThreshold is the rule of a threshold: not NaN (±inf: never or
// always reached).
func CheckThreshold(v float64) error {
	if math.IsNaN(v) {
		return errors.New("a threshold must not be NaN")
	}
	return nil
}

// FloatQuantSpecOf reads the format of a verified nn.float_quant op.
func FloatQuantSpecOf(op *ir.Operation) (FloatQuantSpec, error) {
	if op.Name != OpFloatQuant {
		return FloatQuantSpec{}, fmt.Errorf("'%s' is not nn.float_quant", op.Name)
	}
	s := FloatQuantSpec{Rounding: "ROUND"}
	for i, to := range []*int64{&s.ExpBits, &s.ManBits, &s.Bias} {
		f := FloatFormatFields[i]
		a, ok := op.Attr(f.Name).(*ir.IntAttr)
		if !ok || a == nil || !a.Value.IsInt64() {
			return s, fmt.Errorf("requires attribute '%s'", f.Name)
		}
		if *to = a.Value.Int64(); *to < f.Lo || *to > f.Hi {
			return s, errors.New("minifloat format out of range")
		}
	}
	if r, ok := op.Attr(RoundingAttr).(*ir.StringAttr); ok && r != nil {
		s.Rounding = r.Value
	}
	return s, nil
}

// bits reads the required bit-width attribute name, in [1, MaxQuantBits].
func (n *node) bits(name string) (int64, error) {
	v, err := n.intAttr(name)
	if err != nil {
		return 0, err
	}
	if v == nil {
		return 0, fmt.Errorf("requires attribute '%s'", name)
	}
	if !v.IsInt64() || v.Int64() < 1 || v.Int64() > MaxQuantBits {
		return 0, fmt.Errorf("%s must lie in [1, %d], but got %s", name, MaxQuantBits, v)
	}
	return v.Int64(), nil
}

// quantFlags checks the optional boolean attributes signed and narrow and
// the optional rounding mode (the generic verifier checks a record's enum
// words only where the assembly format parses them, not in the attribute
// dictionary).
func (n *node) quantFlags() error {
	for _, name := range []string{SignedAttr, NarrowAttr} {
		if a := n.attrs.Get(name); a != nil {
			if b, ok := a.(*ir.BoolAttr); !ok || b == nil {
				return fmt.Errorf("attribute '%s' must be true or false, but got %s", name, diag.AttrKind(a))
			}
		}
	}
	return n.roundingMode()
}

// roundingMode checks the optional rounding mode, one of RoundingModes.
func (n *node) roundingMode() error {
	if a := n.attrs.Get(RoundingAttr); a != nil {
		r, ok := a.(*ir.StringAttr)
		if !ok || r == nil {
			return fmt.Errorf("attribute '%s' must be a string attribute, but got %s", RoundingAttr, diag.AttrKind(a))
		}
		if !slices.Contains(RoundingModes, r.Value) {
			return fmt.Errorf("unknown rounding mode '%s' (expected one of %s)", r.Value, strings.Join(RoundingModes, ", "))
		}
	}
	return nil
}

// QuantSpec is a QONNX quantizer's integer range and rounding, read from
// an nn.quant or nn.trunc op's attributes (verified ops only).
type QuantSpec struct {
	Bits     int64 // the bit width (nn.trunc: out_bits)
	InBits   int64 // nn.trunc: in_bits; 0 otherwise
	Signed   bool
	Narrow   bool
	Rounding string // one of RoundingModes
	Version  int64  // nn.trunc: 1 or 2; 0 otherwise
}

// Min and Max are the integer range's bounds, QONNX's min_int and max_int.
func (s QuantSpec) Min() int64 {
	switch {
	case s.Signed && s.Narrow:
		return -(int64(1) << (s.Bits - 1)) + 1
	case s.Signed:
		return -(int64(1) << (s.Bits - 1))
	}
	return 0
}

// Max is the largest integer of the range.
func (s QuantSpec) Max() int64 {
	switch {
	case !s.Signed && !s.Narrow:
		return int64(1)<<s.Bits - 1
	case !s.Signed:
		return int64(1)<<s.Bits - 2
	}
	return int64(1)<<(s.Bits-1) - 1
}

// Bipolar reports whether the quantizer is QONNX's signed 1-bit quant,
// which gives ±1 rather than a clamped integer.
func (s QuantSpec) Bipolar() bool { return s.Bits == 1 && s.Signed && s.InBits == 0 }

// QuantSpecOf reads the spec of a verified nn.quant or nn.trunc op.
func QuantSpecOf(op *ir.Operation) (QuantSpec, error) {
	s := QuantSpec{Signed: true, Rounding: "ROUND"}
	flag := func(name string, def bool) bool {
		if b, ok := op.Attr(name).(*ir.BoolAttr); ok && b != nil {
			return b.Value
		}
		return def
	}
	intOf := func(name string) int64 {
		if a, ok := op.Attr(name).(*ir.IntAttr); ok && a != nil && a.Value.IsInt64() {
			return a.Value.Int64()
		}
		return 0
	}
	s.Signed, s.Narrow = flag(SignedAttr, true), flag(NarrowAttr, false)
	switch op.Name {
	case OpQuant:
		s.Bits = intOf(BitsAttr)
	case OpTrunc:
		s.Bits, s.InBits, s.Version, s.Rounding = intOf(OutBitsAttr), intOf(InBitsAttr), intOf(VersionAttr), "FLOOR"
		if s.Version == 0 {
			s.Version = 1
		}
	default:
		return s, fmt.Errorf("'%s' is not a QONNX quantizer with an integer range", op.Name)
	}
	if r, ok := op.Attr(RoundingAttr).(*ir.StringAttr); ok && r != nil {
		s.Rounding = r.Value
	}
	if s.Bits < 1 || s.Bits > MaxQuantBits {
		return s, errors.New("bit width out of range")
	}
	return s, nil
}
