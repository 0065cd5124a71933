package dais

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
)

// build makes a program op from a list of ops made by fn.
func build(attrs ir.Attrs, fn func(b *ir.Builder)) *ir.Operation {
	prog := ir.NewOp(OpProgram, ir.Location{File: "p", Line: 1, Col: 1}, nil, nil, attrs)
	b := ir.NewBuilder(prog.NewRegion())
	fn(b)
	return prog
}

func progAttrs(nIn int) ir.Attrs {
	at := ir.Attrs{}
	at.Set("sym_name", &ir.StringAttr{Value: "p"})
	at.Set("carry_size", ir.I64(-1))
	at.Set("adder_size", ir.I64(-1))
	at.Set("inp_shifts", &ir.DenseI64Attr{Values: make([]int64, nIn)})
	return at
}

var q8 = FixedOf(-128, 127, 1)

func input(b *ir.Builder, i int64) *ir.Value {
	return b.Create(OpInput, nil, []ir.Type{q8}, ir.Attrs{{Name: "index", Value: ir.I64(i)}}).Results[0]
}

func output(b *ir.Builder, vs ...*ir.Value) {
	idx := make([]int64, len(vs))
	for i := range idx {
		idx[i] = int64(i)
	}
	b.Create(OpOutput, vs, nil, outputAttrs(idx, make([]int64, len(vs)), make([]int64, len(vs))))
}

// ToALIR reports malformed programs at the offending op, never panics.
func TestToALIRErrors(t *testing.T) {
	other := ir.NewOp(OpConst, ir.Location{}, nil, []ir.Type{q8}, ir.Attrs{{Name: "value", Value: ir.I64(1)}})
	cases := []struct {
		name string
		prog *ir.Operation
		want string
	}{
		{"no output", build(progAttrs(1), func(b *ir.Builder) { input(b, 0) }), "body must end with 'dais.output'"},
		{"op after output", build(progAttrs(1), func(b *ir.Builder) { x := input(b, 0); output(b, x); input(b, 0) }), "follows the program's 'dais.output'"},
		{"foreign operand", build(progAttrs(1), func(b *ir.Builder) {
			x := b.Create(OpNeg, []*ir.Value{other.Results[0]}, []ir.Type{q8}, nil).Results[0]
			output(b, x)
		}), "operand #0 is not an earlier slot of the program"},
		{"not a dais op", build(progAttrs(1), func(b *ir.Builder) { b.Create(otir.OpBarrier, nil, nil, nil) }), "is not a slot operation"},
		{"wrong type", build(progAttrs(1), func(b *ir.Builder) {
			b.Create(OpInput, nil, []ir.Type{ir.Int(8, true)}, ir.Attrs{{Name: "index", Value: ir.I64(0)}})
		}), "result must have a !dais.q type, not i8"},
		{"operand count", build(progAttrs(1), func(b *ir.Builder) {
			x := input(b, 0)
			b.Create(OpAdd, []*ir.Value{x}, []ir.Type{q8}, ir.Attrs{{Name: "shift", Value: ir.I64(0)}})
		}), "expects 2 operands, got 1"},
		{"missing shift", build(progAttrs(1), func(b *ir.Builder) {
			x := input(b, 0)
			output(b, b.Create(OpAdd, []*ir.Value{x, x}, []ir.Type{q8}, nil).Results[0])
		}), "requires attribute 'shift'"},
		{"huge shift", build(progAttrs(1), func(b *ir.Builder) {
			x := input(b, 0)
			output(b, b.Create(OpAdd, []*ir.Value{x, x}, []ir.Type{q8}, ir.Attrs{{Name: "shift", Value: ir.I64(1 << 40)}}).Results[0])
		}), "attribute 'shift' (1099511627776) does not fit 32 bits"},
		{"bad kind", build(progAttrs(1), func(b *ir.Builder) {
			x := input(b, 0)
			output(b, b.Create(OpBitBinary, []*ir.Value{x, x}, []ir.Type{q8}, ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: "nand"}}, {Name: "shift", Value: ir.I64(0)}}).Results[0])
		}), `attribute 'kind' must be one of ["and" "or" "xor"], got "nand"`},
		{"table index", build(progAttrs(1), func(b *ir.Builder) {
			x := input(b, 0)
			output(b, b.Create(OpLookup, []*ir.Value{x}, []ir.Type{q8}, ir.Attrs{{Name: "table", Value: ir.I64(0)}}).Results[0])
		}), "table"},
		{"output operand", build(progAttrs(1), func(b *ir.Builder) {
			x := input(b, 0)
			b.Create(OpOutput, []*ir.Value{x}, nil, outputAttrs([]int64{3}, []int64{0}, []int64{0}))
		}), "output 0 refers to operand #3, but there are 1 operands"},
		{"negs", build(progAttrs(1), func(b *ir.Builder) {
			x := input(b, 0)
			b.Create(OpOutput, []*ir.Value{x}, nil, outputAttrs([]int64{0}, []int64{0}, []int64{2}))
		}), "negs entries must be 0 or 1"},
		{"missing carry size", build(ir.Attrs{{Name: "sym_name", Value: &ir.StringAttr{Value: "p"}}}, func(b *ir.Builder) {}), "requires attribute 'carry_size'"},
	}
	for _, c := range cases {
		_, err := ToALIR(c.prog)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := ToALIR(other); err == nil {
		t.Errorf("ToALIR of a non-program succeeded")
	}
}

// Annotate sets the da4ml cost model's latency and cost on adders only.
func TestAnnotate(t *testing.T) {
	at := progAttrs(2)
	at.Set("carry_size", ir.I64(4))
	at.Set("adder_size", ir.I64(3))
	var s, n *ir.Value
	prog := build(at, func(b *ir.Builder) {
		x, y := input(b, 0), input(b, 1)
		s = b.Create(OpAdd, []*ir.Value{x, y}, []ir.Type{FixedOf(-256, 254, 1)}, ir.Attrs{{Name: "shift", Value: ir.I64(0)}}).Results[0]
		n = b.Create(OpNeg, []*ir.Value{s}, []ir.Type{FixedOf(-254, 256, 1)}, nil).Results[0]
		output(b, n)
	})
	if err := Annotate(prog); err != nil {
		t.Fatal(err)
	}
	get := func(v *ir.Value, name string) float64 {
		f, _ := floatAttr(v.Def, name)
		return f
	}
	// A 9-bit adder: cost ceil(9/3) = 3, latency ceil(9/4) = 3; the neg is
	// free but inherits the latency.
	if get(s, "cost") != 3 || get(s, "latency") != 3 || get(n, "cost") != 0 || get(n, "latency") != 3 {
		t.Errorf("add %v/%v, neg %v/%v", get(s, "cost"), get(s, "latency"), get(n, "cost"), get(n, "latency"))
	}
}
