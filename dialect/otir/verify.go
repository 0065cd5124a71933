package otir

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// verifiers holds each op's Verify hook, by name: the op's own semantic rules,
// run by the verifier once the generic checks of its record passed (see
// docs/verifier.md). Ops absent from it need no rule beyond their record:
// otir.return (its parent and place come from Parents and the Terminator
// trait) and otir.barrier (no operands, results or attributes).
var verifiers = map[string]func(*ir.Operation, *ir.VerifyContext) error{
	OpKernel:    hook(checkKernel),
	OpConstant:  hook(checkConstant),
	OpProgramID: hook(checkAxis),
	OpNumProgs:  hook(checkAxis),

	OpAlloc:  hook(checkAlloc),
	OpDMA:    hook(checkDMA),
	OpLoad:   hook(checkLoad),
	OpStore:  hook(checkStore),
	OpAtomic: hook(checkAtomic),
	OpWait:   hook(checkWait),

	OpMatmul:       hook(checkMatmul),
	OpReshape:      hook(checkReshape),
	OpTranspose:    hook(checkTranspose),
	OpExtractSlice: hook(checkExtractSlice),
	OpInsertSlice:  hook(checkInsertSlice),
}

// elementwiseHook is the Verify hook of every Elementwise op (set in init).
var elementwiseHook = hook(checkElementwise)

// hook makes a Verify hook of a rule: a nil *diag.Diagnostic must become a
// nil error, not an error holding a nil pointer.
func hook(rule func(*ir.Operation, *ir.VerifyContext) *diag.Diagnostic) func(*ir.Operation, *ir.VerifyContext) error {
	return func(op *ir.Operation, ctx *ir.VerifyContext) error {
		if d := rule(op, ctx); d != nil {
			return d
		}
		return nil
	}
}

// checkTokens is the dialect's rule on every operation, of any dialect: only
// otir.dma_copy_async produces !otir.token.
func checkTokens(op *ir.Operation) error {
	if op.Name == OpDMA {
		return nil
	}
	for i, r := range op.Results {
		if isToken(r.Type) {
			return diag.OpErrorf(op, "result #%d cannot be !otir.token (only 'otir.dma_copy_async' produces tokens)", i)
		}
	}
	return nil
}

// checkTypingStyle is the dialect's rule on its otir.typing_style attribute,
// added to builtin.module's hook: "hls" or "cpp" when present.
func checkTypingStyle(op *ir.Operation) *diag.Diagnostic {
	if a := op.Attr("otir.typing_style"); a != nil {
		s, ok := a.(*ir.StringAttr)
		if !ok || s == nil || (s.Value != "hls" && s.Value != "cpp") {
			got := diag.AttrKind(a)
			if ok && s != nil {
				got = s.String()
			}
			return diag.OpErrorf(op, "attribute 'otir.typing_style' must be \"hls\" or \"cpp\", but got %s", got)
		}
	}
	return nil
}

// registerModuleRule appends checkTypingStyle to builtin.module's Verify hook.
func registerModuleRule() {
	m := ir.LookupOp(ir.OpModule)
	if m == nil {
		return
	}
	prev := m.Verify
	m.Verify = func(op *ir.Operation, ctx *ir.VerifyContext) error {
		if prev != nil {
			if err := prev(op, ctx); err != nil {
				return err
			}
		}
		if d := checkTypingStyle(op); d != nil {
			return d
		}
		return nil
	}
}

// enumOf is the words the named string attribute of the named op may hold,
// from its record.
func enumOf(opName, attr string) []string {
	if d := ir.LookupOp(opName); d != nil {
		if a := d.Attr(attr); a != nil {
			return a.Enum
		}
	}
	return nil
}

// Safe accessors. The verifier checked the op's form (counts, nil-ness,
// well-formed types, required attribute kinds) before its hook runs, but
// types may still be of any kind.

// asTile returns t as a tile type, or nil.
func asTile(t ir.Type) *ir.TileType {
	tt, _ := t.(*ir.TileType)
	return tt
}

// asInt returns t as an integer type, or nil.
func asInt(t ir.Type) *ir.IntType {
	it, _ := t.(*ir.IntType)
	return it
}

// asFloat returns t as a float type, or nil.
func asFloat(t ir.Type) *ir.FloatType {
	ft, _ := t.(*ir.FloatType)
	return ft
}

// isScalar reports whether t is a (non-nil) integer, float or index type.
func isScalar(t ir.Type) bool {
	switch x := t.(type) {
	case *ir.IntType:
		return x != nil
	case *ir.FloatType:
		return x != nil
	case *ir.IndexType:
		return x != nil
	}
	return false
}

// isIndex reports whether t is the index type.
func isIndex(t ir.Type) bool {
	x, ok := t.(*ir.IndexType)
	return ok && x != nil
}

// isToken reports whether t is !otir.token.
func isToken(t ir.Type) bool {
	x, ok := t.(*ir.TokenType)
	return ok && x != nil
}

// isBool reports whether t is i1.
func isBool(t ir.Type) bool { return t == ir.Type(ir.Bool()) }

// isIntOrIndex reports whether t is an integer or index type.
func isIntOrIndex(t ir.Type) bool { return asInt(t) != nil || isIndex(t) }

// elemOf is the element type of a tile, or t itself for anything else.
func elemOf(t ir.Type) ir.Type {
	if tt := asTile(t); tt != nil {
		return tt.Elem
	}
	return t
}

// intsStr prints [a, b, c].
func intsStr(vs []int64) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i, v := range vs {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.FormatInt(v, 10))
	}
	sb.WriteByte(']')
	return sb.String()
}

// sameShape reports whether two shapes are equal.
func sameShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// intValue returns an IntAttr's value, or nil if the attribute is malformed.
func intValue(a *ir.IntAttr) *big.Int {
	if a == nil {
		return nil
	}
	return a.Value
}

// int64Value returns an IntAttr's value when it fits in an int64.
func int64Value(a *ir.IntAttr) (int64, bool) {
	v := intValue(a)
	if v == nil || !v.IsInt64() {
		return 0, false
	}
	return v.Int64(), true
}
