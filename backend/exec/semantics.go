package exec

import (
	"fmt"
	"math"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/ir/optable"
)

// The executor's semantics of every operation it knows, in one table keyed by
// operation name (an optable.Table): this is the only file of the package
// that names operations. TestSemanticsComplete checks that every OTIR
// operation has an entry.

// semantics is the executor's meaning of one operation. Exactly one of run,
// elem, ends and unsupported is set.
type semantics struct {
	// run executes a non-element-wise operation.
	run handler
	// elem is the scalar meaning of an element-wise operation
	// (execElementwise broadcasts it over tiles).
	elem *elemSem
	// ends marks a block terminator: runBlock returns its operands. yields
	// tells scf.yield (which ends an scf region) from otir.return.
	ends, yields bool
	// unsupported is why the executor cannot run the operation; running it
	// is an error that shows the reason.
	unsupported string

	// What Written needs to know of the operation's effect on memory:
	// viewOf marks an op whose result 0 may be a view of operand 0; writes
	// is 1 + the index of the operand whose memory it writes (0: none);
	// flow, for ops with regions, relates their values to the region's.
	viewOf bool
	writes int
	flow   func(op *ir.Operation, flow func(from, to *ir.Value))

	// readsOnly marks an op that keeps no reference to its operand 0 (it
	// copies the value), as element-wise ops keep none to theirs: the
	// buffer of a value used only by such ops may be reused (instr.reuse).
	readsOnly bool
	// fresh marks a non-element-wise op whose handler makes its result with
	// resultBuffer (a load from memory), as element-wise ops do.
	fresh bool

	// cost is the op's step cost beyond one per result element (stepCost).
	cost func(op *ir.Operation) int64
}

// elemSem is the scalar meaning of an element-wise operation.
type elemSem struct {
	// pick returns the scalar function outright (cmp, select, cast).
	pick func(op *ir.Operation, in []ir.Type, rt ir.Type) (scalarFn, error)
	// ints is the exact function on integer operands of types in, for a
	// result of type rt; nil when the op computes in floating point even on
	// integers (sqrt, exp, log).
	ints func(in []ir.Type, rt ir.Type) scalarFn
	// f1 or f2 is the IEEE-754 function on float64 (nil: integers only).
	f1 func(x float64) float64
	f2 func(x, y float64) float64
	// i64 is ints on operands and results held as int64 (nil: none): the
	// exact result, ok false when it does not fit (ints then computes it).
	// It lets execElementwise run tiles of such integers without making a
	// num per element.
	i64 func(x, y int64) (r int64, ok bool)
	// tile is the whole-tile int64 form (tile64.go; nil: none).
	tile tileFn
}

// unsupported is the entry of an operation the executor cannot run.
func unsupported(reason string) semantics { return semantics{unsupported: reason} }

var ops *optable.Table[semantics]

func init() {
	ops = optable.New("the executor's semantics", "semantics.go", map[string]semantics{
		otir.OpReturn: {ends: true},
		scf.OpYield:   {ends: true, yields: true},

		otir.OpConstant:  {run: execConstant},
		otir.OpProgramID: {run: execAxis(false)},
		otir.OpNumProgs:  {run: execAxis(true)},
		otir.OpAlloc:     {run: execAlloc},
		otir.OpDMA:       {run: execDMA, writes: 1 + 1},
		otir.OpWait:      {run: execWait},
		otir.OpLoad:      {run: execLoad, fresh: true},
		otir.OpStore:     {run: execStore, writes: 1 + 1, readsOnly: true},
		otir.OpAtomic:    {run: execAtomic, writes: 1 + 0},
		otir.OpBarrier:   {run: func(*workgroup, *ir.Operation) ([]rvalue, error) { return nil, nil }},
		otir.OpMatmul:    {run: execMatmul, cost: matmulCost},

		otir.OpReshape:      {run: execReshape, viewOf: true},
		otir.OpTranspose:    {run: execTranspose, viewOf: true},
		otir.OpExtractSlice: {run: execExtractSlice, viewOf: true},
		otir.OpInsertSlice:  {run: execInsertSlice},
		otir.OpReduce:       {run: reduceWith(map[string]string{"add": otir.OpAdd, "max": otir.OpMax, "min": otir.OpMin}), cost: reduceCost},

		scf.OpFor: {run: execFor, flow: forFlow},
		scf.OpIf:  {run: execIf, flow: ifFlow},

		otir.OpAdd:  with64(elementwise(add, func(x, y float64) float64 { return x + y }), add64, addTile),
		otir.OpSub:  with64(elementwise(sub, func(x, y float64) float64 { return x - y }), sub64, subTile),
		otir.OpMul:  with64(elementwise(mul, func(x, y float64) float64 { return x * y }), mul64, mulTile),
		otir.OpDivS: elementwise(divide(readSigned, false), fdiv),
		otir.OpDivU: elementwise(divide(readUnsigned, false), fdiv),
		otir.OpRemS: elementwise(divide(readSigned, true), math.Mod),
		otir.OpRemU: elementwise(divide(readUnsigned, true), math.Mod),
		otir.OpAnd:  with64(elementwise(bitOp("and"), nil), and64, andTile),
		otir.OpOr:   with64(elementwise(bitOp("or"), nil), or64, orTile),
		otir.OpXor:  with64(elementwise(bitOp("xor"), nil), xor64, xorTile),
		otir.OpShl:  elementwise(shl, nil),
		otir.OpShrS: elementwise(shr(readSigned), nil),
		otir.OpShrU: elementwise(shr(readUnsigned), nil),
		otir.OpMax:  with64(elementwise(maxMin(true), fmax), max64, maxTile),
		otir.OpMin:  with64(elementwise(maxMin(false), fmin), min64, minTile),

		otir.OpNeg:  withTile(elementwise1(unaryInt(negInt), func(x float64) float64 { return -x }), negTile),
		otir.OpAbs:  withTile(elementwise1(unaryInt(absInt), math.Abs), absTile),
		otir.OpNot:  withTile(elementwise1(unaryInt(notInt), nil), notTile),
		otir.OpSqrt: elementwise1(nil, math.Sqrt),
		otir.OpExp:  elementwise1(nil, math.Exp),
		otir.OpLog:  elementwise1(nil, math.Log),

		otir.OpCmp:    {elem: &elemSem{pick: pickCmp, tile: cmpTile}},
		otir.OpSelect: {elem: &elemSem{pick: pickSelect, tile: selectTile}},
		otir.OpCast:   {elem: &elemSem{pick: pickCast, tile: castTile}},
		otir.OpLookup: {elem: &elemSem{pick: pickLookup}},
	}, func(s semantics) string { return s.unsupported })
}

// semOf returns the semantics of an operation; ok is false when the table
// has no entry for it.
func semOf(name string) (s semantics, ok bool) { return ops.Lookup(name) }

// elementwise is the entry of a binary element-wise op: its integer function
// and its float function (nil: integers only).
func elementwise(ints func(in []ir.Type, rt ir.Type) scalarFn, f func(x, y float64) float64) semantics {
	return semantics{elem: &elemSem{ints: ints, f2: f}}
}

// with64 adds an element-wise entry's int64 forms (elemSem.i64, elemSem.tile).
func with64(s semantics, f func(x, y int64) (int64, bool), tile tileFn) semantics {
	s.elem.i64, s.elem.tile = f, tile
	return s
}

// withTile adds an element-wise entry's whole-tile int64 form (elemSem.tile).
func withTile(s semantics, tile tileFn) semantics {
	s.elem.tile = tile
	return s
}

// The int64 forms of the bitwise and max/min ops, whose results always fit.
func and64(x, y int64) (int64, bool) { return x & y, true }
func or64(x, y int64) (int64, bool)  { return x | y, true }
func xor64(x, y int64) (int64, bool) { return x ^ y, true }
func max64(x, y int64) (int64, bool) { return max(x, y), true }
func min64(x, y int64) (int64, bool) { return min(x, y), true }

// elementwise1 is the entry of a unary element-wise op.
func elementwise1(ints func(in []ir.Type, rt ir.Type) scalarFn, f func(x float64) float64) semantics {
	return semantics{elem: &elemSem{ints: ints, f1: f}}
}

// Integer functions of the element-wise ops: exact results. The _s and _u
// ops read each operand's bits (in its own width) as two's-complement signed
// or as unsigned numbers.

func add(_ []ir.Type, _ ir.Type) scalarFn {
	return func(a []num) (num, error) { return addInt(a[0], a[1]), nil }
}

func sub(_ []ir.Type, _ ir.Type) scalarFn {
	return func(a []num) (num, error) { return subInt(a[0], a[1]), nil }
}

func mul(_ []ir.Type, _ ir.Type) scalarFn {
	return func(a []num) (num, error) { return mulInt(a[0], a[1]), nil }
}

func fdiv(x, y float64) float64 { return x / y }

// divide is div (rem: remainder) after reading the operands with read.
func divide(read func(num, ir.Type) num, rem bool) func([]ir.Type, ir.Type) scalarFn {
	return func(in []ir.Type, _ ir.Type) scalarFn {
		return func(a []num) (num, error) {
			x, y := read(a[0], in[0]), read(a[1], in[1])
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
}

// bitOp is and, or or xor (kind).
func bitOp(kind string) func([]ir.Type, ir.Type) scalarFn {
	return func([]ir.Type, ir.Type) scalarFn {
		return func(a []num) (num, error) { return bitwise(kind, a[0], a[1]), nil }
	}
}

func shl(_ []ir.Type, rt ir.Type) scalarFn {
	width, _, _ := intInfo(rt)
	return func(a []num) (num, error) {
		s, err := shiftAmount(a[1])
		if err != nil {
			return num{}, err
		}
		return shiftLeft(a[0], s, width), nil
	}
}

// shr shifts right the operand read with read (signed: arithmetic shift).
func shr(read func(num, ir.Type) num) func([]ir.Type, ir.Type) scalarFn {
	return func(in []ir.Type, _ ir.Type) scalarFn {
		return func(a []num) (num, error) {
			s, err := shiftAmount(a[1])
			if err != nil {
				return num{}, err
			}
			return shiftRight(read(a[0], in[0]), s), nil
		}
	}
}

// shiftAmount is a shift's amount, which must not be negative (huge
// amounts shift every bit out).
func shiftAmount(s num) (int64, error) {
	if s.sign() < 0 {
		return 0, fmt.Errorf("negative shift amount %s", s)
	}
	if s.k != kInt {
		return math.MaxInt64, nil
	}
	return s.i, nil
}

func maxMin(isMax bool) func([]ir.Type, ir.Type) scalarFn {
	return func([]ir.Type, ir.Type) scalarFn {
		return func(a []num) (num, error) {
			c := cmpInt(a[0], a[1])
			if c == 0 || (c > 0) == isMax {
				return a[0], nil
			}
			return a[1], nil
		}
	}
}

func unaryInt(f func(num) num) func([]ir.Type, ir.Type) scalarFn {
	return func([]ir.Type, ir.Type) scalarFn {
		return func(a []num) (num, error) { return f(a[0]), nil }
	}
}

// pickCmp is otir.cmp kind(pred).
func pickCmp(op *ir.Operation, in []ir.Type, _ ir.Type) (scalarFn, error) {
	pred, _ := op.StringAttr("kind")
	return cmpFunc(pred, in)
}

// pickSelect is otir.select: the condition (i1) picks the second or third
// operand.
func pickSelect(_ *ir.Operation, in []ir.Type, _ ir.Type) (scalarFn, error) {
	if in[0] != ir.Bool() {
		return nil, fmt.Errorf("the condition must have i1 elements, not %s", in[0])
	}
	return func(a []num) (num, error) {
		if a[0].sign() != 0 {
			return a[1], nil
		}
		return a[2], nil
	}, nil
}

// pickCast is otir.cast: the value itself, which the caller converts.
func pickCast(*ir.Operation, []ir.Type, ir.Type) (scalarFn, error) {
	return func(a []num) (num, error) { return a[0], nil }, nil
}

// forFlow relates the values of scf.for for Written: each init operand and
// yielded value flows to its iteration argument and result.
func forFlow(op *ir.Operation, flow func(from, to *ir.Value)) {
	b := op.Body(0)
	if b == nil {
		return
	}
	carried := func(j int, v *ir.Value) {
		if 1+j < len(b.Args) {
			flow(v, b.Args[1+j])
		}
		if j < len(op.Results) {
			flow(v, op.Results[j])
		}
	}
	for j := 3; j < len(op.Operands); j++ {
		carried(j-3, op.Operands[j])
	}
	for j, y := range yielded(b) {
		carried(j, y)
	}
}

// ifFlow relates the values of scf.if for Written: each region's yielded
// values flow to the results.
func ifFlow(op *ir.Operation, flow func(from, to *ir.Value)) {
	for r := range op.Regions {
		for j, y := range yielded(op.Body(r)) {
			if j < len(op.Results) {
				flow(y, op.Results[j])
			}
		}
	}
}

// yielded returns the operands of the scf.yield that ends b, if it does.
func yielded(b *ir.Block) []*ir.Value {
	if b == nil || b.Terminator() == nil {
		return nil
	}
	if s, _ := semOf(b.Terminator().Name); !s.yields {
		return nil
	}
	return b.Terminator().Operands
}

// Support reports whether the executor runs the named operation, and if not,
// why (for documentation such as otir-opt --list-ops). Structural operations
// the walker handles itself (otir.kernel, builtin.module) have no entry.
func Support(name string) (ok bool, why string) { return ops.Support(name) }
