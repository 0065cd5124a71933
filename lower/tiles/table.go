package tiles

import (
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/ir/optable"
)

// The lowering of every operation, in one table keyed by operation name (an
// optable.Table): this is the only file of the package that names operations besides
// pass.go (which finds the kernels). TestLoweringsComplete checks that every
// OTIR operation has an entry.

// lowering is how one operation lowers. Exactly one of lower, scalar, ends
// and unsupported is set.
type lowering struct {
	// lower lowers a non-element-wise operation (l.cur is op).
	lower func(l *lowerer, op *ir.Operation) error
	// scalar computes one element of an element-wise operation from its
	// operand elements of types t, for a result of type rt (l.elementwise
	// broadcasts it over tiles).
	scalar func(l *lowerer, op *ir.Operation, a []num, t []intT, rt intT) (num, error)
	// ends marks a block terminator; yields tells scf.yield, whose operands
	// the block returns, from otir.return.
	ends, yields bool
	// unsupported is why the operation has no combinational lowering; the
	// error shows it after the op's name.
	unsupported string
	// tagDead, for an op whose lower function computes new values from
	// its operands' (matmul, reduce) rather than moving them, tags the
	// constants among its results where a signal died (deadsignal.go).
	tagDead func(l *lowerer, op *ir.Operation)
	// allocates marks an op whose memory result counts against max-ops as
	// a #private result does (stepOp).
	allocates bool
}

// unsupported is the entry of an operation that does not lower.
func unsupported(reason string) lowering { return lowering{unsupported: reason} }

var lowerings *optable.Table[lowering]

func init() {
	lowerings = optable.New("lower-tiles' lowerings", "table.go", map[string]lowering{
		otir.OpReturn: {ends: true},
		scf.OpYield:   {ends: true, yields: true},

		otir.OpConstant:  {lower: (*lowerer).constant},
		otir.OpProgramID: {lower: axis(false)},
		otir.OpNumProgs:  {lower: axis(true)},
		otir.OpAlloc:     {lower: (*lowerer).alloc, allocates: true},
		otir.OpLoad:      {lower: (*lowerer).load},
		otir.OpStore:     {lower: (*lowerer).store},
		otir.OpDMA:       {lower: (*lowerer).dma},
		otir.OpWait:      {lower: (*lowerer).wait},
		otir.OpBarrier:   {lower: func(*lowerer, *ir.Operation) error { return nil }},
		otir.OpAtomic:    {lower: (*lowerer).atomic},
		otir.OpMatmul:    {lower: (*lowerer).matmul, tagDead: (*lowerer).tagMatmul},

		otir.OpReshape:      {lower: shapeOp(reshapeSources)},
		otir.OpTranspose:    {lower: shapeOp(transposeSources)},
		otir.OpExtractSlice: {lower: shapeOp(sliceSources)},
		otir.OpInsertSlice:  {lower: (*lowerer).insertSlice},
		otir.OpReduce:       {lower: reduceWith(map[string]string{"add": otir.OpAdd, "max": otir.OpMax, "min": otir.OpMin}), tagDead: (*lowerer).tagResults},

		scf.OpFor: {lower: (*lowerer).forOp},
		scf.OpIf:  {lower: (*lowerer).ifOp},

		otir.OpAdd:  binary(func(l *lowerer, a, b num, _, _, rt intT) (num, error) { return l.add(a, b, rt) }),
		otir.OpSub:  binary(func(l *lowerer, a, b num, _, _, rt intT) (num, error) { return l.sub(a, b, rt) }),
		otir.OpMul:  binary(func(l *lowerer, a, b num, _, _, rt intT) (num, error) { return l.mul(a, b, rt) }),
		otir.OpDivS: binary(divRem(true, false)),
		otir.OpDivU: binary(divRem(false, false)),
		otir.OpRemS: binary(divRem(true, true)),
		otir.OpRemU: binary(divRem(false, true)),
		otir.OpShl:  binary(shift(true, false)),
		otir.OpShrS: binary(shift(false, true)),
		otir.OpShrU: binary(shift(false, false)),
		otir.OpAnd:  binary(bitwise("and")),
		otir.OpOr:   binary(bitwise("or")),
		otir.OpXor:  binary(bitwise("xor")),
		otir.OpMax:  binary(maxMin(true)),
		otir.OpMin:  binary(maxMin(false)),

		otir.OpNeg:  unary((*lowerer).negate),
		otir.OpAbs:  unary((*lowerer).absolute),
		otir.OpNot:  unary((*lowerer).complement),
		otir.OpSqrt: unsupported("has no integer lowering"),
		otir.OpExp:  unsupported("has no integer lowering"),
		otir.OpLog:  unsupported("has no integer lowering"),

		otir.OpCmp:    {scalar: cmpElem},
		otir.OpSelect: {scalar: selectElem},
		otir.OpLookup: {scalar: lookupElem},
		otir.OpCast:   {scalar: func(l *lowerer, _ *ir.Operation, a []num, _ []intT, rt intT) (num, error) { return l.convert(a[0], rt) }},
	}, func(lw lowering) string { return lw.unsupported })
}

// loweringOf returns the lowering of an operation; ok is false when the
// table has no entry for it.
func loweringOf(name string) (lw lowering, ok bool) { return lowerings.Lookup(name) }

// axis lowers otir.program_id, or (grid) otir.num_programs: a constant.
func axis(grid bool) func(l *lowerer, op *ir.Operation) error {
	return func(l *lowerer, op *ir.Operation) error {
		axis, _ := op.IntAttr("axis")
		if axis < 0 || int(axis) >= len(l.grid) {
			return l.errf("axis %d is not an axis of the grid", axis)
		}
		v := l.pid[axis]
		if grid {
			v = l.grid[axis]
		}
		l.env[op.Results[0]] = intNum(v)
		return nil
	}
}

// binary is the entry of a binary element-wise op computed by f.
func binary(f func(l *lowerer, a, b num, ta, tb, rt intT) (num, error)) lowering {
	return lowering{scalar: func(l *lowerer, _ *ir.Operation, a []num, t []intT, rt intT) (num, error) {
		if len(a) != 2 {
			return num{}, l.errf("internal error: expected two operands")
		}
		return f(l, a[0], a[1], t[0], t[1], rt)
	}}
}

// unary is the entry of a unary element-wise op computed by f.
func unary(f func(l *lowerer, a num, rt intT) (num, error)) lowering {
	return lowering{scalar: func(l *lowerer, _ *ir.Operation, a []num, _ []intT, rt intT) (num, error) {
		return f(l, a[0], rt)
	}}
}

func divRem(signed, rem bool) func(l *lowerer, a, b num, ta, tb, rt intT) (num, error) {
	return func(l *lowerer, a, b num, ta, tb, rt intT) (num, error) {
		return l.divRem(a, b, ta, tb, rt, signed, rem)
	}
}

func shift(left, signed bool) func(l *lowerer, a, b num, ta, tb, rt intT) (num, error) {
	return func(l *lowerer, a, b num, ta, _, rt intT) (num, error) {
		return l.shift(a, b, ta, rt, left, signed)
	}
}

func bitwise(kind string) func(l *lowerer, a, b num, ta, tb, rt intT) (num, error) {
	return func(l *lowerer, a, b num, _, _, rt intT) (num, error) { return l.bitwise(kind, a, b, rt) }
}

func maxMin(isMax bool) func(l *lowerer, a, b num, ta, tb, rt intT) (num, error) {
	return func(l *lowerer, a, b num, _, _, rt intT) (num, error) { return l.maxMin(isMax, a, b, rt) }
}

// cmpElem is otir.cmp kind(pred).
func cmpElem(l *lowerer, op *ir.Operation, a []num, t []intT, _ intT) (num, error) {
	pred, _ := op.StringAttr("kind")
	return l.compare(pred, a[0], a[1], t[0], t[1])
}

// selectElem is otir.select: a mux of the converted choices.
func selectElem(l *lowerer, _ *ir.Operation, a []num, _ []intT, rt intT) (num, error) {
	x, err := l.convert(a[1], rt)
	if err != nil {
		return num{}, err
	}
	y, err := l.convert(a[2], rt)
	if err != nil {
		return num{}, err
	}
	return l.mux(a[0], x, y, rt)
}

// Support reports whether lower-tiles lowers the named operation, and if not,
// why (for documentation such as otir-opt --list-ops).
func Support(name string) (ok bool, why string) { return lowerings.Support(name) }
