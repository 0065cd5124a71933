package alir

import (
	"math"
	"testing"
)

// kif is shorthand for a type's full interval.
func kif(k, i, f int) QInterval { return KIF{Signed: k == 1, Integers: i, Fractionals: f}.QInterval() }

// runBoth runs p on one sample with the block interpreter and the exact
// evaluator, checks that they agree and returns the outputs.
func runBoth(t *testing.T, p *Program, in []float64) []float64 {
	t.Helper()
	want, err := RunExact(p, in, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Run(in, 1)
	if err != nil {
		t.Fatal(err)
	}
	if k := sameFloats(got, want); k >= 0 {
		t.Fatalf("output %d: fast %v, exact %v", k, got[k], want[k])
	}
	return got
}

type opCase struct {
	name string
	d    Dialect
	in   []float64
	// build appends operations reading inputs and returns the slot to
	// output.
	build func(b *Builder) int32
	want  float64
}

func (c opCase) run(t *testing.T) {
	b := NewBuilder(c.d, len(c.in))
	b.Output(c.build(b), 0, false)
	p := mustBuild(t, b)
	got := runBoth(t, p, c.in)
	if got[0] != c.want || math.Signbit(got[0]) != math.Signbit(c.want) {
		t.Errorf("got %v, want %v", got[0], c.want)
	}
}

// in8 reads input j as a signed 8-bit number with 2 fractional bits
// (values -32 .. 31.75 in steps of 0.25).
func in8(b *Builder, j int) int32 { return b.Input(j, kif(1, 5, 2)) }

func TestOpArithmetic(t *testing.T) {
	cases := []opCase{
		// -1: floor, then wrap.
		{"input/floor", ALIR, []float64{1.3}, func(b *Builder) int32 { return in8(b, 0) }, 1.25},
		{"input/floor-negative", ALIR, []float64{-1.3}, func(b *Builder) int32 { return in8(b, 0) }, -1.5},
		{"input/wrap", ALIR, []float64{33}, func(b *Builder) int32 { return in8(b, 0) }, -31},
		{"input/wrap-unsigned", ALIR, []float64{-1}, func(b *Builder) int32 { return b.Input(0, kif(0, 3, 0)) }, 7},
		{"input/shift", ALIR, []float64{1.3}, func(b *Builder) int32 { b.SetInputShift(0, 1); return in8(b, 0) }, 2.5},
		{"input/nan", ALIR, []float64{math.NaN()}, func(b *Builder) int32 { return in8(b, 0) }, 0},
		{"input/huge", ALIR, []float64{0x1p70 + 0x1p20}, func(b *Builder) int32 { return b.Input(0, kif(1, 63, 0)) }, 0x1p20}, // 2^70 wraps away
		{"input/huge-low-bits", ALIR, []float64{0x1p62 * 3}, func(b *Builder) int32 { return b.Input(0, kif(1, 63, 0)) }, -0x1p62},
		// 0/1: exact at the finer scale, then quantized.
		{"add/shift", ALIR, []float64{1.25, 3}, func(b *Builder) int32 {
			return b.Add(in8(b, 0), in8(b, 1), 2, kif(1, 7, 2))
		}, 13.25},
		{"add/negative-shift", ALIR, []float64{1.25, 3}, func(b *Builder) int32 {
			return b.Add(in8(b, 0), in8(b, 1), -3, kif(1, 7, 3))
		}, 1.625},
		{"add/negative-shift-floor", ALIR, []float64{1.25, -3}, func(b *Builder) int32 {
			return b.Add(in8(b, 0), in8(b, 1), -3, kif(1, 7, 2)) // 1.25 - 0.375 = 0.875
		}, 0.75},
		{"sub", ALIR, []float64{1.25, 3}, func(b *Builder) int32 {
			return b.Sub(in8(b, 0), in8(b, 1), 1, kif(1, 7, 2))
		}, -4.75},
		// Adders never wrap: an interval narrower than the sum (not
		// portable) still holds the exact sum, as in alkaid.
		{"add/no-wrap", ALIR, []float64{3, 3}, func(b *Builder) int32 {
			return b.Add(in8(b, 0), in8(b, 1), 0, kif(1, 2, 0))
		}, 6},
		{"add/scale-up", ALIR, []float64{1.5, 2}, func(b *Builder) int32 {
			return b.Add(in8(b, 0), in8(b, 1), 0, kif(1, 7, 5)) // result finer than both
		}, 3.5},
		{"add/64-bit-exact", ALIR, nil, func(b *Builder) int32 {
			a := b.Const(math.MaxInt64, kif(1, 63, 0))
			one := b.Const(1, kif(1, 63, 0))
			return b.Add(a, one, 0, kif(1, 63, 0)) // 2^63, beyond int64
		}, 0x1p63},
		{"add/unsigned-64", ALIR, nil, func(b *Builder) int32 {
			a := b.Const(1<<62, kif(0, 64, 0))
			return b.Add(a, a, 1, kif(0, 64, 0)) // 2^62 + 2^63, exact
		}, 0x1p62 + 0x1p63},
		{"add/unsigned-64-halved", ALIR, nil, func(b *Builder) int32 {
			a := b.Const(-1, kif(0, 63, 1)) // a constant is its raw value: -1/2
			return b.Add(a, a, 0, kif(0, 64, 0))
		}, -1}, // floor((-1 - 1)/2)
		{"sub/64-bit-signed-extremes", ALIR, nil, func(b *Builder) int32 {
			a := b.Const(math.MinInt64, kif(1, 62, 1))
			c := b.Const(math.MaxInt64, kif(1, 62, 1))
			return b.Sub(a, c, 0, kif(1, 63, 0)) // (-2^63 - (2^63-1))/2, floor
		}, -0x1p63},
		// 2 and 3.
		{"relu/negative", ALIR, []float64{-1.5}, func(b *Builder) int32 { return b.ReLU(in8(b, 0), kif(0, 5, 2)) }, 0},
		{"relu/positive-floor", ALIR, []float64{2.75}, func(b *Builder) int32 { return b.ReLU(in8(b, 0), kif(0, 5, 0)) }, 2},
		{"relu/wrap", ALIR, []float64{5}, func(b *Builder) int32 { return b.ReLU(in8(b, 0), kif(0, 2, 0)) }, 1},
		{"quantize/floor-wrap", ALIR, []float64{2.75}, func(b *Builder) int32 { return b.Quantize(in8(b, 0), kif(1, 1, 0)) }, -2},
		{"quantize/negative-fractionals", ALIR, []float64{-13}, func(b *Builder) int32 { return b.Quantize(in8(b, 0), kif(1, 6, -2)) }, -16},
		// -2 in ALIR: negation.
		{"neg", ALIR, []float64{2.5}, func(b *Builder) int32 { return b.Neg(in8(b, 0), kif(1, 5, 2)) }, -2.5},
		{"neg/no-wrap", ALIR, []float64{-32}, func(b *Builder) int32 { return b.Neg(in8(b, 0), kif(1, 5, 2)) }, 32},
		{"neg/wider", ALIR, []float64{-32}, func(b *Builder) int32 { return b.Neg(in8(b, 0), kif(1, 6, 2)) }, 32},
		// 4 in ALIR: a + data_low * 2^-data_high.
		{"const-add", ALIR, []float64{1.25}, func(b *Builder) int32 { return b.ConstAdd(in8(b, 0), 3, 2, kif(1, 6, 2)) }, 2},
		{"const-add/negative-exponent", ALIR, []float64{1.25}, func(b *Builder) int32 {
			return b.ConstAdd(in8(b, 0), -3, -2, kif(1, 6, 2)) // 1.25 - 12
		}, -10.75},
		{"const-add/fine-constant-floors", ALIR, []float64{1.25}, func(b *Builder) int32 {
			return b.ConstAdd(in8(b, 0), -1, 4, kif(1, 6, 2)) // 1.25 - 1/16
		}, 1},
		// 5.
		{"const", ALIR, nil, func(b *Builder) int32 { return b.Const(5, QInterval{0, 4, 0.5}) }, 2.5},
		{"const/raw", ALIR, nil, func(b *Builder) int32 { return b.Const(9, kif(1, 2, 0)) }, 9},
		// 6: msb of the condition slot's width.
		{"mux/true", ALIR, []float64{-1, 1.5, 2}, func(b *Builder) int32 {
			return b.Mux(in8(b, 0), in8(b, 1), in8(b, 2), 1, kif(1, 7, 2))
		}, 1.5},
		{"mux/false-shifted", ALIR, []float64{1, 1.5, 2}, func(b *Builder) int32 {
			return b.Mux(in8(b, 0), in8(b, 1), in8(b, 2), 1, kif(1, 7, 2))
		}, 4},
		{"mux/unsigned-condition-msb", ALIR, []float64{4, 1.5, 2}, func(b *Builder) int32 {
			c := b.Input(0, kif(0, 3, 0)) // 4 = 0b100: bit 2 set
			return b.Mux(c, in8(b, 1), in8(b, 2), 0, kif(1, 7, 2))
		}, 1.5},
		{"mux/negative-shift-floor", ALIR, []float64{0, 1.5, -2.25}, func(b *Builder) int32 {
			return b.Mux(in8(b, 0), in8(b, 1), in8(b, 2), -2, kif(1, 7, 2)) // -2.25/4 floors to -0.75
		}, -0.75},
		// 7: exact product.
		{"mul", ALIR, []float64{1.25, -3}, func(b *Builder) int32 { return b.Mul(in8(b, 0), in8(b, 1), kif(1, 12, 4)) }, -3.75},
		// 7: the raw product, read at the result's step (alkaid does not
		// rescale it: raw 5 * -12 = -60 read in steps of 1).
		{"mul/raw", ALIR, []float64{1.25, -3}, func(b *Builder) int32 { return b.Mul(in8(b, 0), in8(b, 1), kif(1, 12, 0)) }, -60},
		{"mul/64-bit", ALIR, nil, func(b *Builder) int32 {
			a := b.Const(1<<40, kif(1, 63, 0))
			return b.Mul(a, a, kif(1, 63, 0)) // 2^80, exact beyond 64 bits
		}, 0x1p80},
		{"mul/64-bit-high-bits", ALIR, nil, func(b *Builder) int32 {
			a := b.Const(3<<40, kif(1, 63, 0))
			return b.Mul(a, a, kif(1, 84, -30)) // raw 9*2^80 in steps of 2^30
		}, 9 * 0x1p110},
		// 9: raw bit operations.
		{"not/signed", ALIR, []float64{5}, func(b *Builder) int32 { return b.BitUnary(b.Input(0, kif(1, 3, 0)), BitNot, kif(1, 3, 0)) }, -6},
		{"not/unsigned", ALIR, []float64{5}, func(b *Builder) int32 { return b.BitUnary(b.Input(0, kif(0, 4, 0)), BitNot, kif(0, 4, 0)) }, 10},
		{"reduce-any/zero", ALIR, []float64{0}, func(b *Builder) int32 { return b.BitUnary(in8(b, 0), BitReduceAny, kif(0, 1, 0)) }, 0},
		{"reduce-any/set", ALIR, []float64{-0.25}, func(b *Builder) int32 { return b.BitUnary(in8(b, 0), BitReduceAny, kif(0, 1, 0)) }, 1},
		{"reduce-all/all", ALIR, []float64{15}, func(b *Builder) int32 { return b.BitUnary(b.Input(0, kif(0, 4, 0)), BitReduceAll, kif(0, 1, 0)) }, 1},
		{"reduce-all/not-all", ALIR, []float64{7}, func(b *Builder) int32 { return b.BitUnary(b.Input(0, kif(0, 4, 0)), BitReduceAll, kif(0, 1, 0)) }, 0},
		{"reduce-all/signed-minus-one", ALIR, []float64{-1}, func(b *Builder) int32 { return b.BitUnary(b.Input(0, kif(1, 3, 0)), BitReduceAll, kif(0, 1, 0)) }, 1},
		// 10: b aligned to a, then AND/OR/XOR of raw values.
		{"and", ALIR, []float64{12, 10}, func(b *Builder) int32 {
			return b.BitBinary(b.Input(0, kif(0, 4, 0)), b.Input(1, kif(0, 4, 0)), 0, BitAnd, kif(0, 4, 0))
		}, 8},
		{"or", ALIR, []float64{12, 10}, func(b *Builder) int32 {
			return b.BitBinary(b.Input(0, kif(0, 4, 0)), b.Input(1, kif(0, 4, 0)), 0, BitOr, kif(0, 4, 0))
		}, 14},
		{"xor", ALIR, []float64{12, 10}, func(b *Builder) int32 {
			return b.BitBinary(b.Input(0, kif(0, 4, 0)), b.Input(1, kif(0, 4, 0)), 0, BitXor, kif(0, 4, 0))
		}, 6},
		{"and/aligned", ALIR, []float64{12, 10}, func(b *Builder) int32 {
			return b.BitBinary(b.Input(0, kif(0, 4, 0)), b.Input(1, kif(0, 4, 0)), 1, BitAnd, kif(0, 5, 0)) // 12 & 20
		}, 4},
		// DAIS negated forms and its constant addition.
		{"dais/neg-relu", DAIS, []float64{-1.5}, func(b *Builder) int32 { return b.NegReLU(in8(b, 0), kif(0, 5, 2)) }, 1.5},
		{"dais/neg-relu-positive", DAIS, []float64{2}, func(b *Builder) int32 { return b.NegReLU(in8(b, 0), kif(0, 5, 2)) }, 0},
		{"dais/neg-quantize", DAIS, []float64{1.25}, func(b *Builder) int32 { return b.NegQuantize(in8(b, 0), kif(1, 5, 0)) }, -2},
		{"dais/const-add", DAIS, []float64{1.25}, func(b *Builder) int32 {
			return b.Op(Op{ID0: in8(b, 0), ID1: -1, Opcode: OpConstAdd, Data: 3, QInt: kif(1, 6, 1)}) // + 3*0.5
		}, 2.5},
		{"dais/neg-mux-false", DAIS, []float64{1, 1.5, 2}, func(b *Builder) int32 {
			return b.NegMux(in8(b, 0), in8(b, 1), in8(b, 2), 1, kif(1, 7, 2))
		}, -4},
		{"dais/neg-mux-true", DAIS, []float64{-1, 1.5, 2}, func(b *Builder) int32 {
			return b.NegMux(in8(b, 0), in8(b, 1), in8(b, 2), 1, kif(1, 7, 2))
		}, 1.5},
		{"dais/neg-not", DAIS, []float64{5}, func(b *Builder) int32 {
			return b.Op(Op{ID0: b.Input(0, kif(1, 3, 0)), ID1: -1, Opcode: OpNegBitUnary, Data: BitNot, QInt: kif(1, 3, 0)}) // ~(-5)
		}, 4},
	}
	for _, c := range cases {
		t.Run(c.name, c.run)
	}
}

func TestLookup(t *testing.T) {
	cases := []struct {
		name string
		q    QInterval // operand interval
		x    float64
		want float64
	}{
		{"unsigned", kif(0, 2, 0), 2, 30},
		{"signed-full-range", kif(1, 1, 0), -2, 10},
		{"signed-full-range-top", kif(1, 1, 0), 1, 40},
		{"signed-narrow", QInterval{-1, 2, 1}, -1, 10}, // type (1,2,0), pad 3: index = raw + 4 - 3
		{"signed-narrow-top", QInterval{-1, 2, 1}, 2, 40},
		{"fractional", QInterval{0, 0.75, 0.25}, 0.5, 30},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBuilder(ALIR, 1)
			tab := b.AddTable(Table{Values: []int32{10, 20, 30, 40}})
			b.Output(b.Lookup(b.Input(0, c.q), tab, kif(0, 6, 0)), 0, false)
			p := mustBuild(t, b)
			if got := runBoth(t, p, []float64{c.x}); got[0] != c.want {
				t.Errorf("got %v, want %v", got[0], c.want)
			}
		})
	}
	t.Run("out-of-range", func(t *testing.T) {
		b := NewBuilder(ALIR, 1)
		tab := b.AddTable(Table{Values: []int32{10, 20, 30}})
		b.Output(b.Lookup(b.Input(0, kif(0, 2, 0)), tab, kif(0, 6, 0)), 0, false)
		p := mustBuild(t, b)
		m, _ := Compile(p)
		in := []float64{0, 1, 2, 3, 0}
		_, err := m.Run(in, len(in))
		se, ok := err.(*SampleError)
		if !ok || se.Sample != 3 {
			t.Fatalf("got error %v, want a lookup error at sample 3", err)
		}
		if _, err := RunExact(p, in, len(in)); err == nil {
			t.Fatal("RunExact: no error")
		}
		// Over many blocks and workers the first failing sample is reported.
		in = make([]float64, 20*blockSize)
		in[2*blockSize+5], in[19*blockSize+1], in[7*blockSize] = 3, 3, 3
		for _, workers := range []int{1, 2, 3} {
			m.Workers = workers
			_, err = m.Run(in, len(in))
			if se, ok := err.(*SampleError); !ok || se.Sample != 2*blockSize+5 {
				t.Fatalf("workers %d: got error %v, want a lookup error at sample %d", workers, err, 2*blockSize+5)
			}
		}
	})
}

func TestOutputs(t *testing.T) {
	b := NewBuilder(ALIR, 1)
	x := in8(b, 0)
	b.Output(x, 0, false)
	b.Output(x, 2, false)
	b.Output(x, -1, true)
	b.Output(-1, 0, true)
	b.Output(x, 0, true)
	p := mustBuild(t, b)
	got := runBoth(t, p, []float64{1.5})
	want := []float64{1.5, 6, -0.75, 0, -1.5}
	for j := range want {
		if got[j] != want[j] || math.Signbit(want[j]) != math.Signbit(got[j]) {
			t.Errorf("output %d: got %v, want %v", j, got[j], want[j])
		}
	}
	// A negated zero is +0, as the original computes -v in integers.
	if got := runBoth(t, p, []float64{0}); math.Signbit(got[4]) {
		t.Errorf("negated zero output is -0")
	}
}
