package ir_test

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
)

// buildVadd builds a small kernel through the builder API.
func buildVadd() *ir.Module {
	m := ir.NewModule(ir.Location{})
	m.Op.SetAttr("otir.typing_style", &ir.StringAttr{"hls"})
	b := ir.NewBuilder(m.Body())
	g := ir.Tile([]int64{64}, ir.Int(8, true), ir.Global)
	_, body := otir.Kernel(b, "vadd", []ir.Type{g, g}, []int64{4})
	kb := ir.NewBuilder(body)
	pid := otir.ProgramID(kb, 0)
	c16 := otir.ConstInt(kb, 16, ir.Index())
	off := kb.Binary(otir.OpMul, pid, c16, ir.Index())
	gs := ir.Tile([]int64{16}, ir.Int(8, true), ir.Global)
	s := kb.Create(otir.OpExtractSlice, []*ir.Value{body.Args[0], off}, []ir.Type{gs},
		otir.SliceAttrs([]int64{otir.DynamicOffset}, []int64{16}, []int64{1})).Results[0]
	p := ir.Tile([]int64{16}, ir.Int(8, true), ir.Private)
	v := kb.Unary(otir.OpLoad, s, p)
	w := kb.Binary(otir.OpAdd, v, v, ir.WithElement(p, ir.Int(9, true)))
	c0 := otir.ConstInt(kb, 0, ir.Index())
	_, fb := scf.For(kb, c0, c16, c16, w)
	fbb := ir.NewBuilder(fb)
	scf.Yield(fbb, fbb.Binary(otir.OpSub, fb.Args[1], fb.Args[1], fb.Args[1].Type))
	otir.ConstInt(kb, 16, ir.Index())
	otir.ConstInt(kb, -3, ir.Int(8, true))
	cond := otir.Cmp(kb, "slt", pid, c16, ir.Bool())
	_, then, _ := scf.If(kb, cond, nil, false)
	ir.NewBuilder(then).Create(otir.OpBarrier, nil, nil, nil)
	scf.Yield(ir.NewBuilder(then))
	otir.Return(kb)
	return m
}

func TestPrintPretty(t *testing.T) {
	want := `module attributes {otir.typing_style = "hls"} {
  otir.kernel @vadd(%arg0: !otir.tile<64xi8, #global>, %arg1: !otir.tile<64xi8, #global>) attributes {grid = [4]} {
    %pid = otir.program_id axis(0)
    %c16 = otir.constant 16 : index
    %0 = otir.mul %pid, %c16 : index
    %1 = otir.extract_slice %arg0[%0] [16] [1] : !otir.tile<64xi8, #global> to !otir.tile<16xi8, #global>
    %2 = otir.load %1 : !otir.tile<16xi8, #global> -> !otir.tile<16xi8, #private>
    %3 = otir.add %2, %2 : (!otir.tile<16xi8, #private>, !otir.tile<16xi8, #private>) -> !otir.tile<16xi9, #private>
    %c0 = otir.constant 0 : index
    %4 = scf.for %arg2 = %c0 to %c16 step %c16 iter_args(%arg3 = %3) -> (!otir.tile<16xi9, #private>) {
      %5 = otir.sub %arg3, %arg3 : !otir.tile<16xi9, #private>
      scf.yield %5 : !otir.tile<16xi9, #private>
    }
    %c16_0 = otir.constant 16 : index
    %c-3_i8 = otir.constant -3 : i8
    %6 = otir.cmp kind(slt) %pid, %c16 : (index, index) -> i1
    scf.if %6 {
      otir.barrier
    }
    otir.return
  }
}
`
	if got := buildVadd().String(); got != want {
		t.Errorf("pretty output differs:\n%s", got)
	}
}

func TestPrintGeneric(t *testing.T) {
	var sb strings.Builder
	if err := ir.Print(&sb, buildVadd(), ir.PrintOptions{Generic: true}); err != nil {
		t.Fatal(err)
	}
	got := sb.String()
	for _, want := range []string{
		`"builtin.module"() ({`,
		`  ^bb0(%arg0: !otir.tile<64xi8, #global>, %arg1: !otir.tile<64xi8, #global>):`,
		`    %pid = "otir.program_id"() {axis = 0} : () -> index`,
		`    %1 = "otir.extract_slice"(%arg0, %0) {static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: 16>, static_strides = array<i64: 1>} : (!otir.tile<64xi8, #global>, index) -> !otir.tile<16xi8, #global>`,
		`      "scf.yield"(%5) : (!otir.tile<16xi9, #private>) -> ()`,
		`    "scf.if"(%6) ({`,
		`    }, {`,
		`  }) {function_type = (!otir.tile<64xi8, #global>, !otir.tile<64xi8, #global>) -> (), grid = [4], sym_name = "vadd"} : () -> ()`,
		`}) {otir.typing_style = "hls"} : () -> ()`,
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("generic output lacks line %q:\n%s", want, got)
		}
	}
}

// Malformed operations must print (generically), never panic.
func TestPrintMalformedFallsBackToGeneric(t *testing.T) {
	m := ir.NewModule(ir.Location{})
	_, body := otir.Kernel(ir.NewBuilder(m.Body()), "k", nil, nil)
	kb := ir.NewBuilder(body)
	kb.Create(otir.OpAdd, nil, []ir.Type{ir.Index()}, nil)                                        // no operands
	kb.Create(otir.OpTranspose, nil, []ir.Type{ir.Index()}, ir.Attrs{{"permutation", ir.I64(3)}}) // wrong attr kind
	kb.Create(scf.OpFor, nil, nil, nil)                                                           // no region
	kb.Create("test.unknown", nil, nil, nil)
	got := m.String()
	for _, want := range []string{
		`%0 = "otir.add"() : () -> index`,
		`%1 = "otir.transpose"() {permutation = 3} : () -> index`,
		`"scf.for"() : () -> ()`,
		`"test.unknown"() : () -> ()`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

func TestDenseLiteral(t *testing.T) {
	cases := []struct {
		attr *ir.DenseAttr
		want string
	}{
		{&ir.DenseAttr{Type: ir.Tile([]int64{2, 2}, ir.Int(4, true), ir.Private), Ints: bigs(1, -2, 3, 4)}, "dense<[[1, -2], [3, 4]]> : !otir.tile<2x2xi4, #private>"},
		{&ir.DenseAttr{Type: ir.Tile([]int64{8}, ir.Int(8, false), ir.Private), Ints: bigs(7)}, "dense<7> : !otir.tile<8xu8, #private>"},
		{&ir.DenseAttr{Type: ir.Tile([]int64{2}, ir.Bool(), ir.Private), Ints: bigs(1, 0)}, "dense<[true, false]> : !otir.tile<2xi1, #private>"},
		{&ir.DenseAttr{Type: ir.Tile([]int64{2}, ir.Float(ir.F32), ir.Private), Floats: []float64{1, -0.5}}, "dense<[1.0, -0.5]> : !otir.tile<2xf32, #private>"},
		{&ir.DenseAttr{Type: ir.Tile([]int64{1}, ir.Int(8, true), ir.Private), Ints: bigs(5)}, "dense<[5]> : !otir.tile<1xi8, #private>"},
	}
	for _, c := range cases {
		if got := c.attr.String(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

func TestFormatFloat(t *testing.T) {
	for in, want := range map[float64]string{1: "1.0", -0.5: "-0.5", 1e300: "1.0e+300", 1.5e-7: "1.5e-07", 3.25: "3.25"} {
		if got := ir.FormatFloat(in); got != want {
			t.Errorf("FormatFloat(%v) = %s, want %s", in, got, want)
		}
	}
}

// Nil types, values and regions (from a buggy pass) print, never panic.
func TestPrintNilPieces(t *testing.T) {
	m := ir.NewModule(ir.Location{})
	_, body := otir.Kernel(ir.NewBuilder(m.Body()), "k", nil, nil)
	kb := ir.NewBuilder(body)
	kb.Create(otir.OpAdd, []*ir.Value{nil, {Type: nil}}, []ir.Type{nil}, nil)
	op := kb.Create(scf.OpFor, nil, nil, nil)
	op.Regions = append(op.Regions, nil)
	op.Walk(func(*ir.Operation) bool { return true })
	got := m.String()
	if !strings.Contains(got, `"otir.add"(%<<UNKNOWN SSA VALUE>>, %<<UNKNOWN SSA VALUE>>) : (<<NULL TYPE>>, <<NULL TYPE>>) -> <<NULL TYPE>>`) {
		t.Errorf("got\n%s", got)
	}
}
