package verify

import (
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// inMemory reports whether t is a #global or #workgroup tile (a reference).
func inMemory(t *ir.TileType) bool {
	return t != nil && (t.Space == ir.Global || t.Space == ir.Workgroup)
}

// checkAlloc: the result is a tile outside #global.
func checkAlloc(_ *verifier, op *ir.Operation) *diag.Diagnostic {
	r := op.Results[0].Type
	t := asTile(r)
	if t == nil {
		return opError(op, "result must be a tile, but got '%s'", typeStr(r))
	}
	if t.Space == ir.Global {
		return opError(op, "cannot allocate in #global memory (alloc is not permitted in the #global space)")
	}
	return nil
}

// checkDMA: a copy from #global or #workgroup into #workgroup (or from
// #workgroup back to #global) between tiles of one shape and element type, with
// an optional i1 mask of that shape, returning a token.
func checkDMA(_ *verifier, op *ir.Operation) *diag.Diagnostic {
	st, dt := op.Operands[0].Type, op.Operands[1].Type
	src, dst := asTile(st), asTile(dt)
	if !inMemory(src) {
		return opError(op, "source must be a #global or #workgroup tile, but got '%s'", typeStr(st))
	}
	if dst == nil || (dst.Space != ir.Workgroup && dst.Space != ir.Global) {
		return opError(op, "destination must be a #workgroup tile (or #global for a write-back from #workgroup), but got '%s'", typeStr(dt))
	}
	if src.Space == dst.Space {
		return opError(op, "source and destination must be in different memory spaces, but both are in %s", src.Space)
	}
	if src.Elem != dst.Elem {
		return opError(op, "source element type '%s' does not match the destination element type '%s'", typeStr(src.Elem), typeStr(dst.Elem))
	}
	if !sameShape(src.Shape, dst.Shape) {
		return opError(op, "source shape %s does not match the destination shape %s", shapeStr(src.Shape), shapeStr(dst.Shape))
	}
	if len(op.Operands) == 3 {
		mt := op.Operands[2].Type
		if m := asTile(mt); m == nil || !isBool(m.Elem) || !sameShape(m.Shape, src.Shape) {
			return opError(op, "mask must be an i1 tile of the copy's shape %s, but got '%s'", shapeStr(src.Shape), typeStr(mt))
		}
	}
	if r := op.Results[0].Type; !isToken(r) {
		return opError(op, "result must be !otir.token, but got '%s'", typeStr(r))
	}
	return nil
}

// checkLoad: from a #global or #workgroup tile to a #private tile of the same
// shape and element type.
func checkLoad(_ *verifier, op *ir.Operation) *diag.Diagnostic {
	st, rt := op.Operands[0].Type, op.Results[0].Type
	src, res := asTile(st), asTile(rt)
	if !inMemory(src) {
		return opError(op, "source must be a #global or #workgroup tile, but got '%s'", typeStr(st))
	}
	if res == nil || res.Space != ir.Private {
		return opError(op, "result must be a #private tile, but got '%s'", typeStr(rt))
	}
	if !sameShape(src.Shape, res.Shape) {
		return opError(op, "result shape %s does not match the source shape %s", shapeStr(res.Shape), shapeStr(src.Shape))
	}
	if src.Elem != res.Elem {
		return opError(op, "result element type '%s' does not match the source element type '%s'", typeStr(res.Elem), typeStr(src.Elem))
	}
	return nil
}

// checkStore: a #private tile into a #global or #workgroup tile of the same
// shape and element type.
func checkStore(_ *verifier, op *ir.Operation) *diag.Diagnostic {
	vt, pt := op.Operands[0].Type, op.Operands[1].Type
	val, ptr := asTile(vt), asTile(pt)
	if val == nil || val.Space != ir.Private {
		return opError(op, "value must be a #private tile, but got '%s'", typeStr(vt))
	}
	if !inMemory(ptr) {
		return opError(op, "destination must be a #global or #workgroup tile, but got '%s'", typeStr(pt))
	}
	if !sameShape(val.Shape, ptr.Shape) {
		return opError(op, "value shape %s does not match the destination shape %s", shapeStr(val.Shape), shapeStr(ptr.Shape))
	}
	if val.Elem != ptr.Elem {
		return opError(op, "value element type '%s' does not match the destination element type '%s'", typeStr(val.Elem), typeStr(ptr.Elem))
	}
	return nil
}

// checkAtomic: the pointer is a #global tile; the value is a #private tile of
// its shape and element type (or a scalar of that type when the pointer holds
// one element); the result has the value's type; kind and memory_order are
// known, and bitwise kinds and umax/umin need integer elements.
func checkAtomic(_ *verifier, op *ir.Operation) *diag.Diagnostic {
	pt, vt := op.Operands[0].Type, op.Operands[1].Type
	ptr := asTile(pt)
	if ptr == nil || ptr.Space != ir.Global {
		return opError(op, "pointer must be a #global tile, but got '%s'", typeStr(pt))
	}
	if val := asTile(vt); val != nil {
		if val.Space != ir.Private || !sameShape(val.Shape, ptr.Shape) || val.Elem != ptr.Elem {
			return opError(op, "value must be a #private tile of the pointer's shape and element type ('%s'), but got '%s'",
				typeStr(ir.Tile(ptr.Shape, ptr.Elem, ir.Private)), typeStr(vt))
		}
	} else if vt != ptr.Elem || ptr.NumElements() != 1 {
		if ptr.NumElements() != 1 {
			return opError(op, "value must be a #private tile of the pointer's shape and element type ('%s'), but got '%s'",
				typeStr(ir.Tile(ptr.Shape, ptr.Elem, ir.Private)), typeStr(vt))
		}
		return opError(op, "value must be a #private tile or a scalar of the pointer's element type '%s', but got '%s'", typeStr(ptr.Elem), typeStr(vt))
	}
	if r := op.Results[0].Type; r != vt {
		return opError(op, "result type '%s' must equal the value type '%s'", typeStr(r), typeStr(vt))
	}
	kind, _ := op.StringAttr("kind")
	if !contains(ir.AtomicKinds, kind) {
		return opError(op, "unknown kind '%s' (expected one of %s)", kind, strings.Join(ir.AtomicKinds, ", "))
	}
	switch kind {
	case "and", "or", "xor", "umax", "umin":
		if asInt(ptr.Elem) == nil {
			return opError(op, "kind '%s' needs integer elements, but got '%s'", kind, typeStr(ptr.Elem))
		}
	}
	order, _ := op.StringAttr("memory_order")
	if !contains(ir.MemoryOrders, order) {
		return opError(op, "unknown memory_order '%s' (expected one of %s)", order, strings.Join(ir.MemoryOrders, ", "))
	}
	return nil
}

// checkWait: every operand is a token.
func checkWait(_ *verifier, op *ir.Operation) *diag.Diagnostic {
	for i, x := range op.Operands {
		if !isToken(x.Type) {
			return opError(op, "operand #%d must be !otir.token, but got '%s'", i, typeStr(x.Type))
		}
	}
	return nil
}
