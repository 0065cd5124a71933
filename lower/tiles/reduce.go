package tiles

import (
	"github.com/otir-dev/otir/ir"
)

// reduceWith lowers otir.reduce: each result element folds its n input
// elements with the scalar lowering of the element-wise op folds[kind] names
// (otir.add, otir.max or otir.min) as a balanced tree of depth ceil(log2 n).
// The three are associative and commutative on integers of one type (add
// wraps modulo 2^width), so the tree computes the executor's left-to-right
// chain exactly, with a shallower circuit.
func reduceWith(folds map[string]string) func(l *lowerer, op *ir.Operation) error {
	return func(l *lowerer, op *ir.Operation) error {
		kind, _ := op.StringAttr("kind")
		lw, _ := loweringOf(folds[kind])
		fold := lw.scalar
		if fold == nil {
			return l.errf("unknown kind '%s'", kind)
		}
		rt, ok := intTypeOf(ir.ElementType(op.Results[0].Type))
		if !ok {
			return l.cannot("result type %s is not an integer", op.Results[0].Type)
		}
		in, shape, err := l.elems(op.Operands[0])
		if err != nil {
			return err
		}
		axis, _ := op.IntAttr("axis")
		if axis < 0 || int(axis) >= len(shape) {
			return l.errf("axis %d is not a dimension of the input", axis)
		}
		n := shape[axis]
		inner := int64(1)
		for _, d := range shape[axis+1:] {
			inner *= d
		}
		types := []intT{rt, rt}
		out := make([]num, int64(len(in))/n)
		row := make([]num, n)
		for o := range out {
			base := int64(o)/inner*n*inner + int64(o)%inner
			for k := range row {
				row[k] = in[base+int64(k)*inner]
			}
			// Fold pairs level by level: row[0..m) holds the partial results.
			for m := len(row); m > 1; m = (m + 1) / 2 {
				for i := 0; i < m/2; i++ {
					if row[i], err = fold(l, op, []num{row[2*i], row[2*i+1]}, types, rt); err != nil {
						return err
					}
				}
				if m%2 == 1 {
					row[m/2] = row[m-1]
				}
			}
			out[o] = row[0]
		}
		l.setResult(op, out)
		return nil
	}
}
