package alir

import (
	"fmt"
	"math/big"
)

// Convert returns p in dialect to. Operations map one to one, so conversion
// works only where each has an equivalent:
//
//   - ALIR -2 (-a) is DAIS -3 (quantize(-a)) and back;
//   - ALIR 4 adds DataLow*2^-DataHigh, DAIS 4 adds Data*step of the result:
//     the constant must be representable in the other form;
//   - DAIS -2 (relu(-a)), -6 and -9 have no ALIR equivalent.
//
// If p already is in dialect to, Convert returns p itself.
func Convert(p *Program, to Dialect) (*Program, error) {
	if p.Dialect == to {
		return p, nil
	}
	if to != ALIR && to != DAIS {
		return nil, fmt.Errorf("unknown dialect %d", to)
	}
	inf, err := p.analyze()
	if err != nil {
		return nil, err
	}
	q := p.Clone()
	q.Dialect = to
	for i := range q.Ops {
		op := &q.Ops[i]
		fail := func(why string) error {
			return fmt.Errorf("cannot convert %v to %v: %w", p.Dialect, to, p.opErr(i, "%s", why))
		}
		f := inf.kif[i].Fractionals
		switch {
		case to == DAIS && op.Opcode == OpNeg:
			op.Opcode = OpNegQuantize
		case to == ALIR && op.Opcode == OpNegQuantize:
			op.Opcode = OpNeg
		case to == ALIR && (op.Opcode == OpNegReLU || op.Opcode == OpNegMux || op.Opcode == OpNegBitUnary):
			return nil, fail("no ALIR equivalent")
		case to == DAIS && op.Opcode == OpConstAdd:
			// c*2^-e = d*2^-f  =>  d = c*2^(f-e)
			d := big.NewInt(int64(op.DataLow()))
			if s := f - int(op.DataHigh()); s >= 0 {
				d.Lsh(d, uint(s))
			} else {
				r := new(big.Int)
				d.QuoRem(d, new(big.Int).Lsh(big.NewInt(1), uint(-s)), r)
				if r.Sign() != 0 {
					return nil, fail("constant is finer than the result's step")
				}
			}
			if !d.IsInt64() {
				return nil, fail("constant does not fit 64 bits")
			}
			op.Data = d.Int64()
		case to == ALIR && op.Opcode == OpConstAdd:
			if op.Data != int64(int32(op.Data)) {
				return nil, fail("constant does not fit 32 bits")
			}
			if f < -MaxShift || f > MaxShift {
				return nil, fail("constant exponent out of range")
			}
			op.Data = PackData(int32(op.Data), int32(f))
		}
	}
	if err := q.Validate(); err != nil {
		return nil, fmt.Errorf("cannot convert %v to %v: %w", p.Dialect, to, err)
	}
	return q, nil
}
