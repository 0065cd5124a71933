package alir

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the CPU time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// runTimed runs m on the n samples of in b.N times, into out, and reports
// operation evaluations (ops per sample) per second of wall time (ops/s)
// and per second of CPU time (ops/cpu-s).
func runTimed(b *testing.B, m *Machine, out, in []float64, n, ops int) {
	b.ResetTimer()
	c0 := cpuTime()
	for range b.N { // not b.Loop: its first run ignores -cpu (Go 1.26)
		if err := m.RunInto(out, in, n); err != nil {
			b.Fatal(err)
		}
	}
	cpu := cpuTime() - c0
	evals := float64(ops) * float64(n) * float64(b.N)
	b.ReportMetric(evals/b.Elapsed().Seconds(), "ops/s")
	b.ReportMetric(evals/cpu.Seconds(), "ops/cpu-s")
}

// BenchmarkShiftAdd runs a 5,000-operation shift-and-add program
// (RandomShiftAdd) on 16,384 samples and reports operation evaluations per
// second of wall time (ops/s) and per second of CPU time (ops/cpu-s, less
// sensitive to other load on the machine). Use -cpu 1,2 to see the scaling
// over cores.
func BenchmarkShiftAdd(b *testing.B) {
	const n = 1 << 14
	p := RandomShiftAdd(ShiftAddConfig{Seed: 1})
	m, err := Compile(p)
	if err != nil {
		b.Fatal(err)
	}
	in := RandomInputs(p, n, 2)
	out := make([]float64, n*p.NumOutputs())
	if err := m.RunInto(out, in, n); err != nil { // warm the worker pool
		b.Fatal(err)
	}
	runTimed(b, m, out, in, n, len(p.Ops))
	b.ReportMetric(float64(m.NumSlots()), "slots")
}

// BenchmarkConformanceALIR runs the alir-v2-mixed conformance program (581
// operations, lookups, multiplications, muxes and bit operations) on its
// 200 input rows repeated to 16,400 samples.
func BenchmarkConformanceALIR(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(conformanceDir, "alir-v2-mixed", "model.json.gz"))
	if err != nil {
		b.Skip(err)
	}
	rows, err := os.ReadFile(filepath.Join(conformanceDir, "alir-v2-mixed", "inputs.txt"))
	if err != nil {
		b.Skip(err)
	}
	p, err := DecodeJSON(data)
	if err != nil {
		b.Fatal(err)
	}
	in1, n1, _, err := ReadRows(bytes.NewReader(rows))
	if err != nil {
		b.Fatal(err)
	}
	var in []float64
	for range 82 {
		in = append(in, in1...)
	}
	n := 82 * n1
	m, err := Compile(p)
	if err != nil {
		b.Fatal(err)
	}
	runTimed(b, m, make([]float64, n*p.NumOutputs()), in, n, len(p.Ops))
}

// BenchmarkPortability checks alkaid's 64x64 constant-matrix program (4,994
// ops, adders over 64 shared inputs: the linear forms' worst case) and a
// 100,000-op random shift-and-add program for portability.
func BenchmarkPortability(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(conformanceDir, "alkaid-cmvm64", "model-v2.json.gz"))
	if err != nil {
		b.Skipf("backend/alir: %v", err)
	}
	cmvm, _, err := Decode(data, FormatAuto)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		p    *Program
	}{
		{"cmvm64", cmvm},
		{"shiftadd100k", RandomShiftAdd(ShiftAddConfig{Seed: 1, Ops: 100000})},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				if bad, err := c.p.Portability(); err != nil || len(bad) > 0 {
					b.Fatalf("%v %v", bad, err)
				}
			}
			b.ReportMetric(float64(len(c.p.Ops))*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}

// BenchmarkCMVM64 runs alkaid's 64x64 constant-matrix program (4,994 adds
// and subtracts, spec 2 and spec 4 files) on its 1,000 input rows, one
// worker per -cpu (the figure of `otir-run bench`).
func BenchmarkCMVM64(b *testing.B) {
	rows, err := os.ReadFile(filepath.Join(conformanceDir, "alkaid-cmvm64", "inputs.txt"))
	if err != nil {
		b.Skip(err)
	}
	in, n, _, err := ReadRows(bytes.NewReader(rows))
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{"model-v2.json.gz", "model-v4.json.gz"} {
		data, err := os.ReadFile(filepath.Join(conformanceDir, "alkaid-cmvm64", f))
		if err != nil {
			b.Skip(err)
		}
		p, _, err := Decode(data, FormatAuto)
		if err != nil {
			b.Fatal(err)
		}
		m, err := Compile(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(f[:len("model-v2")], func(b *testing.B) {
			out := make([]float64, n*p.NumOutputs())
			if err := m.RunInto(out, in, n); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if err := m.RunInto(out, in, n); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(p.Ops))*float64(n)*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}
