package parse

import (
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// firstOp parses a kernel body and returns its first operation.
func firstOp(t *testing.T, style, args, line string) *ir.Operation {
	t.Helper()
	src := "module attributes {otir.typing_style = \"" + style + "\"} {\n  otir.kernel @k(" + args + ") {\n    " + line + "\n    otir.return\n  }\n}\n"
	m := mustParse(t, src, Options{})
	return otir.Kernels(m)[0].Body(0).Ops[0]
}

// TestAnnotationForms checks the three annotation forms of element-wise
// operations: `: T`, `: T1, T2` (result inferred by the module's typing style)
// and `: (T1, T2) -> T3`.
func TestAnnotationForms(t *testing.T) {
	tile := "!otir.tile<4x8xi8, #private>"
	cases := []struct {
		name, style, args, line string
		operands                []string
		result                  string // "" means typing.InferResult decides
	}{
		{"binary one type", "hls", "%a: i8", "%0 = otir.add %a, %a : i8", []string{"i8", "i8"}, "i8"},
		{"binary two types hls", "hls", "%a: i8, %b: u8", "%0 = otir.add %a, %b : i8, u8", []string{"i8", "u8"}, ""},
		{"binary two types cpp", "cpp", "%a: i8, %b: u8", "%0 = otir.add %a, %b : i8, u8", []string{"i8", "u8"}, ""},
		{"binary two types tile", "hls", "%a: " + tile + ", %b: i8", "%0 = otir.mul %a, %b : " + tile + ", i8", []string{tile, "i8"}, ""},
		{"binary explicit", "hls", "%a: i8", "%0 = otir.sub %a, %a : (i8, i8) -> i32", []string{"i8", "i8"}, "i32"},
		{"unary one type", "hls", "%a: i8", "%0 = otir.neg %a : i8", []string{"i8"}, "i8"},
		{"unary explicit", "hls", "%a: i8", "%0 = otir.neg %a : (i8) -> i9", []string{"i8"}, "i9"},
		{"cmp one type", "hls", "%a: i8", "%0 = otir.cmp kind(slt) %a, %a : i8", []string{"i8", "i8"}, "i1"},
		{"cmp two scalars", "hls", "%a: i8, %b: i16", "%0 = otir.cmp kind(ne) %a, %b : i8, i16", []string{"i8", "i16"}, "i1"},
		{"cmp tile and scalar", "hls", "%a: " + tile + ", %b: i8", "%0 = otir.cmp kind(eq) %b, %a : i8, " + tile, []string{"i8", tile}, "!otir.tile<4x8xi1, #private>"},
		{"cmp broadcast", "hls", "%a: !otir.tile<4x1xi8, #private>, %b: !otir.tile<8xi8, #workgroup>",
			"%0 = otir.cmp kind(ult) %a, %b : !otir.tile<4x1xi8, #private>, !otir.tile<8xi8, #workgroup>",
			[]string{"!otir.tile<4x1xi8, #private>", "!otir.tile<8xi8, #workgroup>"}, "!otir.tile<4x8xi1, #private>"},
		{"cmp one tile type", "hls", "%a: " + tile, "%0 = otir.cmp kind(sge) %a, %a : " + tile, []string{tile, tile}, "!otir.tile<4x8xi1, #private>"},
		{"cmp explicit", "hls", "%a: i8", "%0 = otir.cmp kind(eq) %a, %a : (i8, i8) -> i1", []string{"i8", "i8"}, "i1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ins []ir.Type
			for _, s := range c.operands {
				ins = append(ins, ir.MustParseType(s))
			}
			want := ir.Type(nil)
			if c.result != "" {
				want = ir.MustParseType(c.result)
			} else {
				op := firstOp(t, c.style, c.args, c.line)
				w, err := typing.InferResult(c.style, op.Name, ins)
				if err != nil {
					t.Fatalf("promote cannot infer the test's result: %v", err)
				}
				want = w
			}
			op := firstOp(t, c.style, c.args, c.line)
			for i, v := range op.Operands {
				if v.Type != ins[i] {
					t.Errorf("operand %d has type %s, want %s", i, v.Type, ins[i])
				}
			}
			if got := op.Results[0].Type; got != want {
				t.Errorf("result type %s, want %s", got, want)
			}
		})
	}
}

// TestTypingStyleReachesInference checks that the module's typing style is
// the one inference uses, also when the module is written generically (its
// attributes come after its body).
func TestTypingStyleReachesInference(t *testing.T) {
	body := "  \"otir.kernel\"() ({\n  ^bb0(%a: i8):\n    %0 = otir.add %a, %a : i8, i8\n    \"otir.return\"() : () -> ()\n  }) {function_type = (i8) -> (), sym_name = \"k\"} : () -> ()\n"
	for _, style := range []string{"hls", "cpp"} {
		src := "\"builtin.module\"() ({\n" + body + "}) {otir.typing_style = \"" + style + "\"} : () -> ()\n"
		m := mustParse(t, src, Options{})
		got := otir.Kernels(m)[0].Body(0).Ops[0].Results[0].Type
		want, err := typing.InferResult(style, otir.OpAdd, []ir.Type{ir.Int(8, true), ir.Int(8, true)})
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("style %s: result %s, want %s", style, got, want)
		}
	}
	// Bare kernels are in an implicit module: hls.
	m := mustParse(t, "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %a : i8, i8\n  otir.return\n}\n", Options{})
	want, _ := typing.InferResult("hls", otir.OpAdd, []ir.Type{ir.Int(8, true), ir.Int(8, true)})
	if got := otir.Kernels(m)[0].Body(0).Ops[0].Results[0].Type; got != want {
		t.Errorf("implicit module: result %s, want %s", got, want)
	}
}
