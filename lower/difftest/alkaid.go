package difftest

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/otir-dev/otir/backend/alir"
)

// errUnsigned64 is runAlkaid's answer for a program with an unsigned 64-bit
// type: alkaid's interpreter keeps such values as int64 bit patterns and
// prints those from 2^63 up as negative numbers, so it cannot be compared.
var errUnsigned64 = errors.New("an unsigned 64-bit type, whose values from 2^63 up alkaid's int64 interpreter reads as negative")

// runAlkaid evaluates an ALIR spec 2 program the way alkaid's C++
// interpreter does (alir_kernels.hh and ALIRInterpreter_transpile.cc at
// the last spec 2 commit), written again from that code and independent of
// backend/alir: 64-bit integer slots, adders that shift their exact sum
// right by max(fa, fb-s) - f and never wrap, negation and products of raw
// values, and only input, relu, quantize and mux masked to their width. Where
// the C++ code would be undefined (a negative or 64-bit shift, an int64
// overflow) it returns an error instead of a value: a lowered program must
// never get there.
func runAlkaid(p *alir.Program, in []float64, n int) ([]float64, error) {
	if p.Dialect != alir.ALIR {
		return nil, fmt.Errorf("not an ALIR program")
	}
	for _, op := range p.Ops {
		if t, err := op.QInt.KIF(); err == nil && !t.Signed && t.Width() == 64 {
			return nil, errUnsigned64
		}
	}
	type dtype struct {
		signed bool
		w, f   int
	}
	dt := make([]dtype, len(p.Ops))
	for i, op := range p.Ops {
		t, err := op.QInt.KIF()
		if err != nil {
			return nil, err
		}
		dt[i] = dtype{t.Signed, t.Width(), t.Fractionals}
	}
	fail := func(i int, what string) error {
		return fmt.Errorf("op %d (opcode %d): alkaid's interpreter is undefined here: %s", i, p.Ops[i].Opcode, what)
	}
	shl := func(i int, v int64, s int) (int64, error) {
		if s < 0 || s >= 64 {
			return 0, fail(i, fmt.Sprintf("shift by %d", s))
		}
		r := v << s
		if r>>s != v {
			return 0, fail(i, "a left shift overflows int64")
		}
		return r, nil
	}
	sar := func(i int, v int64, s int) (int64, error) {
		if s < 0 || s >= 64 {
			return 0, fail(i, fmt.Sprintf("shift by %d", s))
		}
		return v >> s, nil
	}
	addv := func(i int, a, b int64) (int64, error) {
		r := a + b
		if (a >= 0) == (b >= 0) && (r >= 0) != (a >= 0) {
			return 0, fail(i, "an addition overflows int64")
		}
		return r, nil
	}
	reduce := func(v int64, d dtype) int64 { // mask, then sign-extend
		if d.w >= 64 {
			return v
		}
		mask := int64(1)<<d.w - 1
		v &= mask
		if d.signed && d.w > 0 {
			sign := int64(1) << (d.w - 1)
			v = (v ^ sign) - sign
		}
		return v
	}
	nIn, nOut := p.NumInputs(), p.NumOutputs()
	out := make([]float64, n*nOut)
	buf := make([]int64, len(p.Ops))
	for s := range n {
		row := in[s*nIn : (s+1)*nIn]
		for i, op := range p.Ops {
			d := dt[i]
			var v int64
			var err error
			switch op.Opcode {
			case alir.OpInput:
				x := math.Floor(row[op.ID0] * math.Ldexp(1, int(p.InShifts[op.ID0])+d.f))
				if !(x >= -0x1p63 && x < 0x1p63) {
					return nil, fail(i, "the input does not fit int64")
				}
				v = reduce(int64(x), d)
			case alir.OpNeg:
				if buf[op.ID0] == math.MinInt64 {
					return nil, fail(i, "negation overflows")
				}
				v = -buf[op.ID0]
			case alir.OpAdd, alir.OpSub:
				d0, d1 := dt[op.ID0], dt[op.ID1]
				sh := int(op.DataLow())
				actual := sh + d0.f - d1.f
				global := max(d0.f, d1.f-sh) - d.f
				a, b := buf[op.ID0], buf[op.ID1]
				if op.Opcode == alir.OpSub {
					if b == math.MinInt64 {
						return nil, fail(i, "negation overflows")
					}
					b = -b
				}
				if actual >= 0 {
					b, err = shl(i, b, actual)
				} else {
					a, err = shl(i, a, -actual)
				}
				if err == nil {
					if v, err = addv(i, a, b); err == nil {
						v, err = sar(i, v, global)
					}
				}
			case alir.OpReLU, alir.OpQuantize:
				v = buf[op.ID0]
				if op.Opcode == alir.OpReLU && v < 0 {
					v = 0
				}
				if v, err = sar(i, v, dt[op.ID0].f-op.RelShift()-d.f); err == nil {
					v = reduce(v, d)
				}
			case alir.OpSum: // spec 4 opcode 11 (ALIRInterpreter_transpile.cc, op_sum)
				c := math.MinInt
				for _, t := range op.Terms {
					c = max(c, dt[t.ID].f-int(t.Shift))
				}
				for _, t := range op.Terms {
					x, serr := shl(i, buf[t.ID], c-(dt[t.ID].f-int(t.Shift)))
					if serr == nil && t.Neg {
						if x == math.MinInt64 {
							serr = fail(i, "negation overflows")
						}
						x = -x
					}
					if serr == nil {
						v, serr = addv(i, v, x)
					}
					if serr != nil {
						err = serr
						break
					}
				}
				if err == nil {
					if g := c - d.f; g >= 0 {
						v, err = sar(i, v, g)
					} else {
						v, err = shl(i, v, -g)
					}
				}
			case alir.OpConstAdd:
				d0 := dt[op.ID0]
				actual := -int(op.DataHigh()) + d0.f
				global := max(d0.f, int(op.DataHigh())) - d.f
				a, k := buf[op.ID0], int64(op.DataLow())
				if actual >= 0 {
					k, err = shl(i, k, actual)
				} else {
					a, err = shl(i, a, -actual)
				}
				if err == nil {
					if v, err = addv(i, a, k); err == nil {
						v, err = sar(i, v, global)
					}
				}
			case alir.OpConst:
				v = op.Data
			case alir.OpMux:
				c := op.DataLow()
				s0, s1 := d.f-dt[op.ID0].f, d.f-dt[op.ID1].f+int(op.DataHigh())
				if s0 != 0 && s1 != 0 {
					return nil, fail(i, "both mux shifts are nonzero (alkaid throws)")
				}
				wc := dt[c].w
				if wc < 1 || wc > 64 {
					return nil, fail(i, "a condition of width 0")
				}
				if (buf[c]>>(wc-1))&1 == 1 {
					v, err = shl(i, buf[op.ID0], s0)
				} else {
					v, err = shl(i, buf[op.ID1], s1)
				}
				v = reduce(v, d)
			case alir.OpMul:
				hi, lo := bits.Mul64(uint64(buf[op.ID0]), uint64(buf[op.ID1]))
				v = int64(lo)
				// The signed product fits int64 when its high word is the
				// sign extension of the low one.
				adj := hi
				if buf[op.ID0] < 0 {
					adj -= uint64(buf[op.ID1])
				}
				if buf[op.ID1] < 0 {
					adj -= uint64(buf[op.ID0])
				}
				if int64(adj) != v>>63 {
					return nil, fail(i, "a product overflows int64")
				}
			case alir.OpLookup:
				d0 := dt[op.ID0]
				pad, perr := p.LookupPad(i)
				if perr != nil {
					return nil, perr
				}
				var sign int64
				if d0.signed {
					sign = int64(1) << (d0.w - 1)
				}
				idx := buf[op.ID0] - (-sign + pad)
				tab := p.Tables[op.Data].Values
				if idx < 0 || idx >= int64(len(tab)) {
					return nil, fail(i, "a lookup index out of its table (alkaid throws)")
				}
				v = int64(tab[idx])
			case alir.OpBitUnary:
				w0 := dt[op.ID0].w
				mask := int64(-1)
				if w0 < 64 {
					mask = int64(1)<<w0 - 1
				}
				a := buf[op.ID0]
				switch op.Data {
				case alir.BitNot:
					v = ^a
					if !d.signed {
						v &= mask
					}
				case alir.BitReduceAny:
					if a != 0 {
						v = 1
					}
				default:
					if a&mask == mask {
						v = 1
					}
				}
			case alir.OpBitBinary:
				actual := int(op.DataLow()) + dt[op.ID0].f - dt[op.ID1].f
				a, b := buf[op.ID0], buf[op.ID1]
				if actual > 0 {
					b, err = shl(i, b, actual)
				} else {
					a, err = shl(i, a, -actual)
				}
				switch uint64(op.Data) >> 56 {
				case alir.BitAnd:
					v = a & b
				case alir.BitOr:
					v = a | b
				default:
					v = a ^ b
				}
			default:
				return nil, fail(i, "an opcode alkaid's spec 2 interpreter does not know")
			}
			if err != nil {
				return nil, err
			}
			buf[i] = v
		}
		for j, o := range p.Outputs {
			if o.Index < 0 {
				continue
			}
			v := buf[o.Index]
			if o.Neg {
				v = -v
			}
			out[s*nOut+j] = float64(v) * math.Ldexp(1, int(o.Shift)-dt[o.Index].f)
		}
	}
	return out, nil
}
