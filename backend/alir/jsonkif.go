package alir

import (
	"math"
)

// alkaid reads the type of a JSON interval with float32 arithmetic
// (alir_kif.hh, minimal_kif: ceil_log2 of float32(max(|min/step|,
// max/step + 1))), so an interval of more than 2^24 steps just above a
// power of two reads as one bit narrower than the exact rule gives (2^31 +
// 128 rounds to 2^31). The JSON reader follows alkaid, so that a file means
// what alkaid's interpreter computes; the writer writes such an interval
// as its type's whole range, whose power-of-two bounds both rules read
// alike.

// alkaidKIF returns the type alkaid's JSON loader gives interval q, which
// must be valid.
func alkaidKIF(q QInterval) KIF {
	if q.Min == 0 && q.Max == 0 {
		return KIF{}
	}
	f := -iceilLog2F32(float32(q.Step))
	lo := math.Round(q.Min / q.Step) // llround: to nearest, ties away from 0
	hi := math.Round(q.Max / q.Step)
	arg := math.Max(math.Abs(lo), hi+1)
	bits := 0
	if arg > 0 {
		bits = iceilLog2F32(float32(arg))
	}
	return KIF{Signed: q.Min < 0, Integers: bits - f, Fractionals: f}
}

// iceilLog2F32 is alkaid's iceil_log2_f32: the exponent of x, plus one
// unless x is a power of two.
func iceilLog2F32(x float32) int {
	bits := math.Float32bits(x)
	exp := int((bits >> 23) & 0xFF)
	n := exp - 127
	if bits&0x7FFFFF != 0 {
		n++
	}
	return n
}

// alkaidInterval returns the interval of type t that alkaid reads as t: q
// itself when alkaid's rule agrees with the exact one, else t's whole
// range (keepMin: only max may change, for a lookup operand whose min sets
// the table's pad; false when that is not enough).
func alkaidInterval(q QInterval, t KIF, keepMin bool) (QInterval, bool) {
	if alkaidKIF(q) == t {
		return q, true
	}
	full := t.QInterval()
	if keepMin {
		full.Min = q.Min
	}
	return full, alkaidKIF(full) == t
}

// readAlkaidIntervals gives every op of a program read from JSON the type
// alkaid's loader gives it: an interval that alkaid reads as a narrower
// type is cut to that type's range. The values the file means are those of
// the narrower type (alkaid masks to it where an op wraps, and reads mux
// conditions, lookups and bit operations at its width).
func (p *Program) readAlkaidIntervals() error {
	lookupOperand := map[int32]bool{}
	for _, op := range p.Ops {
		if op.Opcode == OpLookup {
			lookupOperand[op.ID0] = true
		}
	}
	for i := range p.Ops {
		q := p.Ops[i].QInt
		exact, err := q.KIF()
		if err != nil {
			continue // Validate reports it
		}
		ak := alkaidKIF(q)
		if ak == exact {
			continue
		}
		r := ak.QInterval()
		r.Min, r.Max = math.Max(r.Min, q.Min), math.Min(r.Max, q.Max)
		if r.Min > r.Max {
			r = ak.QInterval()
		}
		if lookupOperand[int32(i)] && r.Min != q.Min {
			return p.opErr(i, "interval %v reads as type %v in alkaid (float32 rounding) but %v exactly, and it sets a lookup's pad", q, ak, exact)
		}
		if t, err := r.KIF(); err != nil || t != ak {
			return p.opErr(i, "interval %v reads as type %v in alkaid (float32 rounding), which has no interval", q, ak)
		}
		p.Ops[i].QInt = r
	}
	return nil
}

// writeInterval returns the interval the JSON writer writes for op i of
// type t.
func (p *Program) writeInterval(i int, t KIF, lookupOperand bool) (QInterval, error) {
	q, ok := alkaidInterval(p.Ops[i].QInt, t, lookupOperand)
	if !ok {
		return q, p.opErr(i, "interval %v would read as type %v in alkaid's JSON loader (float32 rounding), not %v, and it sets a lookup's pad", p.Ops[i].QInt, alkaidKIF(p.Ops[i].QInt), t)
	}
	return q, nil
}
