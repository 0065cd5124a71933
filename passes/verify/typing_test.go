package verify

import (
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
)

// Element-wise operations need a typing rule in the module's style for their
// operand element types, whatever their written result type.
func TestTypingRules(t *testing.T) {
	cpp := func(e *env) { e.m.Op.SetAttr("otir.typing_style", &ir.StringAttr{Value: "cpp"}) }
	runRules(t, []ruleCase{
		{name: "shl index index", build: func(e *env) {
			e.bad(otir.OpShl, e.vals("index", "index"), nil, "index")
		}, want: []string{"2: 'otir.shl' op No hls type promotion rule for operator 'lshift' with operand types index, index"}},
		{name: "shr_u index by i8", build: func(e *env) {
			e.bad(otir.OpShrU, e.vals("index", "i8"), nil, "index")
		}, want: []string{"2: 'otir.shr_u' op No hls type promotion rule for operator 'rshift' with operand types index, int8"}},
		{name: "i8 shifted by index", build: func(e *env) {
			e.bad(otir.OpShl, e.vals("i8", "index"), nil, "i32")
		}},
		{name: "bitwise tile with index", build: func(e *env) {
			e.bad(otir.OpOr, e.vals(p16i8, "index"), nil, p16i8)
		}, want: []string{"2: 'otir.or' op No hls type promotion rule for operator 'bitwise_or' with operand types int8, index"}},
		{name: "add index f16", build: func(e *env) {
			e.bad(otir.OpAdd, e.vals("index", "f16"), nil, "f16")
		}, want: []string{"2: 'otir.add' op No hls type promotion rule for operator 'add' with operand types index, float16"}},
		{name: "cmp predicate key", build: func(e *env) {
			e.bad(otir.OpCmp, e.vals("f32", "index"), kind("ne"), "i1")
		}, want: []string{"2: 'otir.cmp' op No hls type promotion rule for operator 'ne' with operand types float32, index"}},
		{name: "neg index hls", build: func(e *env) {
			e.bad(otir.OpNeg, e.vals("index"), nil, "index")
		}, want: []string{"2: 'otir.neg' op No hls type promotion rule for operator 'neg' with operand type index"}},
		{name: "neg index cpp", build: func(e *env) {
			cpp(e)
			e.bad(otir.OpNeg, e.vals("index"), nil, "index")
		}},
		{name: "abs index cpp", build: func(e *env) {
			cpp(e)
			e.bad(otir.OpAbs, e.vals("index"), nil, "index")
		}, want: []string{"2: 'otir.abs' op No cpp type promotion rule for operator 'abs' with operand type index"}},
		{name: "unknown style checks as hls after its own error", build: func(e *env) {
			e.m.Op.SetAttr("otir.typing_style", &ir.StringAttr{Value: "c"})
			e.bad(otir.OpExp, e.vals("index"), nil, "f64")
		}, want: []string{
			`1: 'builtin.module' op attribute 'otir.typing_style' must be "hls" or "cpp", but got "c"`,
			"2: 'otir.exp' op No hls type promotion rule for operator 'exp' with operand type index",
		}},
		{name: "select and cast have no rule to check", build: func(e *env) {
			x := e.vals("i1", "index", "f32")
			e.bad(otir.OpSelect, x, nil, "f32")
			e.bad(otir.OpCast, x[1:2], nil, "f32")
		}},
		{name: "kinds first", build: func(e *env) {
			e.bad(otir.OpShl, e.vals("f32", "index"), nil, "f32")
		}, want: []string{"2: 'otir.shl' op operand #0 must have integer or index elements, but got element type 'f32'"}},
	})
}

// VerifyOp finds the style of the module that holds the op.
func TestTypingRulesVerifyOp(t *testing.T) {
	for _, style := range []string{"hls", "cpp"} {
		e := newEnv(nil)
		e.m.Op.SetAttr("otir.typing_style", &ir.StringAttr{Value: style})
		op := e.bad(otir.OpSqrt, e.vals("index"), nil, "f64")
		e.finish()
		var want []string
		if style == "hls" {
			want = []string{"2: 'otir.sqrt' op No hls type promotion rule for operator 'sqrt' with operand type index"}
		}
		checkDiags(t, VerifyOp(op), want)
	}
}
