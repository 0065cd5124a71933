package exec

import "testing"

// BenchmarkMatmul64 runs the 64x64x64 int8 tiled matmul of matmulSrc (16x16
// tiles, a 4x4 grid, a K loop of 4 double-buffered DMA steps), verifier
// included. docs/executor.md records the figure.
func BenchmarkMatmul64(b *testing.B) {
	m := parseModule(b, matmulSrc(64, 16))
	a, bb, c, want := matmulInputs(b, 64)
	b.ResetTimer()
	for b.Loop() {
		res, err := Run(m, "matmul", []*Buffer{a, bb, c}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if got := res.Output("C").Ints; got[64*64-1] != want[64*64-1] {
			b.Fatalf("wrong result %d", got[64*64-1])
		}
	}
}
