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

// BenchmarkEmptyLoop runs an empty scf.for of 10^6 iterations: the
// per-step overhead of the executor (issue 31; bench/executor.sh times the
// same loop through otir-run to the default step limit).
func BenchmarkEmptyLoop(b *testing.B) {
	m := parseModule(b, `otir.kernel @spin() {
  %c0 = otir.constant 0 : index
  %c1 = otir.constant 1 : index
  %n = otir.constant 1000000 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  otir.return
}`)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Run(m, "spin", nil, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
