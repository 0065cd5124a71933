package exec

import (
	"fmt"
	"math/big"
	"math/rand"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
)

// The reference formulas below use math/big directly and independently of
// the executor's fast paths: wrap modulo 2^w, floor and truncating division
// through Euclidean division, reinterpretation for the _s/_u operations.

func refWrap(x *big.Int, w int, signed bool) *big.Int {
	m := new(big.Int).Lsh(big.NewInt(1), uint(w))
	r := new(big.Int).Mod(x, m) // Euclidean: in [0, 2^w)
	if signed && r.Cmp(new(big.Int).Rsh(m, 1)) >= 0 {
		r.Sub(r, m)
	}
	return r
}

// refFloorDiv is floor(a/b) built from Euclidean division (0 <= r < |b|).
func refFloorDiv(a, b *big.Int) *big.Int {
	q, r := new(big.Int).DivMod(a, b, new(big.Int))
	if b.Sign() < 0 && r.Sign() != 0 {
		q.Sub(q, big.NewInt(1))
	}
	return q
}

// refTruncDiv is C's (and LLVM sdiv's) a/b: the quotient of the magnitudes
// (Euclidean division of |a| by |b|), negated when the signs differ, so it
// rounds toward zero.
func refTruncDiv(a, b *big.Int) *big.Int {
	q, _ := new(big.Int).DivMod(new(big.Int).Abs(a), new(big.Int).Abs(b), new(big.Int))
	if a.Sign()*b.Sign() < 0 {
		q.Neg(q)
	}
	return q
}

// refTruncRem is C's a%b = a - b*(a/b): zero or the dividend's sign.
func refTruncRem(a, b *big.Int) *big.Int {
	return new(big.Int).Sub(a, new(big.Int).Mul(b, refTruncDiv(a, b)))
}

// typeValues lists interesting values of an integer type: its extremes,
// values around zero and a few random ones.
func typeValues(t *ir.IntType, rng *rand.Rand) []*big.Int {
	w := t.Width
	var lo, hi *big.Int
	if t.Signed {
		hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w-1)), big.NewInt(1))
		lo = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(w-1)))
	} else {
		hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))
		lo = big.NewInt(0)
	}
	cands := []*big.Int{lo, new(big.Int).Add(lo, big.NewInt(1)), big.NewInt(-1), big.NewInt(0), big.NewInt(1),
		big.NewInt(2), big.NewInt(3), big.NewInt(-7), new(big.Int).Sub(hi, big.NewInt(1)), hi}
	for i := 0; i < 3; i++ {
		r := new(big.Int).Rand(rng, new(big.Int).Add(new(big.Int).Sub(hi, lo), big.NewInt(1)))
		cands = append(cands, r.Add(r, lo))
	}
	var out []*big.Int
	seen := map[string]bool{}
	for _, c := range cands {
		if c.Cmp(lo) >= 0 && c.Cmp(hi) <= 0 && !seen[c.String()] {
			seen[c.String()] = true
			out = append(out, c)
		}
	}
	return out
}

var widthTypes = func() []*ir.IntType {
	var ts []*ir.IntType
	for _, w := range []int{1, 7, 8, 33, 64, 65, 128, 1024} {
		if w > 1 {
			ts = append(ts, ir.Int(w, true))
		}
		ts = append(ts, ir.Int(w, false))
	}
	return ts
}()

// binCase is one binary operation with its reference; ref returns nil when
// the pair is outside the operation's domain (division by zero).
type binCase struct {
	name string
	ref  func(a, b *big.Int, t *ir.IntType) *big.Int
}

func binCases() []binCase {
	s := func(x *big.Int, t *ir.IntType) *big.Int { return refWrap(x, t.Width, true) }
	u := func(x *big.Int, t *ir.IntType) *big.Int { return refWrap(x, t.Width, false) }
	div := func(read func(*big.Int, *ir.IntType) *big.Int, rem bool) func(a, b *big.Int, t *ir.IntType) *big.Int {
		return func(a, b *big.Int, t *ir.IntType) *big.Int {
			x, y := read(a, t), read(b, t)
			if y.Sign() == 0 {
				return nil
			}
			if rem {
				return refTruncRem(x, y)
			}
			return refTruncDiv(x, y)
		}
	}
	return []binCase{
		{otir.OpAdd, func(a, b *big.Int, _ *ir.IntType) *big.Int { return new(big.Int).Add(a, b) }},
		{otir.OpSub, func(a, b *big.Int, _ *ir.IntType) *big.Int { return new(big.Int).Sub(a, b) }},
		{otir.OpMul, func(a, b *big.Int, _ *ir.IntType) *big.Int { return new(big.Int).Mul(a, b) }},
		{otir.OpDivS, div(s, false)}, {otir.OpDivU, div(u, false)},
		{otir.OpRemS, div(s, true)}, {otir.OpRemU, div(u, true)},
		{otir.OpAnd, func(a, b *big.Int, _ *ir.IntType) *big.Int { return new(big.Int).And(a, b) }},
		{otir.OpOr, func(a, b *big.Int, _ *ir.IntType) *big.Int { return new(big.Int).Or(a, b) }},
		{otir.OpXor, func(a, b *big.Int, _ *ir.IntType) *big.Int { return new(big.Int).Xor(a, b) }},
		{otir.OpMax, func(a, b *big.Int, _ *ir.IntType) *big.Int {
			if a.Cmp(b) >= 0 {
				return a
			}
			return b
		}},
		{otir.OpMin, func(a, b *big.Int, _ *ir.IntType) *big.Int {
			if a.Cmp(b) <= 0 {
				return a
			}
			return b
		}},
	}
}

// runBinary runs "op %a, %b : (T, T) -> R" element-wise over all pairs of
// values and returns the results (the pairs are listed in as, bs).
func runBinary(t *testing.T, name string, attrs ir.Attrs, T, R ir.Type, as, bs []*big.Int) *Buffer {
	t.Helper()
	n := int64(len(as))
	in := fmt.Sprintf("!otir.tile<%dx%s, #global>", n, T)
	out := fmt.Sprintf("!otir.tile<%dx%s, #global>", n, R)
	x := newKB(t, nil, "a: "+in, "b: "+in, "c: "+out)
	priv := fmt.Sprintf("!otir.tile<%dx%s, #private>", n, T)
	la := x.load(x.arg("a"), priv)
	lb := x.load(x.arg("b"), priv)
	r := x.op(name, fmt.Sprintf("!otir.tile<%dx%s, #private>", n, R), attrs, la, lb)
	x.store(r, x.arg("c"))
	m := x.done()
	A, B := NewBuffer(T, n), NewBuffer(T, n)
	for i := range as {
		if err := A.SetInt(i, as[i]); err != nil {
			t.Fatal(err)
		}
		if err := B.SetInt(i, bs[i]); err != nil {
			t.Fatal(err)
		}
	}
	res := run(t, m, Options{}, A, B, NewBuffer(R, n))
	return res.Output("c")
}

// TestIntArithmeticWidths checks every integer binary operation at widths 1
// to 1024 in both signednesses, wrapping into the operand type and exact
// into a wider result type, against math/big references.
func TestIntArithmeticWidths(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, T := range widthTypes {
		vals := typeValues(T, rng)
		for _, bc := range binCases() {
			var as, bs []*big.Int
			for _, a := range vals {
				for _, b := range vals {
					if bc.ref(a, b, T) != nil {
						as, bs = append(as, a), append(bs, b)
					}
				}
			}
			for _, R := range []*ir.IntType{T, ir.Int(2*T.Width+2, true)} {
				t.Run(fmt.Sprintf("%s/%s->%s", bc.name[5:], T, R), func(t *testing.T) {
					got := runBinary(t, bc.name, nil, T, R, as, bs)
					for i := range as {
						want := refWrap(bc.ref(as[i], bs[i], T), R.Width, R.Signed)
						if g := got.BigAt(i); g.Cmp(want) != 0 {
							t.Fatalf("%s(%s, %s) : %s -> %s = %s, want %s", bc.name, as[i], bs[i], T, R, g, want)
						}
					}
				})
			}
		}
	}
}

// TestShiftsWidths checks shl, shr_s and shr_u with amounts below, at and
// beyond the width.
func TestShiftsWidths(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, T := range widthTypes {
		vals := typeValues(T, rng)
		var amounts []*big.Int
		for _, s := range []int{0, 1, 2, T.Width - 1, T.Width, T.Width + 1, 2*T.Width + 5} {
			v := big.NewInt(int64(s))
			if inRange(bigNum(v), T) {
				amounts = append(amounts, v)
			}
		}
		var as, bs []*big.Int
		for _, a := range vals {
			for _, s := range amounts {
				as, bs = append(as, a), append(bs, s)
			}
		}
		for _, name := range []string{otir.OpShl, otir.OpShrS, otir.OpShrU} {
			t.Run(fmt.Sprintf("%s/%s", name[5:], T), func(t *testing.T) {
				got := runBinary(t, name, nil, T, T, as, bs)
				for i := range as {
					a, s := as[i], uint(bs[i].Int64())
					var want *big.Int
					switch name {
					case otir.OpShl:
						want = new(big.Int).Lsh(a, s)
					case otir.OpShrS:
						want = refFloorDiv(refWrap(a, T.Width, true), new(big.Int).Lsh(big.NewInt(1), s))
					default:
						want = refFloorDiv(refWrap(a, T.Width, false), new(big.Int).Lsh(big.NewInt(1), s))
					}
					want = refWrap(want, T.Width, T.Signed)
					if g := got.BigAt(i); g.Cmp(want) != 0 {
						t.Fatalf("%s(%s, %d) : %s = %s, want %s", name, a, s, T, g, want)
					}
				}
			})
		}
	}
}

// TestCmpWidths checks every integer predicate, signed and unsigned readings.
func TestCmpWidths(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, T := range widthTypes {
		vals := typeValues(T, rng)
		var as, bs []*big.Int
		for _, a := range vals {
			for _, b := range vals {
				as, bs = append(as, a), append(bs, b)
			}
		}
		for _, pred := range otir.CmpPredicates {
			if pred[0] == 'o' {
				continue // ordered predicates compare floats (TestFloatCmp)
			}
			t.Run(fmt.Sprintf("%s/%s", pred, T), func(t *testing.T) {
				got := runBinary(t, otir.OpCmp, ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: pred}}}, T, ir.Bool(), as, bs)
				for i := range as {
					a, b := as[i], bs[i]
					switch pred[0] {
					case 's':
						a, b = refWrap(a, T.Width, true), refWrap(b, T.Width, true)
					case 'u':
						a, b = refWrap(a, T.Width, false), refWrap(b, T.Width, false)
					}
					c := a.Cmp(b)
					rel := pred
					if len(pred) == 3 {
						rel = pred[1:]
					}
					want := map[string]bool{"eq": c == 0, "ne": c != 0, "lt": c < 0, "le": c <= 0, "gt": c > 0, "ge": c >= 0}[rel]
					if g := got.BigAt(i).Sign() != 0; g != want {
						t.Fatalf("cmp %s(%s, %s) : %s = %v, want %v", pred, as[i], bs[i], T, g, want)
					}
				}
			})
		}
	}
}

// TestUnaryAndCastWidths checks neg, abs, not and casts between every pair
// of the widths (wrapping).
func TestUnaryAndCastWidths(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, T := range widthTypes {
		vals := typeValues(T, rng)
		n := int64(len(vals))
		targets := append([]*ir.IntType{}, widthTypes...)
		cases := []struct {
			name string
			ref  func(*big.Int) *big.Int
		}{
			{otir.OpNeg, func(a *big.Int) *big.Int { return new(big.Int).Neg(a) }},
			{otir.OpAbs, func(a *big.Int) *big.Int { return new(big.Int).Abs(a) }},
			{otir.OpNot, func(a *big.Int) *big.Int { return new(big.Int).Not(a) }},
			{otir.OpCast, func(a *big.Int) *big.Int { return a }},
		}
		for _, c := range cases {
			rs := []*ir.IntType{T}
			if c.name == otir.OpCast {
				rs = targets
			}
			for _, R := range rs {
				t.Run(fmt.Sprintf("%s/%s->%s", c.name[5:], T, R), func(t *testing.T) {
					x := newKB(t, nil, fmt.Sprintf("a: !otir.tile<%dx%s, #global>", n, T), fmt.Sprintf("c: !otir.tile<%dx%s, #global>", n, R))
					la := x.load(x.arg("a"), fmt.Sprintf("!otir.tile<%dx%s, #private>", n, T))
					r := x.op(c.name, fmt.Sprintf("!otir.tile<%dx%s, #private>", n, R), nil, la)
					x.store(r, x.arg("c"))
					A := NewBuffer(T, n)
					for i, v := range vals {
						_ = A.SetInt(i, v)
					}
					got := run(t, x.done(), Options{}, A, NewBuffer(R, n)).Output("c")
					for i, v := range vals {
						want := refWrap(c.ref(v), R.Width, R.Signed)
						if g := got.BigAt(i); g.Cmp(want) != 0 {
							t.Fatalf("%s(%s) : %s -> %s = %s, want %s", c.name, v, T, R, g, want)
						}
					}
				})
			}
		}
	}
}

// TestNumFastPathMatchesBig checks the int64 fast paths of the exact
// operations against math/big on values near the int64 limits.
func TestNumFastPathMatchesBig(t *testing.T) {
	edge := []int64{0, 1, -1, 2, -2, 1 << 31, -(1 << 31), 1<<62 + 5, -(1 << 62), 1<<63 - 1, -1 << 63, 3037000499, -3037000500}
	for _, a := range edge {
		for _, b := range edge {
			A, B := big.NewInt(a), big.NewInt(b)
			checks := []struct {
				name string
				got  num
				want *big.Int
			}{
				{"add", addInt(intNum(a), intNum(b)), new(big.Int).Add(A, B)},
				{"sub", subInt(intNum(a), intNum(b)), new(big.Int).Sub(A, B)},
				{"mul", mulInt(intNum(a), intNum(b)), new(big.Int).Mul(A, B)},
				{"neg", negInt(intNum(a)), new(big.Int).Neg(A)},
			}
			if b != 0 {
				q, r := truncDivMod(intNum(a), intNum(b))
				fq, _ := floorDivMod(intNum(a), intNum(b))
				checks = append(checks, struct {
					name string
					got  num
					want *big.Int
				}{"div", q, refTruncDiv(A, B)}, struct {
					name string
					got  num
					want *big.Int
				}{"rem", r, refTruncRem(A, B)}, struct {
					name string
					got  num
					want *big.Int
				}{"floordiv", fq, refFloorDiv(A, B)})
			}
			for _, c := range checks {
				if c.got.big().Cmp(c.want) != 0 {
					t.Errorf("%s(%d, %d) = %s, want %s", c.name, a, b, c.got, c.want)
				}
			}
		}
	}
}

// TestSignedDivisionTruncates pins div_s/rem_s on the sign cases, by hand
// from the C/LLVM definition (design section 4): the quotient rounds toward
// zero and a%b = a - b*(a/b) takes the dividend's sign. INT_MIN / -1 is the
// exact 128, which wraps to -128 in i8 and is kept in i9. div_u/rem_u read
// the same bits as unsigned (249 = -7 as u8, 254 = -2).
func TestSignedDivisionTruncates(t *testing.T) {
	i8, i9 := ir.Int(8, true), ir.Int(9, true)
	as := []int64{7, 7, -7, -7, -128, -128, 127, -127, 6, -6}
	bs := []int64{2, -2, 2, -2, -1, 3, -3, 2, -3, 4}
	cases := []struct {
		op   string
		R    *ir.IntType
		want []int64
	}{
		{otir.OpDivS, i8, []int64{3, -3, -3, 3, -128, -42, -42, -63, -2, -1}},
		{otir.OpRemS, i8, []int64{1, 1, -1, -1, 0, -2, 1, -1, 0, -2}},
		{otir.OpDivS, i9, []int64{3, -3, -3, 3, 128, -42, -42, -63, -2, -1}},
		{otir.OpRemS, i9, []int64{1, 1, -1, -1, 0, -2, 1, -1, 0, -2}},
		// Unsigned readings: 7/254 = 0, 249/2 = 124 r 1, 249/254 = 0 r 249
		// (-7 as i8), 128/255 = 0 r 128 (-128), 128/3 = 42 r 2, 127/253 = 0,
		// 129/2 = 64 r 1, 6/253 = 0, 250/4 = 62 r 2.
		{otir.OpDivU, i8, []int64{3, 0, 124, 0, 0, 42, 0, 64, 0, 62}},
		{otir.OpRemU, i8, []int64{1, 7, 1, -7, -128, 2, 127, 1, 6, 2}},
	}
	for _, c := range cases {
		var A, B []*big.Int
		for i := range as {
			A, B = append(A, big.NewInt(as[i])), append(B, big.NewInt(bs[i]))
		}
		got := runBinary(t, c.op, nil, i8, c.R, A, B)
		for i := range as {
			if g := got.BigAt(i); g.Cmp(big.NewInt(c.want[i])) != 0 {
				t.Errorf("%d %s %d : i8 -> %s = %s, want %d", as[i], c.op, bs[i], c.R, g, c.want[i])
			}
		}
	}
}
