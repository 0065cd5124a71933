package parse

import (
	"errors"
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
)

// errorCases are inputs with one error each, the exact diagnostic
// (file:line:col: error: message) and its notes. Messages follow mlir-opt's
// wording where mlir-opt has one.
var errorCases = []struct {
	name, src, want string
	notes           []string
}{
	{"missing colon", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %a i8\n  otir.return\n}", "e.otir:2:24: error: expected ':'", nil},
	{"undeclared", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %b : i8\n  otir.return\n}", "e.otir:2:21: error: use of undeclared SSA value name", nil},
	{"redefinition", "otir.kernel @k(%a: i8) {\n  %a = otir.add %a, %a : i8\n  otir.return\n}", "e.otir:2:3: error: redefinition of SSA value '%a'", []string{"e.otir:1:16: note: previously defined here"}},
	{"use type mismatch", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %a : i9\n  otir.return\n}", "e.otir:2:17: error: use of value '%a' expects different type than prior uses: 'i9' vs 'i8'", []string{"e.otir:1:16: note: prior use here"}},
	{"unregistered generic", "otir.kernel @k(%a: i8) {\n  \"foo.bar\"() : () -> ()\n  otir.return\n}", "e.otir:2:3: error: unregistered operation 'foo.bar'", nil},
	{"unterminated location", "otir.kernel @k() {\n  otir.return loc(\"x\":1\n}", "e.otir:2:15: error: expected ')' to end the location", nil},
	{"unknown custom op", "otir.kernel @k(%a: i8) {\n  foo.bar %a\n  otir.return\n}", "e.otir:2:3: error: custom op 'foo.bar' is unknown", nil},
	{"unknown otir op", "otir.kernel @k(%a: i8) {\n  otir.foo %a\n  otir.return\n}", "e.otir:2:3: error: custom op 'otir.foo' is unknown", nil},
	{"dense out of range", "otir.kernel @k() {\n  %0 = otir.constant dense<[1, 300]> : !otir.tile<2xi8, #private>\n  otir.return\n}", "e.otir:2:32: error: integer constant out of range for type", nil},
	{"dense count", "otir.kernel @k() {\n  %0 = otir.constant dense<[1, 3, 4]> : !otir.tile<2xi8, #private>\n  otir.return\n}", "e.otir:2:22: error: inferred shape of elements literal ([3]) does not match type ([2])", nil},
	{"dense ranks", "otir.kernel @k() {\n  %0 = otir.constant dense<[[1], 3]> : !otir.tile<2xi8, #private>\n  otir.return\n}", "e.otir:2:34: error: tensor literal is invalid; ranks are not consistent between elements", nil},
	{"dense float in int", "otir.kernel @k() {\n  %0 = otir.constant dense<[1.5, 3]> : !otir.tile<2xi8, #private>\n  otir.return\n}", "e.otir:2:29: error: expected integer elements, but parsed floating-point", nil},
	{"scalar out of range", "otir.kernel @k() {\n  %0 = otir.constant 300 : i8\n  otir.return\n}", "e.otir:2:22: error: integer constant out of range for attribute", nil},
	{"too many result names", "otir.kernel @k(%a: i8) {\n  %0, %1 = otir.add %a, %a : i8\n  otir.return\n}", "e.otir:2:3: error: operation defines 1 results but was provided 2 to bind", nil},
	{"forward ref type", "otir.kernel @k(%a: i8) {\n  \"otir.store\"(%b, %b) : (i9, i9) -> ()\n  %b = otir.add %a, %a : i8\n  otir.return\n}", "e.otir:3:3: error: definition of SSA value '%b#0' has type 'i8'", []string{"e.otir:2:16: note: previously used here with type 'i9'"}},
	{"unknown type", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %a : foo\n  otir.return\n}", "e.otir:2:26: error: unknown type 'foo'", nil},
	{"eof in region", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %a : i8", "e.otir:2:28: error: expected '}'", nil},
	{"not an op", "otir.kernel @k(%a: i8) {\n  %0 = 5\n}", "e.otir:2:8: error: expected operation name in quotes", nil},
	{"generic operand types", "otir.kernel @k(%a: i8) {\n  %0 = \"otir.add\"(%a, %a) : (i8) -> i8\n}", "e.otir:2:29: error: expected 2 operand types but had 1", nil},
	{"bad character", "otir.kernel @k(%a: i8) {\n  ;\n}", "e.otir:2:3: error: unexpected character", nil},
	{"newline in string", "otir.kernel @k(%a: i8) attributes {x = \"abc\n\"} {\n}", "e.otir:1:44: error: expected '\"' in string literal", nil},
	{"bad memory space", "otir.kernel @k(%a: !otir.tile<4xi8, #shared>) {\n  otir.return\n}", "e.otir:1:20: error: unknown memory space '#shared' (expected #global, #workgroup or #private)", nil},
	{"tile without space", "otir.kernel @k(%a: !otir.tile<4xi8>) {\n  otir.return\n}", "e.otir:1:20: error: tile type needs a memory space: '!otir.tile<4xi8>'", nil},
	{"zero width int", "otir.kernel @k(%a: i0) {\n  otir.return\n}", "e.otir:1:20: error: integer width must be between 1 and 16777215 in 'i0'", nil},
	{"too wide int", "otir.kernel @k(%a: u16777215, %b: i16777216) {\n  otir.return\n}", "e.otir:1:35: error: integer width must be between 1 and 16777215 in 'i16777216'", nil},
	{"bad cmp kind", "otir.kernel @k(%a: i8) {\n  %0 = otir.cmp kind(foo) %a, %a : i8\n  otir.return\n}", "e.otir:2:22: error: expected comparison kind to be one of: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge, oeq, one, olt, ole, ogt, oge", nil},
	{"cmp broadcast", "otir.kernel @k(%a: !otir.tile<4x2xi8, #private>, %b: !otir.tile<3xi8, #private>) {\n  %0 = otir.cmp kind(eq) %a, %b : !otir.tile<4x2xi8, #private>, !otir.tile<3xi8, #private>\n  otir.return\n}", "e.otir:2:3: error: operands of 'otir.cmp' are not broadcast-compatible: '!otir.tile<4x2xi8, #private>' and '!otir.tile<3xi8, #private>'", nil},
	{"region scoping", "otir.kernel @k(%c: i1) {\n  scf.if %c {\n    %x = otir.constant 1 : i8\n  }\n  %y = otir.add %x, %x : i8\n  otir.return\n}", "e.otir:5:17: error: use of undeclared SSA value name", nil},
	{"kernel isolation", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %a : i8\n  otir.return\n}\notir.kernel @j() {\n  %1 = otir.add %0, %0 : i8\n  otir.return\n}", "e.otir:6:17: error: use of undeclared SSA value name", nil},
	{"stray brace", "otir.kernel @k(%a: i8) {\n  otir.return\n  }\n}", "e.otir:4:1: error: unexpected token '}'", nil},
	{"two result types", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %a : (i8, i8) -> (i8, i8)\n  otir.return\n}", "e.otir:2:26: error: expected 1 result type, got 2", nil},
	{"store one type", "otir.kernel @k(%a: i8) {\n  otir.store %a, %a : i8\n  otir.return\n}", "e.otir:3:3: error: expected ','", nil},
	{"iter_args count", "otir.kernel @k(%a: i8) {\n  %0 = scf.for %i = %a to %a step %a iter_args(%x = %a) -> (i8, i8) {\n  }\n  otir.return\n}", "e.otir:2:8: error: mismatch in number of loop-carried values and defined values", nil},
	{"zero result group", "otir.kernel @k(%a: i8) {\n  %0:0 = otir.add %a, %a : i8\n  otir.return\n}", "e.otir:2:3: error: expected named operation to have at least 1 result", nil},
	{"dense on scalar", "otir.kernel @k(%a: i8) {\n  %0 = otir.constant dense<1> : i8\n  otir.return\n}", "e.otir:2:22: error: dense literal type must be a tile type, not 'i8'", nil},
	{"string constant", "otir.kernel @k(%a: i8) {\n  %0 = otir.constant \"s\"\n  otir.return\n}", "e.otir:2:22: error: otir.constant expects an integer, float, boolean or dense value", nil},
	{"duplicate attr", "otir.kernel @k(%a: i8) attributes {a = 1, a = 2} {\n  otir.return\n}", "e.otir:1:43: error: duplicate key 'a' in dictionary attribute", nil},
	{"float for int", "otir.kernel @k(%a: i8) {\n  %0 = otir.constant 1.5 : i8\n  otir.return\n}", "e.otir:2:22: error: floating point value not valid for specified type", nil},
	{"i64 overflow", "otir.kernel @k(%a: i8) {\n  %0 = otir.constant 99999999999999999999\n  otir.return\n}", "e.otir:2:22: error: integer constant out of range for attribute", nil},
	{"bad atomic kind", "otir.kernel @k(%a: i8) {\n  %0 = otir.atomic_rmw %a, %a, kind(foo), memory_order(relaxed) : i8, i8 -> i8\n  otir.return\n}", "e.otir:2:37: error: expected atomic kind to be one of: add, and, or, xor, max, min, umax, umin, xchg", nil},
	{"generic undeclared", "\"builtin.module\"() ({\n  \"otir.kernel\"() ({\n  ^bb0(%a: i8):\n    %0 = \"otir.add\"(%a, %z) : (i8, i8) -> i8\n    \"otir.return\"() : () -> ()\n  }) {function_type = (i8) -> (), sym_name = \"k\"} : () -> ()\n}) : () -> ()", "e.otir:4:25: error: use of undeclared SSA value name", nil},
	{"redefinition result", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %a : i8\n  %0 = otir.add %a, %a : i8\n  otir.return\n}", "e.otir:3:3: error: redefinition of SSA value '%0'", []string{"e.otir:2:3: note: previously defined here"}},
	{"token type", "otir.kernel @k(%a: i8) {\n  otir.wait [%a]\n  otir.return\n}", "e.otir:2:14: error: use of value '%a' expects different type than prior uses: '!otir.token' vs 'i8'", []string{"e.otir:1:16: note: prior use here"}},
	{"two types no comma", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %a : i8 i8\n  otir.return\n}", "e.otir:2:29: error: custom op 'i8' is unknown", nil},
	{"missing comma", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a %a : i8\n  otir.return\n}", "e.otir:2:20: error: expected ','", nil},
	{"missing close brace", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %a : i8\n  otir.return\n", "e.otir:4:1: error: expected '}'", nil},
	{"symbol missing @", "otir.kernel k(%a: i8) {\n  otir.return\n}", "e.otir:1:13: error: expected valid '@'-identifier for symbol name", nil},
	{"extra brace after module", "module {\n  %0 = otir.constant 1 : i8\n}\n}", "e.otir:4:1: error: unexpected token '}'", nil},
	{"slice offset type", "otir.kernel @k(%a: i8) {\n  %0 = otir.extract_slice %a[%a] [1] [1] : i8 to i8\n  otir.return\n}", "e.otir:2:30: error: use of value '%a' expects different type than prior uses: 'index' vs 'i8'", []string{"e.otir:1:16: note: prior use here"}},
	{"tile vs scalar use", "otir.kernel @k(%a: i8) {\n  %0 = otir.constant dense<[1, 2]> : !otir.tile<2xi8, #private>\n  %1 = otir.add %0, %a : i8\n  otir.return\n}", "e.otir:3:17: error: use of value '%0' expects different type than prior uses: 'i8' vs '!otir.tile<2xi8, #private>'", []string{"e.otir:2:3: note: prior use here"}},
	{"invalid ssa name", "otir.kernel @k() {\n  % = otir.barrier\n}", "e.otir:2:3: error: invalid SSA name", nil},
	{"unknown escape", "otir.kernel @k() attributes {s = \"\\q\"} {\n  otir.return\n}", "e.otir:1:34: error: unknown escape in string literal", nil},
	{"binary inference fails", "otir.kernel @k(%a: index, %b: f32) {\n  %0 = otir.add %a, %b : index, f32\n  otir.return\n}", "e.otir:2:3: error: 'otir.add' op No hls type promotion rule for operator 'add' with operand types index, float32", nil},
	{"unary two types", "otir.kernel @k(%a: i8) {\n  %0 = otir.neg %a : i8, i8\n  otir.return\n}", "e.otir:2:22: error: 1 operands present, but expected 2", nil},
	{"yield type count", "otir.kernel @k(%a: i8) {\n  scf.yield %a, %a : i8\n}", "e.otir:2:3: error: 2 operands present, but expected 1", nil},
	{"dma mask without type", "otir.kernel @k(%a: i8) {\n  %t = otir.dma_copy_async %a, %a, %a : (i8, i8) -> !otir.token\n  otir.return\n}", "e.otir:2:8: error: 3 operands present, but expected 2", nil},
	{"missing arrow", "otir.kernel @k(%a: i8) {\n  %0 = otir.cast %a : i8 i16\n  otir.return\n}", "e.otir:2:26: error: expected '->'", nil},
	{"missing to", "otir.kernel @k(%a: index) {\n  scf.for %i = %a %a step %a {\n  }\n  otir.return\n}", "e.otir:2:19: error: expected 'to'", nil},
	{"pretty region header", "otir.kernel @k(%a: i1) {\n  scf.if %a {\n  ^bb0:\n  }\n  otir.return\n}", "e.otir:3:3: error: invalid block name in region with named arguments", nil},
	{"deep nesting", "otir.kernel @k() attributes {a = " + strings.Repeat("[", 5000) + "} {\n}", "e.otir:1:4129: error: brackets nested more than 4096 levels deep", nil},
	{"array element type", "otir.kernel @k() attributes {a = array<i32: 1>} {\n  otir.return\n}", "e.otir:1:34: error: unsupported array element type 'i32' (expected i64)", nil},
	{"result number in name", "otir.kernel @k(%a: i8) {\n  %0#1 = otir.add %a, %a : i8\n  otir.return\n}", "e.otir:2:3: error: expected '=' after SSA name", nil},
	{"bool dense int", "otir.kernel @k() {\n  %0 = otir.constant dense<[true, 1]> : !otir.tile<2xi8, #private>\n  otir.return\n}", "e.otir:2:29: error: expected i1 type for 'true' or 'false' values", nil},
	{"unknown op before syntax error", "otir.kernel @k(%a: i8) {\n  otir.foo %a\n  %0 = otir.add %a %a : i8\n}", "e.otir:2:3: error: custom op 'otir.foo' is unknown", nil},
	{"unregistered op before syntax error", "otir.kernel @k(%a: i8) {\n  %0 = \"otir.nope\"(%a) : (i8) -> i8\n  %1 = otir.add %a %a : i8\n}", "e.otir:2:8: error: unregistered operation 'otir.nope'", nil},
	{"unknown type in signature", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %a : (i8, foo) -> i8\n  otir.return\n}", "e.otir:2:31: error: unknown type 'foo'", nil},
	{"unknown result type in signature", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %a : (i8, i8) -> (i9, !otir.tile<4xi8>)\n  otir.return\n}", "e.otir:2:43: error: tile type needs a memory space: '!otir.tile<4xi8>'", nil},
	{"empty type in signature", "otir.kernel @k(%a: i8) {\n  %0 = otir.add %a, %a : (i8, ) -> i8\n  otir.return\n}", "e.otir:2:31: error: expected type", nil},
	{"unsigned negative", "otir.kernel @k() {\n  %0 = otir.constant -1 : u8\n  otir.return\n}", "e.otir:2:22: error: integer constant out of range for attribute", nil},
}

// TestErrors checks every diagnostic with its exact location and notes.
func TestErrors(t *testing.T) {
	for _, c := range errorCases {
		t.Run(c.name, func(t *testing.T) {
			for _, opts := range []Options{{}, {noFastPath: true}, {Workers: 3, MinChunkTokens: 2}, {Workers: 2, MinChunkBytes: 1}} {
				_, err := Parse("e.otir", []byte(c.src), opts)
				if err == nil {
					t.Fatalf("no error for\n%s", c.src)
				}
				var d *diag.Diagnostic
				if !errors.As(err, &d) {
					t.Fatalf("error is a %T: %v", err, err)
				}
				if d.Error() != c.want {
					t.Fatalf("got  %s\nwant %s", d.Error(), c.want)
				}
				if len(d.Notes) != len(c.notes) {
					t.Fatalf("got notes %v, want %v", d.Notes, c.notes)
				}
				for i, n := range d.Notes {
					if n.Error() != c.notes[i] {
						t.Fatalf("note %d: got %s, want %s", i, n.Error(), c.notes[i])
					}
				}
			}
		})
	}
}

// TestLineOffset checks that locations count lines from opts.LineOffset.
func TestLineOffset(t *testing.T) {
	_, err := Parse("e.otir", []byte("otir.kernel @k() {\n  %0 = otir.add %x, %x : i8\n}"), Options{LineOffset: 41})
	if err == nil || err.Error() != "e.otir:43:17: error: use of undeclared SSA value name" {
		t.Fatalf("got %v", err)
	}
	m, err := Parse("e.otir", []byte("\n\notir.kernel @k(%a: i8) {\n  otir.return\n}"), Options{LineOffset: 10})
	if err != nil {
		t.Fatal(err)
	}
	k := otir.Kernels(m)[0]
	if got := k.Loc; got != (ir.Location{File: "e.otir", Line: 13, Col: 1}) {
		t.Fatalf("kernel at %v", got)
	}
	if got := k.Body(0).Args[0].Loc; got != (ir.Location{File: "e.otir", Line: 13, Col: 16}) {
		t.Fatalf("argument at %v", got)
	}
}
