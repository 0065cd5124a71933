package exec

import (
	"runtime"
	"slices"
	"testing"

	"github.com/otir-dev/otir/ir"
)

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

// BenchmarkScalarLoop runs 10^5 iterations of a loop of scalar arithmetic
// (a constant, add, mul, xor, cmp, select and an scf.if with a result,
// carried in iter_args): the executor's speed on scalar code, reported as
// steps/s (issue 31 asks for at least 10^7).
func BenchmarkScalarLoop(b *testing.B) {
	m := parseModule(b, `otir.kernel @scalar(%out: !otir.tile<1xi32, #global>) {
  %c0 = otir.constant 0 : index
  %c1 = otir.constant 1 : index
  %n = otir.constant 100000 : index
  %z = otir.constant 0 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
    %k = otir.constant 7 : i32
    %x = otir.cast %i : index -> i32
    %m = otir.mul %x, %k : i32
    %s = otir.add %acc, %m : i32
    %t = otir.xor %s, %x : i32
    %big = otir.cmp kind(sgt) %t, %k : (i32, i32) -> i1
    %u = otir.select %big, %t, %s : (i1, i32, i32) -> i32
    %v = scf.if %big -> (i32) {
      %w = otir.sub %u, %k : i32
      scf.yield %w : i32
    } else {
      scf.yield %u : i32
    }
    scf.yield %v : i32
  }
  %z1 = otir.constant dense<0> : !otir.tile<1xi32, #private>
  %tile = otir.add %z1, %r : (!otir.tile<1xi32, #private>, i32) -> !otir.tile<1xi32, #private>
  otir.store %tile, %out : !otir.tile<1xi32, #private>, !otir.tile<1xi32, #global>
  otir.return
}`)
	out := NewBuffer(ir.Int(32, true), 1)
	var steps int64
	b.ResetTimer()
	for b.Loop() {
		res, err := Run(m, "scalar", []*Buffer{out}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		steps += res.Steps
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkTileOps runs element-wise ops on 64x64 i32 tiles in a loop of
// 16 iterations (load, add, mul with a broadcast scalar, cmp, select,
// store): the executor's speed on tiles, reported as elements/s.
func BenchmarkTileOps(b *testing.B) {
	m := parseModule(b, `otir.kernel @tiles(%a: !otir.tile<64x64xi32, #global>) {
  %c0 = otir.constant 0 : index
  %c1 = otir.constant 1 : index
  %n = otir.constant 16 : index
  %k = otir.constant 3 : i32
  scf.for %i = %c0 to %n step %c1 {
    %x = otir.load %a : !otir.tile<64x64xi32, #global> -> !otir.tile<64x64xi32, #private>
    %y = otir.add %x, %x : !otir.tile<64x64xi32, #private>
    %z = otir.mul %y, %k : (!otir.tile<64x64xi32, #private>, i32) -> !otir.tile<64x64xi32, #private>
    %p = otir.cmp kind(sgt) %z, %x : (!otir.tile<64x64xi32, #private>, !otir.tile<64x64xi32, #private>) -> !otir.tile<64x64xi1, #private>
    %s = otir.select %p, %z, %x : (!otir.tile<64x64xi1, #private>, !otir.tile<64x64xi32, #private>, !otir.tile<64x64xi32, #private>) -> !otir.tile<64x64xi32, #private>
    otir.store %s, %a : !otir.tile<64x64xi32, #private>, !otir.tile<64x64xi32, #global>
  }
  otir.return
}`)
	a := NewBuffer(ir.Int(32, true), 64, 64)
	for i := range a.Ints {
		a.Ints[i] = int64(i%7 - 3)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Run(m, "tiles", []*Buffer{a}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*16*6*64*64/b.Elapsed().Seconds(), "elements/s")
}

// tileBenchOps are the bodies BenchmarkTileOp runs, one op each, on 64x64
// i32 tiles (%x and %y loaded, %k an i32 scalar, %row a 1x64 tile, %p an i1
// tile, %a and %w the #global and #workgroup tiles).
var tileBenchOps = []struct{ name, body string }{
	{"add", `%r = otir.add %x, %y : !otir.tile<64x64xi32, #private>`},
	{"add-row", `%r = otir.add %x, %row : (!otir.tile<64x64xi32, #private>, !otir.tile<1x64xi32, #private>) -> !otir.tile<64x64xi32, #private>`},
	{"mul-scalar", `%r = otir.mul %x, %k : (!otir.tile<64x64xi32, #private>, i32) -> !otir.tile<64x64xi32, #private>`},
	{"cmp", `%r = otir.cmp kind(slt) %x, %y : (!otir.tile<64x64xi32, #private>, !otir.tile<64x64xi32, #private>) -> !otir.tile<64x64xi1, #private>`},
	{"select", `%r = otir.select %p, %x, %y : (!otir.tile<64x64xi1, #private>, !otir.tile<64x64xi32, #private>, !otir.tile<64x64xi32, #private>) -> !otir.tile<64x64xi32, #private>`},
	{"cast", `%r = otir.cast %x : !otir.tile<64x64xi32, #private> -> !otir.tile<64x64xi16, #private>`},
	{"load", `%r = otir.load %a : !otir.tile<64x64xi32, #global> -> !otir.tile<64x64xi32, #private>`},
	{"store", `otir.store %x, %a : !otir.tile<64x64xi32, #private>, !otir.tile<64x64xi32, #global>`},
	{"dma", `%t = otir.dma_copy_async %a, %w : (!otir.tile<64x64xi32, #global>, !otir.tile<64x64xi32, #workgroup>) -> !otir.token
    otir.wait [%t]`},
}

// tileBenchIters is the trip count of BenchmarkTileOp's loop.
const tileBenchIters = 64

// tileBenchKernel is the kernel of BenchmarkTileOp: body, one op, runs %n
// times (a scalar argument) on 64x64 i32 tiles.
func tileBenchKernel(body string) string {
	return `otir.kernel @tile(%a: !otir.tile<64x64xi32, #global>, %b: !otir.tile<64x64xi32, #global>, %n: index) {
  %c0 = otir.constant 0 : index
  %c1 = otir.constant 1 : index
  %k = otir.constant 3 : i32
  %row = otir.constant dense<3> : !otir.tile<1x64xi32, #private>
  %x = otir.load %a : !otir.tile<64x64xi32, #global> -> !otir.tile<64x64xi32, #private>
  %y = otir.load %b : !otir.tile<64x64xi32, #global> -> !otir.tile<64x64xi32, #private>
  %p = otir.cmp kind(sgt) %x, %y : (!otir.tile<64x64xi32, #private>, !otir.tile<64x64xi32, #private>) -> !otir.tile<64x64xi1, #private>
  %w = otir.alloc() : !otir.tile<64x64xi32, #workgroup>
  scf.for %i = %c0 to %n step %c1 {
    ` + body + `
  }
  otir.return
}`
}

// tileBenchArgs are BenchmarkTileOp's arguments, the op running n times.
func tileBenchArgs(b *testing.B, n int64) []*Buffer {
	x, y := NewBuffer(ir.Int(32, true), 64, 64), NewBuffer(ir.Int(32, true), 64, 64)
	for i := range x.Ints {
		x.Ints[i], y.Ints[i] = int64(i%7-3), int64(i%5-2)
	}
	bn, err := Scalar(ir.Index(), n)
	if err != nil {
		b.Fatal(err)
	}
	return []*Buffer{x, y, bn}
}

// BenchmarkTileOp runs one tile op 64 times on 64x64 i32 tiles (4096
// elements, held as int64: 32 KiB a tile) and reports the bytes of the
// results written per second, to compare with BenchmarkTileMemory, a plain Go
// loop and a memmove of the same size (issue 31: tile ops at memory speed).
// A run's setup (compiling the kernel, copying the arguments, the ops before
// the loop) is included; BenchmarkTileOpSteady leaves it out.
func BenchmarkTileOp(b *testing.B) {
	for _, o := range tileBenchOps {
		b.Run(o.name, func(b *testing.B) {
			m := parseModule(b, tileBenchKernel(o.body))
			args := tileBenchArgs(b, tileBenchIters)
			b.SetBytes(tileBenchIters * 64 * 64 * 8)
			b.ResetTimer()
			for b.Loop() {
				if _, err := Run(m, "tile", args, Options{SkipVerify: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// tileSteadyIters is the trip count of BenchmarkTileOpSteady's long runs.
const tileSteadyIters = 1024

// BenchmarkTileOpSteady measures one tile op in steady state, setup left
// out: each round runs BenchmarkTileOp's kernel with the loop empty (0
// iterations: the run's setup) and with 1024 iterations; the difference over
// 1024 is the cost of one op. It reports the bytes of a result (32 KiB) per
// CPU second of that cost (op-GB/s) and the setup's CPU time (setup-µs); and,
// as each round also runs BenchmarkTileMemory's Go loop and memmove 1024
// times, the op's speed over theirs (x-loop, x-memmove: docs/executor.md's
// "memory speed"). Times are the CPU time of the benchmark's thread
// (threadCPU), so that neither other processes nor the collector's
// workers count, and each figure is the median of the rounds'.
func BenchmarkTileOpSteady(b *testing.B) {
	for _, o := range tileBenchOps {
		b.Run(o.name, func(b *testing.B) {
			runtime.LockOSThread() // (a sub-benchmark runs in a goroutine of its own)
			defer runtime.UnlockOSThread()
			m := parseModule(b, tileBenchKernel(o.body))
			empty, long := tileBenchArgs(b, 0), tileBenchArgs(b, tileSteadyIters)
			x, y, r := tileRefSlices()
			var rounds [4][]float64 // op-GB/s, setup-µs, x-loop, x-memmove
			for b.Loop() {
				t0 := threadCPU()
				if _, err := Run(m, "tile", empty, Options{SkipVerify: true}); err != nil {
					b.Fatal(err)
				}
				t1 := threadCPU()
				if _, err := Run(m, "tile", long, Options{SkipVerify: true}); err != nil {
					b.Fatal(err)
				}
				t2 := threadCPU()
				for range tileSteadyIters {
					tileRefAdd(r, x, y)
				}
				t3 := threadCPU()
				for range tileSteadyIters {
					copy(r, x)
				}
				t4 := threadCPU()
				op := (t2 - t1 - (t1 - t0)).Seconds()
				for k, v := range []float64{64 * 64 * 8 * tileSteadyIters / op / 1e9, (t1 - t0).Seconds() * 1e6, (t3 - t2).Seconds() / op, (t4 - t3).Seconds() / op} {
					rounds[k] = append(rounds[k], v)
				}
			}
			for k, unit := range []string{"op-GB/s", "setup-µs", "x-loop", "x-memmove"} {
				b.ReportMetric(median(rounds[k]), unit)
			}
		})
	}
}

// median is the median of xs (the rounds of a benchmark: robust to a round
// that another process slowed down).
func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// tileRefSlices are BenchmarkTileMemory's operands and result.
func tileRefSlices() (x, y, r []int64) {
	x, y, r = make([]int64, 64*64), make([]int64, 64*64), make([]int64, 64*64)
	for i := range x {
		x[i], y[i] = int64(i%7-3), int64(i%5-2)
	}
	return x, y, r
}

// tileRefAdd is BenchmarkTileMemory's plain Go loop.
func tileRefAdd(r, x, y []int64) {
	for i := range r {
		r[i] = x[i] + y[i]
	}
}

// BenchmarkTileMemory is BenchmarkTileOp's reference: the same 64 rounds of
// 4096 int64 elements as a plain Go loop adding two slices into a third, and
// as a copy (memmove).
func BenchmarkTileMemory(b *testing.B) {
	x, y, r := tileRefSlices()
	b.Run("add-loop", func(b *testing.B) {
		b.SetBytes(tileBenchIters * 64 * 64 * 8)
		for b.Loop() {
			for range tileBenchIters {
				tileRefAdd(r, x, y)
			}
		}
	})
	b.Run("memmove", func(b *testing.B) {
		b.SetBytes(tileBenchIters * 64 * 64 * 8)
		for b.Loop() {
			for range tileBenchIters {
				copy(r, x)
			}
		}
	})
}
