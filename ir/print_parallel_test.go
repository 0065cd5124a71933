package ir_test

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
)

// buildLarge builds a module whose first kernel has a block of about n
// operations: constants with name hints (repeated, so they get suffixes),
// element-wise chains, multi-result ops, scf.for with iter_args and scf.if
// with results, and a nil operation. With nested, a kernel is nested in the
// block (malformed, but printable): it renames values, so that block must
// print sequentially.
func buildLarge(n int, nested bool) *ir.Module {
	m := ir.NewModule(ir.Location{})
	mb := ir.NewBuilder(m.Body())
	t := ir.Tile([]int64{16}, ir.Int(32, true), ir.Private)
	g := ir.Tile([]int64{16}, ir.Int(32, true), ir.Global)
	_, body := otir.Kernel(mb, "large", []ir.Type{g, g}, []int64{2})
	kb := ir.NewBuilder(body)
	x := kb.Unary(otir.OpLoad, body.Args[0], t)
	v := x
	inserted := false
	for i := 0; len(body.Ops) < n; i++ {
		switch i % 7 {
		case 0:
			c := otir.ConstInt(kb, int64(i%5), ir.Index())
			v = kb.Binary(otir.OpAdd, v, x, t)
			kb.Binary(otir.OpMul, c, c, ir.Index())
		case 1:
			pair := kb.Create("test.pair", []*ir.Value{v, x}, []ir.Type{t, t}, nil)
			v = kb.Binary(otir.OpXor, pair.Results[1], pair.Results[0], t)
		case 2:
			lb, ub := otir.ConstInt(kb, 0, ir.Index()), otir.ConstInt(kb, 4, ir.Index())
			loop, fb := scf.For(kb, lb, ub, otir.ConstInt(kb, 1, ir.Index()), v)
			fbb := ir.NewBuilder(fb)
			scf.Yield(fbb, fbb.Binary(otir.OpSub, fb.Args[1], x, t))
			v = loop.Results[0]
		case 3:
			cond := otir.Cmp(kb, "slt", otir.ProgramID(kb, 0), otir.ConstInt(kb, 1, ir.Index()), ir.Bool())
			ifOp, then, els := scf.If(kb, cond, []ir.Type{t}, true)
			scf.Yield(ir.NewBuilder(then), v)
			eb := ir.NewBuilder(els)
			scf.Yield(eb, eb.Binary(otir.OpAnd, v, x, t))
			v = ifOp.Results[0]
		case 4:
			c := otir.ConstInt(kb, -3, ir.Int(8, true))
			kb.Create("test.sink", []*ir.Value{c, v}, nil, ir.Attrs{{"note", &ir.StringAttr{Value: "x"}}})
		case 5:
			if i == 12 {
				body.Ops = append(body.Ops, nil)
			}
			if nested && !inserted && len(body.Ops) >= 4*n/10 {
				inserted = true
				_, inner := otir.Kernel(kb, "inner", []ir.Type{g}, nil)
				ib := ir.NewBuilder(inner)
				ib.Unary(otir.OpLoad, inner.Args[0], t)
				otir.Return(ib)
			}
		case 6:
			v = kb.Binary(otir.OpMul, v, otir.ConstInt(kb, 3, ir.Int(32, true)), t)
		}
	}
	kb.Create(otir.OpStore, []*ir.Value{v, body.Args[1]}, nil, nil)
	otir.Return(kb)
	// A second, small kernel: the module body itself never splits.
	_, small := otir.Kernel(mb, "small", nil, nil)
	sb := ir.NewBuilder(small)
	otir.ConstInt(sb, 16, ir.Index())
	otir.Return(sb)
	return m
}

func printString(t *testing.T, m *ir.Module, generic bool) string {
	t.Helper()
	var sb strings.Builder
	if err := ir.Print(&sb, m, ir.PrintOptions{Generic: generic}); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// Printing a large block in parallel must give the sequential output byte
// for byte, in both forms, whatever the number of goroutines.
func TestPrintParallelMatchesSequential(t *testing.T) {
	for _, nested := range []bool{false, true} {
		m := buildLarge(20000, nested)
		for _, generic := range []bool{false, true} {
			restore := ir.SetParallelPrint(1<<30, 0)
			want := printString(t, m, generic)
			restore()
			for _, c := range []struct{ minOps, workers int }{{3000, 2}, {100, 3}, {1, 7}, {4000, 0}} {
				var splits int // of the large block
				restore := ir.SetParallelPrint(c.minOps, c.workers)
				restoreHook := ir.OnParallelPrint(func(ops, ways int) {
					if ops > 1000 {
						splits++
					}
				})
				got := printString(t, m, generic)
				restoreHook()
				restore()
				if got != want {
					t.Fatalf("nested=%v generic=%v minOps=%d workers=%d: parallel output differs from sequential at byte %d",
						nested, generic, c.minOps, c.workers, firstDiff(got, want))
				}
				if c.workers > 1 && (splits > 0) == nested {
					t.Errorf("nested=%v generic=%v minOps=%d workers=%d: large block split %d times",
						nested, generic, c.minOps, c.workers, splits)
				}
			}
		}
	}
}

func firstDiff(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A panic while printing a range of a parallel block reaches Print's caller
// (as in the sequential print), whichever goroutine printed it.
func TestPrintParallelPanicReachesCaller(t *testing.T) {
	defer ir.SetParallelPrint(1000, 2)()
	m := buildLarge(20000, false)
	body := m.Body().Ops[0].Body(0)
	for _, at := range []int{10, len(body.Ops) - 10} {
		op := body.Ops[at]
		op.Attrs = append(op.Attrs, ir.NamedAttr{Name: "bad", Value: ir.PanicAttr{}})
		func() {
			defer func() {
				if r := recover(); r != "PanicAttr printed" {
					t.Errorf("op %d: recovered %v", at, r)
				}
			}()
			printString(t, m, true)
		}()
		op.Attrs = op.Attrs[:len(op.Attrs)-1]
	}
}
