package qonnx

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/internal/intrange"
)

// TestFormsExhaustive checks every integer form that stepNodes may choose
// against the exact step function at every code of small ranges: random
// quantizers (every mode, signed, unsigned, narrow, bipolar, zero points,
// trunc) of random affine maps of the code, with and without a relu, with
// power-of-two and float32 factors, increasing, decreasing and constant.
func TestFormsExhaustive(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 3))
	counts := map[string]int{}
	for c := range 1000 {
		lo := int64(-rng.IntN(400))
		hi := lo + int64(rng.IntN(800))
		var a float64
		switch rng.IntN(4) {
		case 0:
			a = math.Ldexp(float64(rng.IntN(7)-3), -rng.IntN(8))
		default:
			a = float64(float32(rng.NormFloat64() / 20))
		}
		b := float64(float32(rng.NormFloat64() * 3))
		if rng.IntN(3) == 0 {
			b = math.Ldexp(float64(rng.IntN(33)-16), -rng.IntN(4))
		}
		f := elemFn{{a: ratOf(a), b: ratOf(b)}}
		if rng.IntN(3) == 0 {
			f = f.thenRelu()
		}
		spec := nn.QuantSpec{Bits: int64(1 + rng.IntN(8)), Signed: rng.IntN(2) == 0, Narrow: rng.IntN(3) == 0, Rounding: nn.RoundingModes[rng.IntN(len(nn.RoundingModes))]}
		kind := kQuant
		scale := math.Ldexp(1, -rng.IntN(4))
		if rng.IntN(2) == 0 {
			scale = float64(float32(0.05 + rng.Float64()))
		}
		zp := 0.0
		switch rng.IntN(8) {
		case 0:
			kind = kBipolarQuant
		case 1:
			kind, spec.InBits, spec.Version = kTrunc, spec.Bits+int64(rng.IntN(4)), 1
		case 2:
			zp = float64(rng.IntN(3) - 1)
		}
		q := newQuantizer(kind, spec, scale, zp, 0)
		x := &val{lo: lo, hi: hi, fn: []elemFn{f}}
		s := findSteps(func(c int64) *big.Int { return q.code(f.eval(ratInt(c))) }, lo, hi)
		name, form, ok := chooseForm(x, []*quantizer{q}, []*steps{s})
		if !ok {
			counts["none"]++
			s.list()
			t.Logf("no form: %v a=%v b=%v scale=%v zp=%v relu %d [%d, %d] thresholds %v values %v", spec, a, b, scale, zp, f.reluCount(), lo, hi, s.thresholds, s.values)
			continue
		}
		counts[name]++
		nlo, nhi := s.bounds()
		for v := lo; v <= hi; v++ {
			want := s.n(v)
			got := form(v)
			if got.Cmp(nlo) < 0 {
				got = nlo
			}
			if got.Cmp(nhi) > 0 {
				got = nhi
			}
			if got.Cmp(want) != 0 {
				t.Fatalf("case %d (%s, %s, a=%v b=%v scale=%v zp=%v, relu %d, [%d, %d]): at %d form %s, step function %s", c, name, fmt.Sprint(spec), a, b, scale, zp, f.reluCount(), lo, hi, v, got, want)
			}
		}
	}
	t.Logf("forms chosen: %v", counts)
	if counts["none"] > 0 {
		t.Errorf("%d step functions without a form", counts["none"])
	}
}

// chooseForm is stepNodes' choice for one element, as a function of the
// code before the clamp.
func chooseForm(x *val, qs []*quantizer, sts []*steps) (string, func(int64) *big.Int, bool) {
	if ls, ok := closedForms(x, qs); ok {
		return "closed", ls[0].at, true
	}
	if ls, ok := fitAll(sts); ok && !anyWavy(sts) {
		return "fitted", ls[0].at, true
	}
	if ls, err := halfEvenForms(x, qs); err == nil {
		l := ls[0]
		return "half-even", func(v int64) *big.Int {
			y := new(big.Int).Add(new(big.Int).Mul(l.M, big.NewInt(v)), l.C)
			bit := new(big.Int).Rsh(y, l.K).Bit(0)
			y.Add(y, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), l.K-1), big.NewInt(1)))
			y.Add(y, big.NewInt(int64(bit)))
			return y.Rsh(y, l.K)
		}, true
	}
	ps, ok := piecesOf(sts[0], maxPieces)
	if !ok {
		return "", nil, false
	}
	return "runs", func(v int64) *big.Int {
		sum := new(big.Int)
		for j, p := range ps {
			y := p.lin.at(v)
			if y.Cmp(p.lo) < 0 {
				y = new(big.Int).Set(p.lo)
			}
			if y.Cmp(p.hi) > 0 {
				y = new(big.Int).Set(p.hi)
			}
			sum.Add(sum, y)
			if j > 0 {
				sum.Sub(sum, p.start)
			}
		}
		return sum
	}, true
}

// TestProductStepsExhaustive checks productSteps and the runs of its wavy
// step functions against every code of small ranges: quantizers (every
// mode, signed and unsigned, fine and coarse scales) of x·HardSigmoid(x)
// (HardSwish) and x·sigmoid(x) (SiLU) of a random affine map x of the
// code, sometimes scaled after the product. The thresholds must be the
// scan's, and the runs' sum the step function at every code.
func TestProductStepsExhaustive(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 4))
	sigmoid := &curve{name: "sigmoid", f: func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }}
	counts := map[string]int{}
	for c := range 400 {
		lo := int64(-rng.IntN(600))
		hi := lo + int64(rng.IntN(900))
		a := float64(float32(math.Abs(rng.NormFloat64()) / 40))
		if rng.IntN(4) == 0 {
			a = -a
		}
		x := elemFn{{a: ratOf(a), b: ratOf(float64(float32(rng.NormFloat64() * 2)))}}
		var g elemFn
		swish := rng.IntN(2) == 0
		if swish { // max(min(x/6 + 1/2, 1), 0), as the importer writes HardSigmoid
			one := big.NewRat(1, 1)
			g = x.then(ratOf(1.0/6), big.NewRat(1, 2)).then(big.NewRat(-1, 1), one).thenRelu().then(big.NewRat(-1, 1), one).thenRelu()
		} else {
			g = append(x[:len(x):len(x)], fnStep{curve: sigmoid})
		}
		f := elemFn{{prod: &product{f: x, g: g}}}
		if rng.IntN(3) == 0 {
			f = f.then(ratOf(float64(float32(rng.NormFloat64()))), new(big.Rat))
		}
		spec := nn.QuantSpec{Bits: int64(2 + rng.IntN(7)), Signed: rng.IntN(3) != 0, Rounding: nn.RoundingModes[rng.IntN(len(nn.RoundingModes))]}
		q := newQuantizer(kQuant, spec, float64(float32(0.01+rng.Float64()/4)), 0, 0)
		s := productSteps(f, q.code, lo, hi)
		var want []int64
		for v := lo + 1; v <= hi; v++ {
			if s.n(v).Cmp(s.n(v-1)) != 0 {
				want = append(want, v)
			}
		}
		if fmt.Sprint(want) != fmt.Sprint(s.thresholds) {
			t.Fatalf("case %d: thresholds %v, the scan's %v", c, s.thresholds, want)
		}
		name, form, ok := chooseForm(&val{lo: lo, hi: hi, fn: []elemFn{f}}, []*quantizer{q}, []*steps{s})
		if !ok {
			counts["none"]++
			continue
		}
		turns := 0
		for i := 1; i < len(s.values); i++ {
			prev := s.first
			if i > 1 {
				prev = s.values[i-2]
			}
			if (s.values[i].Cmp(s.values[i-1]) > 0) != (s.values[i-1].Cmp(prev) > 0) {
				turns++
			}
		}
		counts[fmt.Sprintf("%s, swish %v, turns %v", name, swish, turns > 0)]++
		nlo, nhi := s.bounds()
		for v := lo; v <= hi; v++ {
			got := form(v)
			got = intrange.Min(intrange.Max(got, nlo), nhi)
			if want := s.n(v); got.Cmp(want) != 0 {
				t.Fatalf("case %d (%s, %v, [%d, %d]): at %d form %s, step function %s", c, name, spec, lo, hi, v, got, want)
			}
		}
	}
	t.Logf("forms chosen: %v", counts)
	if counts["runs, swish true, turns true"] < 30 || counts["runs, swish false, turns true"] < 30 {
		t.Errorf("too few step functions that turn: %v", counts)
	}
}

// TestThresholdForms checks nn.multithreshold's quantizer and its forms at
// every code of small ranges: thresholds drawn among the values the codes
// reach (ties: x ≥ t counts) and between them, repeated, unsorted, ±inf,
// one to 15 of them, of dyadic affine maps of the code (so that each value
// is exact in float64). The code must be nn.Count's (the evaluator's), and
// the form chosen the step function.
func TestThresholdForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 5))
	counts := map[string]int{}
	for c := range 300 {
		lo := int64(-rng.IntN(300))
		hi := lo + int64(rng.IntN(600))
		a := math.Ldexp(float64(rng.IntN(9)-4), -rng.IntN(6))
		b := math.Ldexp(float64(rng.IntN(65)-32), -rng.IntN(4))
		f := elemFn{{a: ratOf(a), b: ratOf(b)}}
		row := make([]float64, 1+rng.IntN(15))
		for i := range row {
			v := a*float64(lo+rng.Int64N(hi-lo+1)) + b // a value some code reaches
			switch rng.IntN(6) {
			case 0:
				v += math.Ldexp(1, -8) // between codes
			case 1:
				v = math.Inf(2*rng.IntN(2) - 1)
			case 2:
				if i > 0 {
					v = row[i-1] // repeated
				}
			}
			row[i] = v
		}
		m := nn.MultiThreshold{Axis: 1, OutScale: float64(rng.IntN(5)) / 2, OutBias: float64(rng.IntN(9) - 4)}
		q := newThresholdQuantizer(m, row)
		s := findSteps(func(c int64) *big.Int { return q.code(f.eval(ratInt(c))) }, lo, hi)
		for v := lo; v <= hi; v++ {
			x := a*float64(v) + b
			if got, want := s.n(v).Int64(), int64(nn.Count(x, row)); got != want {
				t.Fatalf("case %d: code %d (value %v) reaches %d thresholds of %v, nn.Count %d", c, v, x, got, row, want)
			}
			if got, want := q.value(x), m.Value(nn.Count(x, row)); got != want {
				t.Fatalf("case %d: value %v, the evaluator's %v", c, got, want)
			}
		}
		name, form, ok := chooseForm(&val{lo: lo, hi: hi, fn: []elemFn{f}}, []*quantizer{q}, []*steps{s})
		if !ok {
			t.Fatalf("case %d: no form for thresholds %v of %v·code + %v on [%d, %d]", c, row, a, b, lo, hi)
		}
		counts[name]++
		nlo, nhi := s.bounds()
		for v := lo; v <= hi; v++ {
			if got := intrange.Min(intrange.Max(form(v), nlo), nhi); got.Cmp(s.n(v)) != 0 {
				t.Fatalf("case %d (%s): at %d form %s, step function %s", c, name, v, got, s.n(v))
			}
		}
	}
	t.Logf("forms chosen: %v", counts)
}
