package exec

import (
	"fmt"
	"math"
	"slices"

	"github.com/otir-dev/otir/ir"
)

// scalarFn computes one element of an element-wise operation from its operand
// elements. It returns the exact result (or, for float operations, the result
// rounded to the computation format); the caller converts it to the result
// type.
type scalarFn func(a []num) (num, error)

// execElementwise runs binary, unary, cmp, select and cast operations: it
// broadcasts the operands NumPy-style to the result shape and applies the
// scalar function to each element.
func execElementwise(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	shape, relem, err := resultValueType(op)
	if err != nil {
		return nil, err
	}
	want := map[ir.Syntax]int{ir.SyntaxBinary: 2, ir.SyntaxUnary: 1, ir.SyntaxCmp: 2, ir.SyntaxSelect: 3, ir.SyntaxConvert: 1}[ir.LookupOp(op.Name).Syntax]
	if len(op.Operands) != want {
		return nil, opErr(op, "needs %d operands, has %d", want, len(op.Operands))
	}
	ins := make([]*Buffer, len(op.Operands))
	types := make([]ir.Type, len(op.Operands))
	for i := range ins {
		if ins[i], err = w.valueOperand(op, i); err != nil {
			return nil, err
		}
		types[i] = ins[i].Elem
	}
	fn, err := scalarFunc(op, types, relem)
	if err != nil {
		return nil, opErr(op, "%v", err)
	}
	strides, err := broadcastStrides(ins, shape)
	if err != nil {
		return nil, opErr(op, "%v", err)
	}
	out := NewBuffer(relem, shape...)
	args := make([]num, len(ins))
	coord := make([]int64, len(shape))
	for e := 0; e < out.Len(); e++ {
		for j, in := range ins {
			k := int64(0)
			for d, c := range coord {
				k += c * strides[j][d]
			}
			args[j] = in.num(int(k))
		}
		r, err := fn(args)
		if err == nil {
			r, err = convert(r, relem)
		}
		if err != nil {
			if len(shape) > 0 {
				return nil, opErr(op, "%v (element %s)", err, coordString(coord))
			}
			return nil, opErr(op, "%v", err)
		}
		out.setNum(e, r)
		for d := len(coord) - 1; d >= 0; d-- {
			if coord[d]++; coord[d] < shape[d] {
				break
			}
			coord[d] = 0
		}
	}
	return []rvalue{out}, nil
}

// broadcastStrides checks that the operands broadcast (NumPy rules: shapes
// aligned on the right, each dimension equal or 1) to exactly the result
// shape, and returns for each operand the stride of each result dimension in
// its elements (0 along broadcast dimensions).
func broadcastStrides(ins []*Buffer, shape []int64) ([][]int64, error) {
	var common []int64
	for _, in := range ins {
		c, ok := broadcastShape(common, in.Shape)
		if !ok {
			return nil, fmt.Errorf("operand shapes %s do not broadcast together", shapesString(ins))
		}
		common = c
	}
	if !sameShape(common, shape) {
		return nil, fmt.Errorf("operands of shapes %s broadcast to %s, but the result shape is %s", shapesString(ins), shapeString(common), shapeString(shape))
	}
	strides := make([][]int64, len(ins))
	for j, in := range ins {
		strides[j] = operandStrides(in.Shape, shape)
	}
	return strides, nil
}

// broadcastTo checks that a value broadcasts to the target shape (as a
// stored value or a mask does) and returns its strides along the target.
func broadcastTo(in *Buffer, target []int64) ([]int64, error) {
	if c, ok := broadcastShape(in.Shape, target); !ok || !sameShape(c, target) {
		return nil, fmt.Errorf("a %s value does not broadcast to shape %s", shapeString(in.Shape), shapeString(target))
	}
	return operandStrides(in.Shape, target), nil
}

// operandStrides gives, for each dimension of shape, the stride in the
// operand's elements (0 along broadcast dimensions); the operand's shape is
// aligned on the right.
func operandStrides(in, shape []int64) []int64 {
	s := make([]int64, len(shape))
	stride := int64(1)
	for d := len(in) - 1; d >= 0; d-- {
		if in[d] != 1 {
			s[d+len(shape)-len(in)] = stride
		}
		stride *= in[d]
	}
	return s
}

// broadcastShape is the NumPy broadcast of two shapes.
func broadcastShape(a, b []int64) ([]int64, bool) {
	if len(a) < len(b) {
		a, b = b, a
	}
	out := append([]int64(nil), a...)
	for i := range b {
		da, db := a[len(a)-1-i], b[len(b)-1-i]
		switch {
		case da == db || db == 1:
		case da == 1:
			out[len(a)-1-i] = db
		default:
			return nil, false
		}
	}
	return out, true
}

func shapesString(ins []*Buffer) string {
	s := ""
	for i, in := range ins {
		if i > 0 {
			s += " and "
		}
		s += shapeString(in.Shape)
	}
	return s
}

// scalarFunc picks the scalar function of an element-wise operation from its
// name, attributes and element types.
func scalarFunc(op *ir.Operation, in []ir.Type, rt ir.Type) (scalarFn, error) {
	for _, t := range in {
		if !ir.IsScalar(t) {
			return nil, fmt.Errorf("operands must have integer, index or float elements")
		}
	}
	switch op.Name {
	case ir.OpCast:
		return func(a []num) (num, error) { return a[0], nil }, nil
	case ir.OpSelect:
		if in[0] != ir.Bool() {
			return nil, fmt.Errorf("the condition must have i1 elements, not %s", in[0])
		}
		return func(a []num) (num, error) {
			if a[0].sign() != 0 {
				return a[1], nil
			}
			return a[2], nil
		}, nil
	case ir.OpCmp:
		pred, _ := op.StringAttr("kind")
		return cmpFunc(pred, in)
	}
	if anyFloat(in...) || op.Name == ir.OpSqrt || op.Name == ir.OpExp || op.Name == ir.OpLog {
		return floatFunc(op.Name, in, rt)
	}
	return intFunc(op.Name, in, rt)
}

func anyFloat(ts ...ir.Type) bool {
	for _, t := range ts {
		if isFloatType(t) {
			return true
		}
	}
	return false
}

// intFunc is the exact integer function of an operation whose operands are
// all integers (or index). The _s and _u operations read each operand's bits
// (in its own width) as two's-complement signed or as unsigned numbers.
func intFunc(name string, in []ir.Type, rt ir.Type) (scalarFn, error) {
	resultWidth, _, _ := intInfo(rt)
	signed := func(a []num, i int) num { return readSigned(a[i], in[i]) }
	unsigned := func(a []num, i int) num { return readUnsigned(a[i], in[i]) }
	divide := func(read func([]num, int) num, rem bool) scalarFn {
		return func(a []num) (num, error) {
			x, y := read(a, 0), read(a, 1)
			if y.sign() == 0 {
				return num{}, fmt.Errorf("division by zero")
			}
			q, r := truncDivMod(x, y)
			if rem {
				return r, nil
			}
			return q, nil
		}
	}
	amount := func(a []num) (int64, error) {
		s := a[1]
		if s.sign() < 0 {
			return 0, fmt.Errorf("negative shift amount %s", s)
		}
		if s.k != kInt {
			return math.MaxInt64, nil
		}
		return s.i, nil
	}
	switch name {
	case ir.OpAdd:
		return func(a []num) (num, error) { return addInt(a[0], a[1]), nil }, nil
	case ir.OpSub:
		return func(a []num) (num, error) { return subInt(a[0], a[1]), nil }, nil
	case ir.OpMul:
		return func(a []num) (num, error) { return mulInt(a[0], a[1]), nil }, nil
	case ir.OpDivS:
		return divide(signed, false), nil
	case ir.OpDivU:
		return divide(unsigned, false), nil
	case ir.OpRemS:
		return divide(signed, true), nil
	case ir.OpRemU:
		return divide(unsigned, true), nil
	case ir.OpAnd, ir.OpOr, ir.OpXor:
		return func(a []num) (num, error) { return bitwise(name, a[0], a[1]), nil }, nil
	case ir.OpShl:
		return func(a []num) (num, error) {
			s, err := amount(a)
			if err != nil {
				return num{}, err
			}
			return shiftLeft(a[0], s, resultWidth), nil
		}, nil
	case ir.OpShrS, ir.OpShrU:
		read := signed
		if name == ir.OpShrU {
			read = unsigned
		}
		return func(a []num) (num, error) {
			s, err := amount(a)
			if err != nil {
				return num{}, err
			}
			return shiftRight(read(a, 0), s), nil
		}, nil
	case ir.OpMax:
		return func(a []num) (num, error) {
			if cmpInt(a[0], a[1]) >= 0 {
				return a[0], nil
			}
			return a[1], nil
		}, nil
	case ir.OpMin:
		return func(a []num) (num, error) {
			if cmpInt(a[0], a[1]) <= 0 {
				return a[0], nil
			}
			return a[1], nil
		}, nil
	case ir.OpNeg:
		return func(a []num) (num, error) { return negInt(a[0]), nil }, nil
	case ir.OpAbs:
		return func(a []num) (num, error) { return absInt(a[0]), nil }, nil
	case ir.OpNot:
		return func(a []num) (num, error) { return notInt(a[0]), nil }, nil
	}
	return nil, fmt.Errorf("has no integer semantics")
}

// compKind is the format a float operation computes in: the widest float
// format among its operands and result, and at least f32 (design section 4:
// f16 and bf16 arithmetic is computed in f32 and rounded).
func compKind(ts ...ir.Type) ir.FloatKind {
	k := ir.F32
	for _, t := range ts {
		if ft, ok := t.(*ir.FloatType); ok && ft.Kind == ir.F64 {
			k = ir.F64
		}
	}
	return k
}

// floatFunc is the IEEE-754 function of an operation with a float operand
// (or of sqrt/exp/log): integer operands are first rounded to the
// computation format, the operation is computed in it (float64 arithmetic
// rounded to the format), and the caller converts to the result type.
func floatFunc(name string, in []ir.Type, rt ir.Type) (scalarFn, error) {
	k := compKind(append([]ir.Type{rt}, in...)...)
	if !anyFloat(append([]ir.Type{rt}, in...)...) {
		k = ir.F64 // sqrt/exp/log of integers into an integer
	}
	get := func(n num) float64 {
		if n.k == kFloat {
			return n.f
		}
		return intToFloat(n, k)
	}
	var f2 func(x, y float64) float64
	var f1 func(x float64) float64
	switch name {
	case ir.OpAdd:
		f2 = func(x, y float64) float64 { return x + y }
	case ir.OpSub:
		f2 = func(x, y float64) float64 { return x - y }
	case ir.OpMul:
		f2 = func(x, y float64) float64 { return x * y }
	case ir.OpDivS, ir.OpDivU:
		f2 = func(x, y float64) float64 { return x / y }
	case ir.OpRemS, ir.OpRemU:
		f2 = math.Mod
	case ir.OpMax:
		f2 = fmax
	case ir.OpMin:
		f2 = fmin
	case ir.OpNeg:
		f1 = func(x float64) float64 { return -x }
	case ir.OpAbs:
		f1 = math.Abs
	case ir.OpSqrt:
		f1 = math.Sqrt
	case ir.OpExp:
		f1 = math.Exp
	case ir.OpLog:
		f1 = math.Log
	default:
		return nil, fmt.Errorf("needs integer operands, not %s", floatOperand(in))
	}
	if f1 != nil {
		return func(a []num) (num, error) { return floatNum(roundFloat64(f1(get(a[0])), k)), nil }, nil
	}
	return func(a []num) (num, error) { return floatNum(roundFloat64(f2(get(a[0]), get(a[1])), k)), nil }, nil
}

func floatOperand(in []ir.Type) ir.Type {
	for _, t := range in {
		if isFloatType(t) {
			return t
		}
	}
	return nil
}

// fmax is the IEEE maximum that propagates NaN and orders -0 below +0.
func fmax(x, y float64) float64 {
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.NaN()
	}
	return math.Max(x, y)
}

// fmin is the IEEE minimum that propagates NaN and orders -0 below +0.
func fmin(x, y float64) float64 {
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.NaN()
	}
	return math.Min(x, y)
}

// cmpFunc is the comparison of otir.cmp kind(pred); it yields 1 or 0.
// eq/ne and the ordered o* predicates compare values exactly (an integer with
// a float too); s* and u* read integer bits as signed or unsigned. With a NaN
// operand every predicate is false except ne.
func cmpFunc(pred string, in []ir.Type) (scalarFn, error) {
	test := map[string]func(c int) bool{
		"eq": func(c int) bool { return c == 0 }, "ne": func(c int) bool { return c != 0 },
		"lt": func(c int) bool { return c < 0 }, "le": func(c int) bool { return c <= 0 },
		"gt": func(c int) bool { return c > 0 }, "ge": func(c int) bool { return c >= 0 },
	}
	var read func(n num, t ir.Type) num
	rel := pred
	switch {
	case pred == "eq" || pred == "ne":
	case len(pred) == 3 && pred[0] == 'o':
		rel = pred[1:]
	case len(pred) == 3 && (pred[0] == 's' || pred[0] == 'u'):
		if t := floatOperand(in); t != nil {
			return nil, fmt.Errorf("predicate %s compares integers, not %s (use o%s)", pred, t, pred[1:])
		}
		read = readSigned
		if pred[0] == 'u' {
			read = readUnsigned
		}
		rel = pred[1:]
	}
	ok := test[rel]
	if !slices.Contains(ir.CmpPredicates, pred) || ok == nil {
		return nil, fmt.Errorf("unknown comparison predicate '%s'", pred)
	}
	boolNum := func(b bool) num {
		if b {
			return intNum(1)
		}
		return intNum(0)
	}
	return func(a []num) (num, error) {
		x, y := a[0], a[1]
		if read != nil {
			x, y = read(x, in[0]), read(y, in[1])
		}
		c, ordered := cmpExact(x, y)
		if !ordered {
			return boolNum(pred == "ne"), nil
		}
		return boolNum(ok(c)), nil
	}, nil
}
