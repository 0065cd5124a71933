package verify

import (
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
)

// chainModule builds a kernel whose body is a chain of n element-wise ops on
// #private tiles and scalars, each using the previous result, plus a loop.
func chainModule(n int) *ir.Module {
	e := newEnv([]int64{4})
	out := e.arg("!otir.tile<16xi8, #global>")
	tile := ty("!otir.tile<16xi8, #private>")
	x := e.val("!otir.tile<16xi8, #private>")
	c := e.val("i8")
	s := otir.ProgramID(e.b, 0)
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0:
			x = e.b.Binary(otir.OpAdd, x, c, tile)
		case 1:
			x = e.b.Binary(otir.OpMul, x, x, tile)
		case 2:
			s = e.b.Binary(otir.OpAdd, s, s, ir.Index())
		default:
			x = otir.Cmp(e.b, "slt", x, c, ty("!otir.tile<16xi1, #private>"))
			x = e.b.Create(otir.OpSelect, []*ir.Value{x, c, c}, []ir.Type{tile}, nil).Results[0]
		}
	}
	e.op(otir.OpStore, ops(x, out), nil)
	e.finish()
	return e.m
}

func TestChainModuleVerifiesClean(t *testing.T) {
	checkDiags(t, Verify(chainModule(1000)), nil)
}

// BenchmarkVerifyChain100k verifies a kernel of about 125k operations.
func BenchmarkVerifyChain100k(b *testing.B) {
	m := chainModule(100_000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if l := Verify(m); len(l) != 0 {
			b.Fatal(l)
		}
	}
}

// BenchmarkVerifyChain1M verifies a kernel of about 1.25M operations, which
// no longer fit in cache.
func BenchmarkVerifyChain1M(b *testing.B) {
	m := chainModule(1_000_000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if l := Verify(m); len(l) != 0 {
			b.Fatal(l)
		}
	}
}
