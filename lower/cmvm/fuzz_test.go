package cmvm

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

// fuzzProblem decodes a small problem and options from fuzz bytes. Entries
// mix small values, powers of two and extremes; intervals include zero,
// constant and extreme ones with random steps.
func fuzzProblem(data []byte) (Problem, Options) {
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	next64 := func() int64 {
		var b [8]byte
		for i := range b {
			b[i] = next()
		}
		return int64(binary.LittleEndian.Uint64(b[:]))
	}
	rows, cols := int(next()%7), int(next()%7)
	p := Problem{Transposed: next()%4 == 0}
	major, minor := rows, cols
	if p.Transposed {
		major, minor = cols, rows
	}
	p.Matrix = make([][]int64, major)
	for i := range p.Matrix {
		p.Matrix[i] = make([]int64, minor)
		for j := range p.Matrix[i] {
			switch b := next(); b % 8 {
			case 0:
				p.Matrix[i][j] = next64()
			case 1:
				p.Matrix[i][j] = int64(1) << (b % 64)
			case 2:
				p.Matrix[i][j] = -int64(b)
			default:
				p.Matrix[i][j] = int64(int8(next()))
			}
		}
	}
	p.Inputs = make([]Interval, cols)
	for j := range p.Inputs {
		lo, hi := int64(int8(next())), int64(int8(next()))
		if next()%16 == 0 {
			lo, hi = math.MinInt64, math.MaxInt64
		}
		if lo > hi {
			lo, hi = hi, lo
		}
		p.Inputs[j] = Interval{Lo: lo, Hi: hi, Exp: int(int8(next())) % 4}
	}
	var opt Options
	switch next() % 4 {
	case 1:
		opt.MaxDepth = DepthMinimal
	case 2:
		opt.MaxDepth = int(next() % 8)
	case 3:
		opt.NoDecompose = true
	}
	opt.Restarts = int(next()%3) - 1
	opt.Seed = uint64(next())
	opt.Objective = Objective(next() % 2)
	return p, opt
}

// FuzzSolve checks that Solve never panics and that every graph it returns
// computes M·x exactly at the corners of the input box.
func FuzzSolve(f *testing.F) {
	f.Add([]byte{3, 3, 1, 200, 17, 9, 45, 3, 250, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{2, 2, 0, 0, 255, 255, 255, 255, 255, 255, 255, 127, 1, 2, 0, 128, 127, 0})
	f.Add([]byte{6, 6, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	f.Add([]byte{1, 1, 0, 1, 63, 0, 1, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, opt := fuzzProblem(data)
		g, err := Solve(p, opt)
		if err != nil {
			return // an error is fine; a panic is not
		}
		n, err := normalize(p)
		if err != nil {
			t.Fatalf("Solve accepted a problem normalize rejects: %v", err)
		}
		if err := g.Check(); err != nil {
			t.Fatal(err)
		}
		if md := minimalDepth(n); opt.MaxDepth != 0 && g.Stats().Depth > max(md, opt.MaxDepth) {
			t.Fatalf("depth %d above the bound", g.Stats().Depth)
		}
		unit := g.Unit()
		for _, x := range sampleInputs(nil, n.inputs, 0) {
			want := product(n, x, unit)
			got, err := g.EvalBig(bigInts(x))
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if got[i].Cmp(want[i]) != 0 {
					t.Fatalf("output %d on %v: %v, want %v", i, x, got[i], want[i])
				}
			}
			y, err := g.Eval(x)
			for i := range want {
				if err == nil && (!want[i].IsInt64() || y[i] != want[i].Int64()) {
					t.Fatalf("Eval output %d on %v: %d, want %v", i, x, y[i], want[i])
				}
			}
			if err != nil && !errors.Is(err, ErrOverflow) {
				t.Fatalf("Eval: %v", err)
			}
			if err != nil {
				fits := true
				for _, w := range want {
					fits = fits && w.IsInt64()
				}
				if fits {
					t.Fatalf("Eval overflowed although every output fits: %v", err)
				}
			}
		}
	})
}
