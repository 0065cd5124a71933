package onnximport

import (
	"math"
	"math/bits"
	"slices"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/internal/tileview"
)

// Constant folding: the operators that move constants around (the shape
// arithmetic torch.onnx.export writes for F.pad) on constants only.

// float16 rounds x to the nearest float16.
func float16(x float64) float64 { return npy.Float16FromBits(npy.Float16Bits(x)) }

// gatherConst is the constant of shape out whose element k is c's element
// src[k].
func gatherConst(c *constant, shape []int64, src []int64) *constant {
	out := &constant{shape: shape, isInt: c.isInt}
	if c.isInt {
		out.ints = make([]int64, len(src))
		for k, s := range src {
			out.ints[k] = c.ints[s]
		}
	} else {
		out.floats = make([]float64, len(src))
		for k, s := range src {
			out.floats[k] = c.floats[s]
		}
	}
	return out
}

// walk calls f with the flat index in a source of strides src of each
// element of shape out in row-major order, where out's dimension d steps
// the source by step[d] from base.
func walk(out []int64, base int64, step []int64, f func(int64)) {
	n := numel(out)
	if n == 0 {
		return
	}
	pos := make([]int64, len(out))
	cur := base
	for range n {
		f(cur)
		for d := len(out) - 1; d >= 0; d-- {
			pos[d]++
			cur += step[d]
			if pos[d] < out[d] {
				break
			}
			cur -= step[d] * pos[d]
			pos[d] = 0
		}
	}
}

// permuteConst transposes a constant: out[i] = in[perm[i]].
func permuteConst(c *constant, perm, shape []int64) *constant {
	st := tileview.Strides(c.shape)
	step := make([]int64, len(perm))
	for i, p := range perm {
		step[i] = st[p]
	}
	src := make([]int64, 0, numel(shape))
	walk(shape, 0, step, func(k int64) { src = append(src, k) })
	return gatherConst(c, shape, src)
}

// concatConst concatenates constants along axis.
func concatConst(vs []*value, axis int, shape []int64) *constant {
	isInt := true
	for _, v := range vs {
		isInt = isInt && v.c.isInt
	}
	out := &constant{shape: shape, isInt: isInt}
	outer := numel(shape[:axis])
	for o := range outer {
		for _, v := range vs {
			inner := numel(v.shape[axis:])
			for k := o * inner; k < (o+1)*inner; k++ {
				if isInt {
					out.ints = append(out.ints, v.c.ints[k])
				} else {
					out.floats = append(out.floats, v.c.float(int(k)))
				}
			}
		}
	}
	return out
}

// gather: Gather of a constant by constant indices along axis.
func (im *importer) gather() error {
	data, idx := im.consts[0], im.consts[1]
	ids, err := idx.int64s()
	if err != nil {
		return im.errorf("indices: %v", err)
	}
	axis, err := im.axisOf("axis", im.attrInt("axis", 0), len(data.shape))
	if err != nil {
		return err
	}
	dim := data.shape[axis]
	shape := append(append(slices.Clone(data.shape[:axis]), idx.shape...), data.shape[axis+1:]...)
	if err := im.checkSize(shape); err != nil {
		return im.errorf("%v", err)
	}
	outer, inner := numel(data.shape[:axis]), numel(data.shape[axis+1:])
	var src []int64
	for o := range outer {
		for _, i := range ids {
			if i < -dim || i >= dim {
				return im.errorf("index %d is out of range for dimension %d", i, dim)
			}
			if i < 0 {
				i += dim
			}
			for k := range inner {
				src = append(src, (o*dim+i)*inner+k)
			}
		}
	}
	return im.defineConst(gatherConst(data, shape, src))
}

// slice: Slice of a constant (starts, ends and axes attributes before
// opset 10; starts, ends, axes and steps inputs from it).
func (im *importer) slice() error {
	data := im.consts[0]
	var lists [4][]int64
	for i, what := range []string{"starts", "ends", "axes", "steps"} {
		if im.opset < 10 {
			lists[i], _ = im.attrInts(what)
			continue
		}
		c := im.constArg(i + 1)
		if c == nil {
			continue
		}
		var err error
		if lists[i], err = c.int64s(); err != nil {
			return im.errorf("%s: %v", what, err)
		}
	}
	starts, ends, axes, steps := lists[0], lists[1], lists[2], lists[3]
	rank := len(data.shape)
	if axes == nil {
		for i := range starts {
			axes = append(axes, int64(i))
		}
	}
	if steps == nil {
		for range starts {
			steps = append(steps, 1)
		}
	}
	if len(ends) != len(starts) || len(axes) != len(starts) || len(steps) != len(starts) {
		return im.errorf("starts, ends, axes and steps differ in length")
	}
	shape := slices.Clone(data.shape)
	st := tileview.Strides(data.shape)
	step := slices.Clone(st)
	var base int64
	seen := make([]bool, rank)
	for i := range starts {
		ax, err := im.axisOf("axis", axes[i], rank)
		if err != nil {
			return err
		}
		if seen[ax] {
			return im.errorf("axis %d is repeated", axes[i])
		}
		seen[ax] = true
		dim, s := data.shape[ax], steps[i]
		if s == 0 {
			return im.errorf("step 0")
		}
		// A step longer than the dimension takes one element at most:
		// bound it so that the arithmetic below cannot overflow.
		s = max(min(s, dim+1), -dim-1)
		clamp := func(v, lo, hi int64) int64 {
			if v < 0 {
				if v < -dim {
					v = -dim - 1 // below every index
				}
				v += dim
			}
			return min(max(v, lo), hi)
		}
		var start, end, n int64
		if s > 0 {
			start, end = clamp(starts[i], 0, dim), clamp(ends[i], 0, dim)
			if end > start {
				n = (end-start-1)/s + 1
			}
		} else {
			start, end = clamp(starts[i], -1, dim-1), clamp(ends[i], -1, dim-1)
			if start > end {
				n = (start-end-1)/-s + 1
			}
		}
		shape[ax] = n
		base += start * st[ax]
		step[ax] = s * st[ax]
	}
	if numel(shape) == 0 {
		base = 0
	}
	src := make([]int64, 0, numel(shape))
	walk(shape, base, step, func(k int64) { src = append(src, k) })
	return im.defineConst(gatherConst(data, shape, src))
}

// factorRows writes each of rows equal rows of data (a quantized Conv
// weight, one row per output channel) exactly as scale·codes, the codes
// the smallest integers (the QONNX codes n - zp divided by their common
// factor) and the scale positive: every float64 is m·2^e, so a row's scale
// is gcd(m_i·2^(e_i - e_min))·2^e_min. A row of zeros has scale 1. When a
// row has no such form within float64's 53-bit integers (exponents far
// apart, non-finite values), the weights stay as they are (scale 1).
func factorRows(data []float64, rows int64) (codes, scales []float64) {
	codes, scales = make([]float64, len(data)), make([]float64, rows)
	n := int64(len(data)) / rows
	for r := range rows {
		row := data[r*n : (r+1)*n]
		s, ok := rowScale(row)
		if !ok {
			return data, nil
		}
		scales[r] = s
		for i, v := range row {
			codes[r*n+int64(i)] = v / s // exact: an integer below 2^53
		}
	}
	return codes, scales
}

// rowScale is the largest positive float64 s that divides every value of
// row into an integer below 2^53 (1 for a row of zeros).
func rowScale(row []float64) (float64, bool) {
	emin, any := 0, false
	for _, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, false
		}
		if v != 0 {
			_, e := mantissa(v)
			if !any || e < emin {
				emin, any = e, true
			}
		}
	}
	if !any {
		return 1, true
	}
	var g uint64
	for _, v := range row {
		if v == 0 {
			continue
		}
		m, e := mantissa(v)
		if e-emin+bits.Len64(m) > 53 {
			return 0, false
		}
		g = gcd(g, m<<(e-emin))
	}
	return math.Ldexp(float64(g), emin), true
}

// mantissa writes |v| (finite, non-zero) as m·2^e with m odd.
func mantissa(v float64) (uint64, int) {
	f, e := math.Frexp(math.Abs(v))
	m := uint64(math.Ldexp(f, 53))
	e -= 53
	tz := bits.TrailingZeros64(m)
	return m >> tz, e + tz
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
