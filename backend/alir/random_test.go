package alir

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomProgram, randomProgramV4, randomInputValues: the generator of
// random.go, for this package's tests.
func randomProgram(r *rand.Rand, d Dialect, nIn, nOps int) *Program {
	return RandomProgram(r, d, nIn, nOps, false)
}

func randomProgramV4(r *rand.Rand, nIn, nOps int) *Program {
	return RandomProgram(r, ALIR, nIn, nOps, true)
}

func randomInputValues(r *rand.Rand, nIn, n int) []float64 { return RandomInputValues(r, nIn, n) }

func sameFloats(a, b []float64) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return i
		}
	}
	return -1
}

// TestFastMatchesExact checks the block interpreter against the exact
// evaluator on random programs of both dialects, with every opcode, wide
// and zero-width types, large shifts and odd inputs.
func TestFastMatchesExact(t *testing.T) {
	iters := 400
	if testing.Short() {
		iters = 60
	}
	r := rand.New(rand.NewPCG(1, 2))
	exactOps, narrow, wide, vec, inRuns := 0, 0, 0, 0, 0
	for it := range iters {
		d := Dialect(it % 2)
		nIn := r.IntN(5)
		p := randomProgram(r, d, nIn, 1+r.IntN(60))
		if it%4 == 2 { // ALIR spec 4: sums, relative quantize shifts
			p = randomProgramV4(r, nIn, 1+r.IntN(60))
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("iteration %d: random program invalid: %v", it, err)
		}
		m, err := Compile(p)
		if err != nil {
			t.Fatalf("iteration %d: %v", it, err)
		}
		exactOps += m.NumExact()
		vec += len(m.vcode)
		inRuns += len(m.inputs)
		if m.narrow {
			narrow++
		} else {
			wide++
		}
		n := []int{1, 7, blockSize, blockSize + 3, 3*blockSize - 1}[it%5]
		in := randomInputValues(r, nIn, n)
		want, werr := RunExact(p, in, n)
		for _, workers := range []int{1, 2} {
			m.Workers = workers
			got, gerr := m.Run(in, n)
			if (werr == nil) != (gerr == nil) {
				t.Fatalf("iteration %d (%v, workers %d): exact error %v, fast error %v", it, d, workers, werr, gerr)
			}
			if werr != nil {
				continue
			}
			if k := sameFloats(got, want); k >= 0 {
				nOut := p.NumOutputs()
				t.Fatalf("iteration %d (%v, workers %d): sample %d output %d: fast %v, exact %v\nprogram %+v",
					it, d, workers, k/nOut, k%nOut, got[k], want[k], p)
			}
		}
	}
	if exactOps == 0 {
		t.Error("no operation took the exact path; the test misses it")
	}
	if narrow == 0 || wide == 0 {
		t.Errorf("%d programs ran with int32 slots, %d with int64 slots; the test misses one", narrow, wide)
	}
	if haveVector && vec == 0 {
		t.Error("no vector run; the test misses them")
	}
	if inRuns == 0 {
		t.Error("no input run; the test misses them")
	}
}
