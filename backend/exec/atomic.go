package exec

import (
	"fmt"
	"math"
	"slices"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
)

// execAtomic runs otir.atomic_rmw on each element of a memory tile: it reads
// the old value, combines it with the operand (broadcast to the tile's shape)
// by the kind, converts the exact result to the element type, writes it, and
// returns the old values. The memory order is checked but, in the executor's
// sequential run, orders nothing further.
func execAtomic(w *workgroup, op *ir.Operation) ([]rvalue, error) {
	dst, val, err := w.destAndValue(op, 0, 1)
	if err != nil {
		return nil, err
	}
	kind, _ := op.StringAttr("kind")
	if order, ok := op.StringAttr("memory_order"); ok && !slices.Contains(otir.MemoryOrders, order) {
		return nil, opErr(op, "unknown memory order '%s'", order)
	}
	elem := dst.mem.buf.Elem
	fn, err := atomicFunc(kind, elem, val.Elem)
	if err != nil {
		return nil, opErr(op, "%v", err)
	}
	strides, err := broadcastTo(val, dst.shape)
	if err != nil {
		return nil, opErr(op, "operand does not fit the tile: %v", err)
	}
	if err := w.checkPending(op, access{v: dst, write: true}); err != nil {
		return nil, err
	}
	if err := checkInit(op, dst, nil); err != nil {
		return nil, err
	}
	// The old values have the result's type: a tile of the pointer's shape,
	// or a scalar when the pointer holds one element and the operand is one.
	oldShape := dst.shape
	if len(op.Results) == 1 && ir.IsScalar(op.Results[0].Type) && dst.len() == 1 {
		oldShape = nil
	}
	old := NewBuffer(elem, oldShape...)
	var ferr error
	forEachBroadcast(dst.shape, strides, func(i int, k int64) {
		if ferr != nil {
			return
		}
		o := dst.mem.buf.num(int(dst.at(i)))
		old.setNum(i, o)
		n, err := fn(o, val.num(int(k)))
		if err == nil {
			n, err = convert(n, elem)
		}
		if err != nil {
			ferr = opErr(op, "%v (element %s)", err, coordString(tileview.Coord(int64(i), dst.shape)))
			return
		}
		w.writeElem(op, dst, i, n, true)
	})
	if ferr != nil {
		return nil, ferr
	}
	return []rvalue{old}, nil
}

// atomicFunc is the combining function of an atomic kind for a memory
// element type et and operand element type vt. max and min compare values;
// umax and umin compare integer bits read as unsigned; and/or/xor/umax/umin
// need integers.
func atomicFunc(kind string, et, vt ir.Type) (func(old, v num) (num, error), error) {
	float := anyFloat(et, vt)
	k := compKind(et, vt)
	toFloat := func(n num) float64 {
		if n.k == kFloat {
			return n.f
		}
		return intToFloat(n, k)
	}
	switch kind {
	case "xchg":
		return func(_, v num) (num, error) { return v, nil }, nil
	case "add":
		if float {
			return func(o, v num) (num, error) { return floatNum(roundFloat64(toFloat(o)+toFloat(v), k)), nil }, nil
		}
		return func(o, v num) (num, error) { return addInt(o, v), nil }, nil
	case "max", "min":
		wantMax := kind == "max"
		return func(o, v num) (num, error) {
			c, ordered := cmpExact(o, v)
			if !ordered {
				return floatNum(math.NaN()), nil
			}
			if (c >= 0) == wantMax {
				return o, nil
			}
			return v, nil
		}, nil
	}
	if float {
		return nil, fmt.Errorf("atomic kind '%s' needs integer elements", kind)
	}
	switch kind {
	case "and", "or", "xor":
		return func(o, v num) (num, error) { return bitwise(kind, o, v), nil }, nil
	case "umax", "umin":
		wantMax := kind == "umax"
		return func(o, v num) (num, error) {
			uo, uv := readUnsigned(o, et), readUnsigned(v, vt)
			if (cmpInt(uo, uv) >= 0) == wantMax {
				return uo, nil
			}
			return uv, nil
		}, nil
	}
	return nil, fmt.Errorf("unknown atomic kind '%s'", kind)
}
