package exec

import (
	"fmt"
	"math"
	"slices"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/internal/tileview"
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
func execElementwise(w *workgroup, op *ir.Operation, sem *elemSem) ([]rvalue, error) {
	shape, relem, err := resultValueType(op)
	if err != nil {
		return nil, err
	}
	// Element-wise ops declare one operand per group (their records).
	want := len(ir.LookupOp(op.Name).Operands)
	if len(op.Operands) != want {
		return nil, opErr(op, "needs %d operands, has %d", want, len(op.Operands))
	}
	in := w.instrOf(op)
	ins := in.bufs[:0]
	for i := range op.Operands {
		b, err := w.valueOperand(op, i)
		if err != nil {
			return nil, err
		}
		ins = append(ins, b)
	}
	in.bufs = ins
	p := in.plan
	if !p.fits(ins) {
		if p, err = planElementwise(op, sem, ins, shape, relem); err != nil {
			return nil, err
		}
		in.plan = p
	}
	fn, strides, walks := p.fn, p.strides, p.walks
	out := w.resultBuffer(op, relem, shape)
	if sem.tile != nil && out.Ints != nil {
		if tins := p.tileInts(ins, shape); tins != nil && sem.tile(op, out.Ints, tins, wrapperOf(relem)) {
			return w.result(out), nil
		}
	}
	args := make([]num, len(ins))
	var coord []int64 // only when some operand needs it
	if slices.Contains(walks, walkCoord) {
		coord = make([]int64, len(shape))
	}
	// With an int64 form and int64 operands and result, most elements need
	// no num (the exact result fits in an int64 and wraps in place).
	i64 := sem.i64
	if len(ins) != 2 || ins[0].Ints == nil || ins[1].Ints == nil || out.Ints == nil {
		i64 = nil
	}
	width, signed, _ := intInfo(relem)
	for e, n := 0, out.Len(); e < n; e, _ = e+1, next(coord, shape) {
		if i64 != nil {
			r, ok := i64(ins[0].Ints[walks[0].index(e, coord, strides[0])], ins[1].Ints[walks[1].index(e, coord, strides[1])])
			if ok {
				out.Ints[e] = wrap64(r, width, signed)
				continue
			}
		}
		for j, in := range ins {
			k := walks[j].index(e, coord, strides[j])
			if in.Ints != nil {
				args[j] = intNum(in.Ints[k])
			} else {
				args[j] = in.num(k)
			}
		}
		r, err := fn(args)
		if err == nil && r.k == kInt && out.Ints != nil {
			out.Ints[e] = wrap64(r.i, width, signed) // convert's wrap into an int64-held type
			continue
		}
		if err == nil {
			r, err = convert(r, relem)
		}
		if err != nil {
			if len(shape) > 0 {
				return nil, opErr(op, "%v (element %s)", err, coordString(tileview.Coord(int64(e), shape)))
			}
			return nil, opErr(op, "%v", err)
		}
		out.setNum(e, r)
	}
	return w.result(out), nil
}

// elemPlan is what an element-wise instruction keeps between runs for the
// operand types and shapes of its last run: its scalar function and how each
// operand is broadcast, which depend on nothing else.
type elemPlan struct {
	types   []ir.Type
	shapes  [][]int64
	fn      scalarFn
	strides [][]int64
	walks   []walk
	// expanded holds the operands broadcast along some dimensions only,
	// expanded to the result's shape (tileInts), and tins the operands with
	// these in their place, while the op runs; from[j] holds the elements
	// expanded[j] was last expanded from (an expansion of the same elements
	// again is skipped: nothing else writes expanded[j]).
	expanded []*Buffer
	from     [][]int64
	tins     []*Buffer
}

// fits reports whether the plan is for operands of the types and shapes of ins.
func (p *elemPlan) fits(ins []*Buffer) bool {
	if p == nil || len(p.types) != len(ins) {
		return false
	}
	for j, b := range ins {
		if b.Elem != p.types[j] || !slices.Equal(b.Shape, p.shapes[j]) {
			return false
		}
	}
	return true
}

// planElementwise picks the scalar function of an element-wise op for its
// operands' types and checks that they broadcast to the result shape.
func planElementwise(op *ir.Operation, sem *elemSem, ins []*Buffer, shape []int64, relem ir.Type) (*elemPlan, error) {
	p := &elemPlan{}
	for _, b := range ins {
		p.types = append(p.types, b.Elem)
		p.shapes = append(p.shapes, slices.Clone(b.Shape))
	}
	var err error
	if p.fn, err = scalarFunc(op, sem, p.types, relem); err != nil {
		return nil, opErr(op, "%v", err)
	}
	if p.strides, err = broadcastStrides(ins, shape); err != nil {
		return nil, opErr(op, "%v", err)
	}
	for j := range ins {
		p.walks = append(p.walks, walkOf(p.strides[j], shape))
	}
	return p, nil
}

// resultBuffer returns the buffer of the result of the element-wise op (or
// load) running, of a type its every run has: a new one, or the one its last
// run made when that value is dead by now (instr.reuse; its storage is
// working memory, spare.go). The caller writes every element before the
// value is used.
func (w *workgroup) resultBuffer(op *ir.Operation, elem ir.Type, shape []int64) *Buffer {
	in := w.instrOf(op)
	if in.out != nil {
		return in.out
	}
	if in.reuse && len(shape) > 0 && fitsInt64(elem) {
		in.out = &Buffer{Shape: shape, Elem: elem, Ints: takeInts(tileview.Len(shape))}
		return in.out
	}
	return NewBuffer(elem, shape...)
}

// tileInts returns the operands of a whole-tile form, each of the result's
// length, or nil when one is not held as int64: an operand of the result's
// shape as it is, one broadcast first expanded to the result's shape (into
// p.expanded; one of one element by a fill, at memory speed).
func (p *elemPlan) tileInts(ins []*Buffer, shape []int64) []*Buffer {
	tins := ins
	for j, in := range ins {
		if in.Ints == nil {
			return nil
		}
		if p.walks[j] == walkSame {
			continue
		}
		if p.expanded == nil {
			p.expanded, p.from = make([]*Buffer, len(ins)), make([][]int64, len(ins))
		}
		if p.expanded[j] == nil {
			p.expanded[j] = &Buffer{Shape: shape, Elem: in.Elem, Ints: make([]int64, tileview.Len(shape))}
		}
		if p.from[j] == nil || !slices.Equal(p.from[j], in.Ints) {
			expand(p.expanded[j].Ints, in.Ints, shape, p.strides[j])
			p.from[j] = append(p.from[j][:0], in.Ints...)
		}
		if &tins[0] == &ins[0] {
			p.tins = append(p.tins[:0], ins...)
			tins = p.tins
		}
		tins[j] = p.expanded[j]
	}
	return tins
}

// expand writes into d the elements of x broadcast to shape (strides: x's
// stride along each dimension of shape, 0 where it is broadcast), row by row:
// a row of x by a copy, a row repeated (and a scalar) by doubling copies
// (fill), at memmove speed.
func expand(d, x []int64, shape, strides []int64) {
	switch {
	case len(d) == 0:
	case len(shape) == 1 && strides[0] == 1:
		copy(d, x[:len(d)])
	case len(shape) == 1 && strides[0] == 0:
		fill(d, x[0])
	case len(shape) == 1:
		for i := range d {
			d[i] = x[int64(i)*strides[0]]
		}
	case strides[0] == 0: // every row is the first
		n := len(d) / int(shape[0])
		expand(d[:n], x, shape[1:], strides[1:])
		for k := n; k < len(d); k *= 2 {
			copy(d[k:], d[:k])
		}
	default:
		n := len(d) / int(shape[0])
		for i := range int(shape[0]) {
			expand(d[i*n:(i+1)*n], x[int64(i)*strides[0]:], shape[1:], strides[1:])
		}
	}
}

// scalarElementwise runs a scalar element-wise instruction (instr.scalar)
// on unboxed scalars, as execElementwise would, without allocating; done is
// false, with nothing done, when an operand is not a scalar held unboxed.
func (w *workgroup) scalarElementwise(in *instr) (done bool, err error) {
	var types [maxScalarArgs]ir.Type
	args := w.nums[:len(in.args)]
	for j, s := range in.args {
		sl := &w.slots[s]
		if sl.t == nil {
			return false, nil
		}
		args[j], types[j] = sl.n, sl.t
	}
	sc := in.scalar
	if sc.fn == nil || sc.fnTypes != types {
		fn, err := scalarFunc(in.op, in.sem.elem, slices.Clone(types[:len(args)]), sc.relem)
		if err != nil {
			return true, opErr(in.op, "%v", err)
		}
		sc.fn, sc.fnTypes = fn, types
	}
	r, err := sc.fn(args)
	if err == nil {
		r, err = convert(r, sc.relem)
	}
	if err != nil {
		return true, opErr(in.op, "%v", err)
	}
	w.slots[in.res[0]] = scalarSlot(sc.relem, r)
	return true, nil
}

// broadcastStrides checks that the operands broadcast (NumPy rules: shapes
// aligned on the right, each dimension equal or 1) to exactly the result
// shape, and returns for each operand the stride of each result dimension in
// its elements (0 along broadcast dimensions).
func broadcastStrides(ins []*Buffer, shape []int64) ([][]int64, error) {
	var common []int64
	for _, in := range ins {
		c, ok := tileview.Broadcast(common, in.Shape)
		if !ok {
			return nil, fmt.Errorf("operand shapes %s do not broadcast together", shapesString(ins))
		}
		common = c
	}
	if !slices.Equal(common, shape) {
		return nil, fmt.Errorf("operands of shapes %s broadcast to %s, but the result shape is %s", shapesString(ins), shapeString(common), shapeString(shape))
	}
	strides := make([][]int64, len(ins))
	for j, in := range ins {
		strides[j] = tileview.BroadcastStrides(in.Shape, shape)
	}
	return strides, nil
}

// walk is how an operand broadcast to a result shape is read along the
// result's elements in row-major order: at the element itself (the same
// shape), always at its element 0 (one element), or by coordinates.
type walk uint8

const (
	walkSame walk = iota
	walkZero
	walkCoord
)

// walkOf classifies an operand's broadcast strides along shape.
func walkOf(strides, shape []int64) walk {
	if slices.Equal(strides, tileview.Strides(shape)) {
		return walkSame
	}
	if !slices.ContainsFunc(strides, func(s int64) bool { return s != 0 }) {
		return walkZero
	}
	return walkCoord
}

// index is the operand's element read at result element e (coord its
// coordinates when the walk needs them).
func (wk walk) index(e int, coord, strides []int64) int {
	switch wk {
	case walkSame:
		return e
	case walkZero:
		return 0
	}
	return int(tileview.Linear(coord, strides))
}

// next advances coordinates (nil: none kept) to the next element of shape;
// it returns true so that a loop's post statement can call it.
func next(coord, shape []int64) bool {
	if coord != nil {
		tileview.Next(coord, shape)
	}
	return true
}

// broadcastTo checks that a value broadcasts to the target shape (as a
// stored value or a mask does) and returns its strides along the target.
func broadcastTo(in *Buffer, target []int64) ([]int64, error) {
	if !tileview.Fits(in.Shape, target) {
		return nil, fmt.Errorf("a %s value does not broadcast to shape %s", shapeString(in.Shape), shapeString(target))
	}
	return tileview.BroadcastStrides(in.Shape, target), nil
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
// semantics, attributes and element types: integer operands use the exact
// integer function, a float operand (or an op with no integer function)
// the float one.
func scalarFunc(op *ir.Operation, sem *elemSem, in []ir.Type, rt ir.Type) (scalarFn, error) {
	for _, t := range in {
		if !ir.IsScalar(t) {
			return nil, fmt.Errorf("operands must have integer, index or float elements")
		}
	}
	if sem.pick != nil {
		return sem.pick(op, in, rt)
	}
	if anyFloat(in...) || sem.ints == nil {
		return floatFunc(sem, in, rt)
	}
	return sem.ints(in, rt), nil
}

func anyFloat(ts ...ir.Type) bool {
	for _, t := range ts {
		if isFloatType(t) {
			return true
		}
	}
	return false
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
func floatFunc(sem *elemSem, in []ir.Type, rt ir.Type) (scalarFn, error) {
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
	f1, f2 := sem.f1, sem.f2
	switch {
	case f1 != nil:
		return func(a []num) (num, error) { return floatNum(roundFloat64(f1(get(a[0])), k)), nil }, nil
	case f2 != nil:
		return func(a []num) (num, error) { return floatNum(roundFloat64(f2(get(a[0]), get(a[1])), k)), nil }, nil
	}
	return nil, fmt.Errorf("needs integer operands, not %s", floatOperand(in))
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
	if !slices.Contains(otir.CmpPredicates, pred) || ok == nil {
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
