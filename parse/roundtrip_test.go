package parse

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

const (
	p16  = "!otir.tile<16xi8, #private>"
	p16b = "!otir.tile<16xi9, #private>"
	m16  = "!otir.tile<16xi1, #private>"
	g16  = "!otir.tile<16xi8, #global>"
	w16  = "!otir.tile<16xi8, #workgroup>"
	g64  = "!otir.tile<64xi8, #global>"
	p48  = "!otir.tile<4x8xi8, #private>"
	p84  = "!otir.tile<8x4xi8, #private>"
	p44  = "!otir.tile<4x4xi20, #private>"
	g1   = "!otir.tile<1xi32, #global>"
	p1   = "!otir.tile<1xi32, #private>"
	pf   = "!otir.tile<16xf32, #private>"
)

// kernelText wraps body lines (indented relative to the kernel body) in a
// module holding one kernel, in the printer's canonical layout.
func kernelText(args string, body ...string) string {
	var sb strings.Builder
	sb.WriteString("module {\n  otir.kernel @k(" + args + ") {\n")
	for _, l := range body {
		sb.WriteString("    " + l + "\n")
	}
	sb.WriteString("    otir.return\n  }\n}\n")
	return sb.String()
}

func printed(t *testing.T, m *ir.Module, generic bool) string {
	t.Helper()
	var sb strings.Builder
	if err := ir.Print(&sb, m, ir.PrintOptions{Generic: generic}); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

func mustParse(t *testing.T, src string, opts Options) *ir.Module {
	t.Helper()
	m, err := Parse("test.otir", []byte(src), opts)
	if err != nil {
		t.Fatalf("parse failed: %v\n%s", err, src)
	}
	return m
}

// roundTripCases are modules in the printer's canonical pretty form, one or a
// few operations each, covering every registered operation.
var roundTripCases = []struct{ name, src string }{
	{"program_id", kernelText("", "%pid = otir.program_id axis(0)", "%nprog = otir.num_programs axis(1)")},
	{"constants", kernelText("",
		"%c16 = otir.constant 16 : index",
		"%c-3_i8 = otir.constant -3 : i8",
		"%c255_u8 = otir.constant 255 : u8",
		"%true = otir.constant true",
		"%false = otir.constant false",
		"%cst = otir.constant 1.5 : f32",
		"%cst_0 = otir.constant -2.0e-08 : f64",
		"%cst_1 = otir.constant 0x7FF0000000000000 : f64",
		"%cst_2 = otir.constant 0x7E00 : f16",
		"%cst_3 = otir.constant 123456789012345678901234567890 : i128",
	)},
	{"dense", kernelText("",
		"%cst = otir.constant dense<[[1, -2], [3, 4]]> : !otir.tile<2x2xi4, #private>",
		"%cst_0 = otir.constant dense<7> : !otir.tile<4xi8, #private>",
		"%cst_1 = otir.constant dense<[true, false]> : !otir.tile<2xi1, #private>",
		"%cst_2 = otir.constant dense<[1.5, -2.0]> : !otir.tile<2xf32, #private>",
		"%cst_3 = otir.constant dense<[5]> : !otir.tile<1xu8, #private>",
		"%cst_4 = otir.constant dense<0.25> : !otir.tile<2x2xbf16, #workgroup>",
		"%cst_5 = otir.constant dense<[[0x7FF0000000000000, 1.0]]> : !otir.tile<1x2xf64, #private>",
	)},
	{"memory", kernelText("%arg0: "+g16+", %arg1: "+g16+", %arg2: "+m16,
		"%alloc = otir.alloc() : "+w16,
		"%0 = otir.dma_copy_async %arg0, %alloc : ("+g16+", "+w16+") -> !otir.token",
		"%1 = otir.dma_copy_async %arg0, %alloc, %arg2 : ("+g16+", "+w16+", "+m16+") -> !otir.token",
		"otir.wait [%0, %1]",
		"otir.wait []",
		"otir.barrier",
		"%2 = otir.load %alloc : "+w16+" -> "+p16,
		"otir.store %2, %arg1 : "+p16+", "+g16,
	)},
	{"atomic", kernelText("%arg0: "+g1+", %arg1: "+p1,
		"%0 = otir.atomic_rmw %arg0, %arg1, kind(add), memory_order(relaxed) : "+g1+", "+p1+" -> "+p1,
		"%1 = otir.atomic_rmw %arg0, %0, kind(umax), memory_order(acq_rel) : "+g1+", "+p1+" -> "+p1,
	)},
	{"binary", kernelText("%arg0: "+p16+", %arg1: "+p16b+", %arg2: i8",
		"%0 = otir.add %arg0, %arg0 : "+p16,
		"%1 = otir.sub %arg0, %arg1 : ("+p16+", "+p16b+") -> "+p16b,
		"%2 = otir.mul %arg0, %arg2 : ("+p16+", i8) -> !otir.tile<16xi16, #private>",
		"%3 = otir.div_s %arg0, %arg0 : "+p16,
		"%4 = otir.div_u %arg0, %arg0 : "+p16,
		"%5 = otir.rem_s %arg0, %arg0 : "+p16,
		"%6 = otir.rem_u %arg0, %arg0 : "+p16,
		"%7 = otir.and %arg0, %arg0 : "+p16,
		"%8 = otir.or %arg0, %arg0 : "+p16,
		"%9 = otir.xor %arg0, %arg0 : "+p16,
		"%10 = otir.shl %arg0, %arg0 : "+p16,
		"%11 = otir.shr_s %arg0, %arg0 : "+p16,
		"%12 = otir.shr_u %arg0, %arg0 : "+p16,
		"%13 = otir.max %arg2, %arg2 : i8",
		"%14 = otir.min %arg2, %arg2 : i8",
	)},
	{"unary", kernelText("%arg0: "+p16+", %arg1: "+pf+", %arg2: f32",
		"%0 = otir.neg %arg0 : ("+p16+") -> "+p16b,
		"%1 = otir.not %arg0 : "+p16,
		"%2 = otir.abs %arg0 : "+p16,
		"%3 = otir.sqrt %arg1 : "+pf,
		"%4 = otir.exp %arg2 : f32",
		"%5 = otir.log %arg1 : "+pf,
	)},
	{"cmp_select_cast", kernelText("%arg0: "+p16+", %arg1: "+p16b+", %arg2: i8",
		"%0 = otir.cmp kind(slt) %arg0, %arg1 : ("+p16+", "+p16b+") -> "+m16,
		"%1 = otir.cmp kind(eq) %arg2, %arg2 : (i8, i8) -> i1",
		"%2 = otir.select %0, %arg0, %arg1 : ("+m16+", "+p16+", "+p16b+") -> "+p16b,
		"%3 = otir.cast %arg0 : "+p16+" -> "+p16b,
		"%4 = otir.reshape %arg0 : "+p16+" -> !otir.tile<4x4xi8, #private>",
	)},
	{"matrix", kernelText("%arg0: "+p48+", %arg1: "+p84+", %arg2: "+p44,
		"%0 = otir.matmul %arg0, %arg1, %arg2 : ("+p48+", "+p84+", "+p44+") -> "+p44,
		"%1 = otir.transpose %arg0, permutation(1, 0) : "+p48+" -> "+p84,
	)},
	{"slices", kernelText("%arg0: "+g64+", %arg1: index, %arg2: "+p48,
		"%0 = otir.extract_slice %arg0[%arg1] [16] [1] : "+g64+" to "+g16,
		"%1 = otir.extract_slice %arg2[%arg1, 0] [2, 4] [1, 1] : "+p48+" to !otir.tile<2x4xi8, #private>",
		"%2 = otir.extract_slice %arg2[0, 4] [4, 4] [1, 1] : "+p48+" to !otir.tile<4x4xi8, #private>",
		"%3 = otir.insert_slice %1 into %arg2[%arg1, 0] [2, 4] [1, 1] : !otir.tile<2x4xi8, #private> into "+p48,
	)},
	{"for", kernelText("%arg0: "+p16,
		"%c0 = otir.constant 0 : index",
		"%c16 = otir.constant 16 : index",
		"%c1 = otir.constant 1 : index",
		"%0 = scf.for %arg1 = %c0 to %c16 step %c1 iter_args(%arg2 = %arg0) -> ("+p16+") {",
		"  %1 = otir.add %arg2, %arg2 : "+p16,
		"  scf.yield %1 : "+p16,
		"}",
		"scf.for %arg3 = %c0 to %c16 step %c1 {",
		"  otir.barrier",
		"}",
		"%2:2 = scf.for %arg4 = %c0 to %c16 step %c1 iter_args(%arg5 = %arg0, %arg6 = %c0) -> ("+p16+", index) {",
		"  scf.yield %arg5, %arg4 : "+p16+", index",
		"}",
		"%3 = otir.add %2#0, %2#0 : "+p16,
	)},
	{"if", kernelText("%arg0: i1, %arg1: i8, %arg2: i8",
		"%0 = scf.if %arg0 -> (i8) {",
		"  scf.yield %arg1 : i8",
		"} else {",
		"  scf.yield %arg2 : i8",
		"}",
		"scf.if %arg0 {",
		"  otir.barrier",
		"}",
		"scf.if %arg0 {",
		"} else {",
		"  otir.barrier",
		"}",
	)},
	{"generic_inside_pretty", kernelText("%arg0: i8",
		`%0 = "otir.add"(%arg0, %arg0) {note = "x"} : (i8, i8) -> i8`,
		`"scf.yield"() {tag} : () -> ()`,
	)},
	{"module_attrs", "module attributes {otir.typing_style = \"cpp\", x = [1, 2, \"s\", unit, array<i64: 3>, i8, (i8) -> (i8, i1)]} {\n" +
		"  otir.kernel @k(%arg0: !otir.tile<64xi8, #global>) attributes {grid = [4, 2]} {\n" +
		"    otir.return\n  }\n" +
		"  otir.kernel @\"with space\"() {\n    otir.return\n  }\n}\n"},
}

// roundTripMLIRCases exercise MLIR's spellings in the generic form: uiN,
// dense constants typed tensor<...>, the label of an empty block.
var roundTripMLIRCases = []struct{ name, src string }{
	{"unsigned", kernelText("%arg0: !otir.tile<4xu8, #global>, %arg1: u16",
		"%cst = otir.constant dense<[1, 2, 3, 4]> : !otir.tile<4xu8, #private>",
		"%cst_0 = otir.constant dense<7> : !otir.tile<2x2xu32, #private>",
		"%cst_1 = otir.constant dense<[true, false]> : !otir.tile<2xi1, #private>",
		"%cst_2 = otir.constant dense<1.5> : !otir.tile<2xf32, #private>",
		"%c3_u8 = otir.constant 3 : u8")},
	{"empty_module", "module {\n}\n"},
}

// TestRoundTrip checks, for every case: pretty -> parse -> pretty is the
// identity; generic -> parse -> generic is the identity; the generic text
// parses to the same pretty text; and the fast path agrees with the grammar.
func TestRoundTrip(t *testing.T) {
	for _, c := range append(roundTripCases[:len(roundTripCases):len(roundTripCases)], roundTripMLIRCases...) {
		t.Run(c.name, func(t *testing.T) {
			m := mustParse(t, c.src, Options{})
			if got := printed(t, m, false); got != c.src {
				t.Fatalf("pretty round trip differs:\n--- got\n%s--- want\n%s", got, c.src)
			}
			gen := printed(t, m, true)
			mg := mustParse(t, gen, Options{})
			if got := printed(t, mg, true); got != gen {
				t.Fatalf("generic round trip differs:\n--- got\n%s--- want\n%s", got, gen)
			}
			if got := printed(t, mg, false); got != c.src {
				t.Fatalf("generic text parses to different IR:\n--- got\n%s--- want\n%s", got, c.src)
			}
			slow := mustParse(t, c.src, Options{noFastPath: true})
			if got := printed(t, slow, true); got != gen {
				t.Fatalf("grammar-only parse differs from the fast path:\n--- got\n%s--- want\n%s", got, gen)
			}
			if got := printed(t, mustParse(t, gen, Options{noFastPath: true}), true); got != gen {
				t.Fatalf("grammar-only parse of the generic form differs from the fast path:\n--- got\n%s--- want\n%s", got, gen)
			}
		})
	}
}

// TestGenericMLIRSpelling checks the generic form's MLIR spellings, which
// mlir-opt --allow-unregistered-dialect reads, and that the parser reads
// them, MLIR's properties <{...}> and uiN in the pretty form too.
func TestGenericMLIRSpelling(t *testing.T) {
	m := mustParse(t, roundTripMLIRCases[0].src, Options{})
	gen := printed(t, m, true)
	for _, want := range []string{
		"^bb0(%arg0: !otir.tile<4xui8, #global>, %arg1: ui16):",
		`{value = dense<[1, 2, 3, 4]> : tensor<4xui8>} : () -> !otir.tile<4xui8, #private>`,
		`{value = dense<7> : tensor<2x2xui32>} : () -> !otir.tile<2x2xui32, #private>`,
		`{value = dense<[true, false]> : tensor<2xi1>}`,
		`{value = 3 : ui8} : () -> ui8`,
		`{function_type = (!otir.tile<4xui8, #global>, ui16) -> (), sym_name = "k"}`,
	} {
		if !strings.Contains(gen, want) {
			t.Errorf("generic form lacks %q:\n%s", want, gen)
		}
	}
	if got := printed(t, mustParse(t, "module {\n}\n", Options{}), true); got != "\"builtin.module\"() ({\n^bb0:\n}) : () -> ()\n" {
		t.Errorf("empty module: got %q", got)
	}
	// uiN in the pretty form, properties merged into the attributes.
	src := "otir.kernel @k(%a: !otir.tile<4xui8, #global>) {\n  %c = \"otir.constant\"() <{value = 3 : ui8}> : () -> ui8\n  otir.return\n}\n"
	want := kernelText("%arg0: !otir.tile<4xu8, #global>", "%c3_u8 = otir.constant 3 : u8")
	for _, slow := range []bool{false, true} {
		if got := printed(t, mustParse(t, src, Options{noFastPath: slow}), false); got != want {
			t.Errorf("noFastPath=%v: got\n%swant\n%s", slow, got, want)
		}
	}
	// A property given again as an attribute is a duplicate.
	if _, err := ParseString("e.otir", "\"builtin.module\"() <{x = 1}> ({\n}) {x = 2} : () -> ()", Options{}); err == nil {
		t.Errorf("duplicate property and attribute: no error")
	}
	// A tensor-typed dense literal must still match the result's shape.
	if _, err := ParseString("e.otir", "otir.kernel @k() {\n  %c = \"otir.constant\"() {value = dense<[1, 2]> : tensor<3xi8>} : () -> !otir.tile<3xi8, #private>\n  otir.return\n}\n", Options{}); err == nil {
		t.Errorf("dense of 2 elements typed tensor<3xi8>: no error")
	}
}
