package alir

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// SampleError is a run-time failure at one sample (a lookup index out of its
// table's range).
type SampleError struct {
	Sample int
	Err    error
}

func (e *SampleError) Error() string { return fmt.Sprintf("sample %d: %v", e.Sample, e.Err) }
func (e *SampleError) Unwrap() error { return e.Err }

func fmtSample(err error, s int) error { return &SampleError{Sample: s, Err: err} }

// Run evaluates n samples. in holds n rows of NumInputs values (row-major);
// the result holds n rows of NumOutputs values.
func (m *Machine) Run(in []float64, n int) ([]float64, error) {
	out := make([]float64, n*m.prog.NumOutputs())
	if err := m.RunInto(out, in, n); err != nil {
		return nil, err
	}
	return out, nil
}

// RunRows evaluates one sample per row of in.
func (m *Machine) RunRows(in [][]float64) ([][]float64, error) {
	nIn, nOut := m.prog.NumInputs(), m.prog.NumOutputs()
	flat := make([]float64, 0, len(in)*nIn)
	for r, row := range in {
		if len(row) != nIn {
			return nil, fmt.Errorf("row %d has %d values, want %d", r, len(row), nIn)
		}
		flat = append(flat, row...)
	}
	out, err := m.Run(flat, len(in))
	if err != nil {
		return nil, err
	}
	rows := make([][]float64, len(in))
	for r := range rows {
		rows[r] = out[r*nOut : (r+1)*nOut : (r+1)*nOut]
	}
	return rows, nil
}

// RunInto is Run writing into out, which must hold n*NumOutputs values.
// The samples are split into blocks spread over Workers goroutines.
func (m *Machine) RunInto(out, in []float64, n int) error {
	nIn, nOut := m.prog.NumInputs(), m.prog.NumOutputs()
	if n < 0 || len(in) != n*nIn {
		return fmt.Errorf("got %d input values for %d samples of %d inputs", len(in), n, nIn)
	}
	if len(out) != n*nOut {
		return fmt.Errorf("output buffer holds %d values, want %d", len(out), n*nOut)
	}
	nb := (n + blockSize - 1) / blockSize
	workers := m.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, nb)
	if m.narrow {
		return runBlocks[int32](m, in, out, n, nb, workers)
	}
	return runBlocks[int64](m, in, out, n, nb, workers)
}

// runBlocks evaluates the nb blocks of n samples on the given number of
// goroutines, with slot storage T.
func runBlocks[T elem](m *Machine, in, out []float64, n, nb, workers int) error {
	if workers <= 1 {
		w := getWorker[T](m)
		defer m.workers.Put(w)
		for b := range nb {
			if err := runBlockAt(m, w, in, out, b, n); err != nil {
				return err
			}
		}
		return nil
	}
	// Workers take blocks in increasing order from a shared counter, so a
	// core slowed by other load does not hold the others up. After a
	// failure no new blocks are taken; every earlier block has been taken
	// already, so the first failing sample is still found.
	var next atomic.Int64
	var failed atomic.Bool
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Go(func() {
			w := getWorker[T](m)
			defer m.workers.Put(w)
			for !failed.Load() {
				b := int(next.Add(1) - 1)
				if b >= nb {
					return
				}
				if err := runBlockAt(m, w, in, out, b, n); err != nil {
					errs[k] = err
					failed.Store(true)
					return
				}
			}
		})
	}
	wg.Wait()
	var first error
	for _, err := range errs {
		if err != nil && (first == nil || sampleOf(err) < sampleOf(first)) {
			first = err
		}
	}
	return first
}

// sampleOf returns the sample an error occurred at.
func sampleOf(err error) int {
	var se *SampleError
	if errors.As(err, &se) {
		return se.Sample
	}
	return -1
}

func getWorker[T elem](m *Machine) *worker[T] {
	if w, ok := m.workers.Get().(*worker[T]); ok {
		return w
	}
	return newWorker[T](m)
}

// runBlockAt evaluates block b of n samples.
func runBlockAt[T elem](m *Machine, w *worker[T], in, out []float64, b, n int) error {
	nIn, nOut := m.prog.NumInputs(), m.prog.NumOutputs()
	s0 := b * blockSize
	k := min(blockSize, n-s0)
	return runBlock(m, w, in[s0*nIn:(s0+k)*nIn], out[s0*nOut:(s0+k)*nOut], k, s0)
}
