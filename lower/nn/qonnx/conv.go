package qonnx

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/ir"
)

// window is a conv2d's or pool's geometry on an input [..., C, H, W]:
// batch samples of C channels, the kernel, stride and padding, the output
// size.
type window struct {
	batch, c, h, w      int64
	kh, kw, stride, pad int64
	oc, oh, ow          int64
}

func windowOf(op *ir.Operation, in, out []int64) window {
	var k [2]int64
	if arr, ok := op.Attr("kernel").(*ir.ArrayAttr); ok && len(arr.Elems) == 2 {
		for i, e := range arr.Elems {
			if ia, ok := e.(*ir.IntAttr); ok {
				k[i] = ia.Value.Int64()
			}
		}
	}
	s, ok := op.IntAttr("stride")
	if !ok {
		s = 1
	}
	p, _ := op.IntAttr("padding")
	r, ro := len(in), len(out)
	batch := int64(1)
	for _, d := range in[:r-3] {
		batch *= d
	}
	return window{batch: batch, c: in[r-3], h: in[r-2], w: in[r-1], kh: k[0], kw: k[1], stride: s, pad: p,
		oc: out[ro-3], oh: out[ro-2], ow: out[ro-1]}
}

// taps calls f with the kernel offset and the input's flat index (within
// one channel plane) of each tap of output position (i, j) that falls
// inside the input (padding cells skipped).
func (wd window) taps(i, j int64, f func(di, dj, at int64)) {
	nneval.Taps(wd.h, wd.w, wd.kh, wd.kw, wd.stride, wd.pad, i, j, func(at, di, dj int64) { f(di, dj, at) })
}

// conv2d is nn.conv2d of a value by its payload weights W [O, C, kH, kW]
// and bias. Each input element is a_c·code + b_e with a_c one factor per
// channel (a relu before is first made an nn.max/nn.min of the code): with
// a_c = g·r_c (r_c the smallest integers) and W = M·2^-e (M integers,
// every float64 being dyadic), the new graph convolves the codes times
// r_c by the same payload weights, whose exact result is I·2^-F with I =
// Σ M·r_c·code + bias·2^F; each output element's value is g·2^-e·(I −
// bias·2^F) + Σ W·b_e + bias over the taps inside the input (so zero
// points and batch-norm offsets before a padded convolution are exact at
// the borders too).
func (a *absorber) conv2d(op *ir.Operation, x *val, shape []int64) (*val, error) {
	wd := windowOf(op, x.shape, shape)
	params, _ := op.StringAttr("params")
	w, err := a.exactEntry(params+".weight", wd.oc*wd.c*wd.kh*wd.kw)
	if err != nil {
		return nil, err
	}
	bias, err := a.exactEntry(params+".bias", wd.oc)
	if err != nil {
		return nil, err
	}
	plane := wd.h * wd.w
	k := wd.kh * wd.kw
	if x.isConst() { // a layer whose input quantizer gives one value
		out := &val{shape: shape}
		for n := range wd.batch {
			for o := range wd.oc {
				for i := range wd.oh {
					for j := range wd.ow {
						sum := new(big.Rat).Set(bias[o])
						for c := range wd.c {
							wd.taps(i, j, func(di, dj, p int64) {
								sum.Add(sum, new(big.Rat).Mul(w[(o*wd.c+c)*k+di*wd.kw+dj], x.konst[(n*wd.c+c)*plane+p]))
							})
						}
						out.konst = append(out.konst, sum)
					}
				}
			}
		}
		return out, nil
	}
	if x, err = a.affineOnly(x); err != nil {
		return nil, err
	}
	// The input's factor per channel, and the offsets.
	as := make([]*big.Rat, wd.c)
	bs := make([]*big.Rat, len(x.fn))
	for e, f := range x.fn {
		fa, fb, _ := f.affine()
		c := e / int(plane) % int(wd.c)
		if as[c] == nil {
			as[c] = fa
		} else if as[c].Cmp(fa) != 0 {
			return nil, fmt.Errorf("the input's scale varies within channel %d (%s and %s): a convolution needs one factor per input channel", c, as[c].RatString(), fa.RatString())
		}
		bs[e] = fb
	}
	g, rs := factorColumn(as)
	// W = M·2^-e and bias·2^F integers, F = frac + e.
	e := 0
	for _, r := range w {
		e = max(e, r.Denom().BitLen()-1)
	}
	for _, r := range bias {
		e = max(e, r.Denom().BitLen()-1-x.frac)
	}
	F := x.frac + e
	code := x.code
	if !allIntOne(rs) {
		per := make([]*big.Rat, len(x.fn))
		for i := range per {
			per[i] = new(big.Rat).SetInt(rs[i/int(plane)%int(wd.c)])
		}
		if code, err = a.binaryConst(kMul, code, x.shape, per, f64); err != nil {
			return nil, err
		}
	}
	// The integer range of I, per output channel over its taps.
	clo, chi := make([]*big.Int, wd.c), make([]*big.Int, wd.c)
	for c, r := range rs {
		clo[c], chi[c] = minMaxProduct(r, x.lo, x.hi, wd.pad > 0)
	}
	lo, hi := new(big.Int), new(big.Int)
	for o := range wd.oc {
		beta := new(big.Rat).Mul(bias[o], pow2(F))
		olo, ohi := new(big.Int).Set(beta.Num()), new(big.Int).Set(beta.Num())
		for c := range wd.c {
			for t := range k {
				m := new(big.Rat).Mul(w[(o*wd.c+c)*k+t], pow2(e)).Num()
				p, q := new(big.Int).Mul(m, clo[c]), new(big.Int).Mul(m, chi[c])
				if p.Cmp(q) > 0 {
					p, q = q, p
				}
				olo.Add(olo, p)
				ohi.Add(ohi, q)
			}
		}
		if o == 0 || olo.Cmp(lo) < 0 {
			lo = olo
		}
		if o == 0 || ohi.Cmp(hi) > 0 {
			hi = ohi
		}
	}
	if err := limitBits(lo, hi); err != nil {
		return nil, err
	}
	y, err := nn.Node(a.b, kConv2d, []*ir.Value{code}, ir.Tensor(shape, f64), op.Attrs)
	if err != nil {
		return nil, err
	}
	out := &val{shape: shape, code: y, frac: F, lo: lo.Int64(), hi: hi.Int64(), fn: make([]elemFn, 0, wd.batch*wd.oc*wd.oh*wd.ow)}
	scale := new(big.Rat).Mul(g, pow2(-e))
	for n := range wd.batch {
		for o := range wd.oc {
			// value = scale·I + (bias − scale·bias·2^F) + Σ W·b over the taps.
			base := new(big.Rat).Sub(bias[o], new(big.Rat).Mul(scale, new(big.Rat).Mul(bias[o], pow2(F))))
			for i := range wd.oh {
				for j := range wd.ow {
					off := new(big.Rat).Set(base)
					for c := range wd.c {
						at := (n*wd.c + c) * plane
						wo := (o*wd.c + c) * k
						wd.taps(i, j, func(di, dj, p int64) {
							if b := bs[at+p]; b.Sign() != 0 {
								off.Add(off, new(big.Rat).Mul(w[wo+di*wd.kw+dj], b))
							}
						})
					}
					out.fn = append(out.fn, elemFn{{a: scale, b: off}})
				}
			}
		}
	}
	return out, nil
}

// exactEntry is a payload entry of n values, exactly.
func (a *absorber) exactEntry(key string, n int64) ([]*big.Rat, error) {
	t, err := a.entry(key)
	if err != nil {
		return nil, err
	}
	if int64(len(t.Data)) != n {
		return nil, fmt.Errorf("payload entry '%s' holds %d values, not %d", key, len(t.Data), n)
	}
	out := make([]*big.Rat, n)
	for i, f := range t.Data {
		if f-f != 0 {
			return nil, fmt.Errorf("payload entry '%s' holds %v: it must be finite", key, f)
		}
		out[i] = ratOf(f)
	}
	return out, nil
}

// minMaxProduct is the range of r·v for v in [lo, hi] (and 0, a padding
// cell, with zero).
func minMaxProduct(r *big.Int, lo, hi int64, zero bool) (*big.Int, *big.Int) {
	p, q := new(big.Int).Mul(r, big.NewInt(lo)), new(big.Int).Mul(r, big.NewInt(hi))
	if p.Cmp(q) > 0 {
		p, q = q, p
	}
	if zero {
		if p.Sign() > 0 {
			p = new(big.Int)
		}
		if q.Sign() < 0 {
			q = new(big.Int)
		}
	}
	return p, q
}

func allIntOne(rs []*big.Int) bool {
	for _, r := range rs {
		if r.Cmp(big.NewInt(1)) != 0 {
			return false
		}
	}
	return true
}

// pool is nn.max_pool2d or nn.avg_pool2d of a value whose elements in
// each window share one function f of their codes. A max pool commutes
// with f when f is non-decreasing (the max of the codes); when f is
// non-increasing, the max of f is f at the smallest code: the planes
// (channels) of such functions pool their negated codes. An average pool takes an affine f = a·v + b: the
// average is a·S/n + b·(cells inside)/n for S the sum of the window's
// codes (padding cells are code 0, as they are 0 in the float graph), the
// new graph's nn.avg_pool2d holding S exactly when n is a power of two.
func (a *absorber) pool(op *ir.Operation, x *val, shape []int64) (*val, error) {
	isMax := op.Name == kMaxPool2d
	wd := windowOf(op, x.shape, shape)
	plane := wd.h * wd.w
	n := wd.kh * wd.kw
	if x.isConst() {
		out := &val{shape: shape}
		for s := range wd.batch * wd.c {
			for i := range wd.oh {
				for j := range wd.ow {
					var m *big.Rat
					sum := new(big.Rat)
					wd.taps(i, j, func(_, _, p int64) {
						r := x.konst[s*plane+p]
						sum.Add(sum, r)
						if m == nil || r.Cmp(m) > 0 {
							m = r
						}
					})
					if !isMax {
						m = sum.Quo(sum, ratInt(n))
					}
					out.konst = append(out.konst, m)
				}
			}
		}
		return out, nil
	}
	if !isMax {
		var err error
		if x, err = a.affineOnly(x); err != nil {
			return nil, err
		}
	}
	out := &val{shape: shape, frac: x.frac, lo: x.lo, hi: x.hi, fn: make([]elemFn, 0, wd.batch*wd.c*wd.oh*wd.ow)}
	dirs := make([]int, wd.batch*wd.c) // per plane: +1 non-decreasing functions, -1 non-increasing
	for s := range wd.batch * wd.c {
		for i := range wd.oh {
			for j := range wd.ow {
				var f elemFn
				var key string
				inside := int64(0)
				var bad error
				wd.taps(i, j, func(_, _, p int64) {
					g := x.fn[s*plane+p]
					if inside++; inside == 1 {
						f, key = g, g.key()
					} else if bad == nil && g.key() != key {
						bad = fmt.Errorf("the elements of window (%d, %d) of plane %d are different functions of their codes (scales or offsets differ): a quantizer before the pool makes them one", i, j, s)
					}
				})
				if bad != nil {
					return nil, bad
				}
				if isMax {
					if !f.monotone() {
						return nil, fmt.Errorf("the elements of plane %d are products of two functions of their codes (HardSwish's, SiLU's), not monotone: a quantizer before the max pool absorbs them", s)
					}
					if d := direction(f); d != 0 {
						if dirs[s] == 0 {
							dirs[s] = d
						} else if dirs[s] != d {
							return nil, fmt.Errorf("the elements of plane %d are increasing functions of their codes in some windows and decreasing in others: no one max pool of the codes computes it", s)
						}
					}
					out.fn = append(out.fn, f)
					continue
				}
				fa, fb, _ := f.affine()
				out.fn = append(out.fn, elemFn{{a: new(big.Rat).Quo(fa, ratInt(n)), b: new(big.Rat).Quo(new(big.Rat).Mul(fb, ratInt(inside)), ratInt(n))}})
			}
		}
	}
	code := x.code
	elem := code.Type.(*ir.TensorType).Elem
	if isMax {
		// Planes of non-increasing functions pool their negated codes.
		signs := make([]*big.Rat, len(x.fn))
		lo, hi, negated := x.lo, x.hi, false
		for i := range signs {
			signs[i] = big.NewRat(1, 1)
			if dirs[int64(i)/plane] < 0 {
				signs[i], negated = big.NewRat(-1, 1), true
				lo, hi = min(lo, -x.hi), max(hi, -x.lo)
			}
		}
		if negated {
			var err error
			if code, err = a.binaryConst(kMul, code, x.shape, signs, f64); err != nil {
				return nil, err
			}
			elem = f64
			out.lo, out.hi = lo, hi
			per := wd.oh * wd.ow
			for i, f := range out.fn {
				if dirs[int64(i)/per] < 0 {
					out.fn[i] = append(elemFn{{a: big.NewRat(-1, 1), b: new(big.Rat)}}, f...)
				}
			}
		}
		y, err := nn.Node(a.b, kMaxPool2d, []*ir.Value{code}, ir.Tensor(shape, elem), op.Attrs)
		out.code = y
		return out, err
	}
	lo, hi := min(x.lo, 0), max(x.hi, 0)
	out.lo, out.hi = lo*n, hi*n
	if n&(n-1) != 0 {
		if wd.tiles() {
			return a.windowSum(x, out, shape, wd)
		}
		return a.bandSum(x, out, shape, wd)
	}
	for ; n > 1; n >>= 1 {
		out.frac++ // the exact average of the codes is S·2^-(frac + log2 n)
	}
	y, err := nn.Node(a.b, kAvgPool2d, []*ir.Value{code}, ir.Tensor(shape, f64), op.Attrs)
	out.code = y
	return out, err
}

// windowSum is an average pool over n cells, n not a power of two, whose
// windows tile the plane (tiles): S/n has no fixed-point form, so the new
// code is S itself, the sum of each window's codes, and the 1/n stays in
// the elements' factors (out.fn) for the quantizer after the pool to
// absorb. A global average pool (MobileNet's 7x7) is nn.reshape to
// [..., H·W], nn.reduce_sum, nn.reshape back; a tiled pool is nn.reshape
// to [..., oh, kh, ow, kw], nn.permute to [..., oh, ow, kh, kw],
// nn.reshape to [..., oh, ow, kh·kw] and nn.reduce_sum over the last
// axis. Other windows are bandSum's.
func (a *absorber) windowSum(x, out *val, shape []int64, wd window) (*val, error) {
	n := wd.kh * wd.kw
	r := len(x.shape)
	lead := slices.Clone(x.shape[:r-2])
	elem := x.code.Type.(*ir.TensorType).Elem
	node := func(kind string, v *ir.Value, shape []int64, elem ir.Type, attrs ir.Attrs) (*ir.Value, error) {
		return nn.Node(a.b, kind, []*ir.Value{v}, ir.Tensor(shape, elem), attrs)
	}
	var cells []int64 // the code as [..., windows, cells]
	v := x.code
	var err error
	if wd.oh == 1 && wd.ow == 1 {
		cells = append(slices.Clone(lead), n)
	} else {
		split := append(slices.Clone(lead), wd.oh, wd.kh, wd.ow, wd.kw)
		if v, err = node(kReshape, v, split, elem, nil); err != nil {
			return nil, err
		}
		perm := make([]ir.Attr, 0, len(split))
		for d := range len(lead) {
			perm = append(perm, ir.I64(int64(d)))
		}
		l := int64(len(lead))
		perm = append(perm, ir.I64(l), ir.I64(l+2), ir.I64(l+1), ir.I64(l+3))
		if v, err = node(kPermute, v, append(slices.Clone(lead), wd.oh, wd.ow, wd.kh, wd.kw), elem, ir.Attrs{{Name: "perm", Value: &ir.ArrayAttr{Elems: perm}}}); err != nil {
			return nil, err
		}
		cells = append(slices.Clone(lead), wd.oh, wd.ow, n)
	}
	if v, err = node(kReshape, v, cells, elem, nil); err != nil {
		return nil, err
	}
	if v, err = node(kReduceSum, v, cells[:len(cells)-1], f64, ir.Attrs{{Name: "axis", Value: ir.I64(int64(len(cells) - 1))}}); err != nil {
		return nil, err
	}
	if len(cells)-1 != len(shape) {
		v, err = node(kReshape, v, shape, f64, nil)
	}
	out.code = v
	return out, err
}

// tiles reports whether the windows tile the plane: no padding, and
// along each axis one window over the whole of it or windows of stride
// equal to the kernel that divide it.
func (wd window) tiles() bool {
	along := func(k, size, o int64) bool { return o*k == size && (o == 1 || wd.stride == k) }
	return wd.pad == 0 && along(wd.kh, wd.h, wd.oh) && along(wd.kw, wd.w, wd.ow)
}

// bandSum is windowSum's S for windows that overlap or hold padding (a
// 3x3 pool of stride 1 and padding 1, Inception's and ResNet-D's): the
// sum is separable, so the code's rows [..., H, W] are multiplied by the
// 0/1 band matrix of the windows' columns (nn.matmul by [W, ow]; a tap in
// the padding has no entry, its cell being code 0), transposed, and
// multiplied by the band matrix of the windows' rows ([H, oh]); an axis
// whose matrix is the identity (a kernel and stride of 1, unpadded) is
// skipped. The CMVM lowering shares the partial sums of overlapping
// windows.
func (a *absorber) bandSum(x, out *val, shape []int64, wd window) (*val, error) {
	lead := wd.batch * wd.c
	node := func(kind string, v *ir.Value, shape []int64, elem ir.Type, attrs ir.Attrs) (*ir.Value, error) {
		return nn.Node(a.b, kind, []*ir.Value{v}, ir.Tensor(shape, elem), attrs)
	}
	swap := ir.Attrs{{Name: "perm", Value: &ir.ArrayAttr{Elems: []ir.Attr{ir.I64(0), ir.I64(2), ir.I64(1)}}}}
	// pass sums v [lead, rows, size] along its last axis by the band of
	// kernel k over size (o windows), and gives [lead, o, rows]: the axes
	// swapped, so that two passes sum W, then H, and restore the order.
	pass := func(v *ir.Value, elem ir.Type, rows, size, k, o int64) (*ir.Value, error) {
		var err error
		if k == 1 && wd.stride == 1 && wd.pad == 0 {
			return node(kPermute, v, []int64{lead, o, rows}, elem, swap)
		}
		band := make([]*big.Rat, size*o)
		for t := range band {
			band[t] = new(big.Rat)
		}
		for j := range o {
			for d := range k {
				if t := j*wd.stride + d - wd.pad; t >= 0 && t < size {
					band[t*o+j].SetInt64(1)
				}
			}
		}
		m, err := a.constant([]int64{size, o}, band)
		if err != nil {
			return nil, err
		}
		if v, err = node(kReshape, v, []int64{lead * rows, size}, elem, nil); err != nil {
			return nil, err
		}
		if v, err = nn.Node(a.b, kMatmul, []*ir.Value{v, m}, ir.Tensor([]int64{lead * rows, o}, f64), nil); err != nil {
			return nil, err
		}
		if v, err = node(kReshape, v, []int64{lead, rows, o}, f64, nil); err != nil {
			return nil, err
		}
		return node(kPermute, v, []int64{lead, o, rows}, f64, swap)
	}
	elem := x.code.Type.(*ir.TensorType).Elem
	v, err := node(kReshape, x.code, []int64{lead, wd.h, wd.w}, elem, nil)
	if err != nil {
		return nil, err
	}
	if v, err = pass(v, elem, wd.h, wd.w, wd.kw, wd.ow); err != nil { // [lead, ow, H]
		return nil, err
	}
	if v, err = pass(v, v.Type.(*ir.TensorType).Elem, wd.ow, wd.h, wd.kh, wd.oh); err != nil { // [lead, oh, ow]
		return nil, err
	}
	out.code, err = node(kReshape, v, shape, v.Type.(*ir.TensorType).Elem, nil)
	return out, err
}

// direction is +1 when f is non-decreasing, -1 when non-increasing (the
// product of its factors' signs; relu keeps the direction, an extremum
// has its functions' common one), 0 when constant.
func direction(f elemFn) int {
	d := 1
	for _, s := range f {
		switch {
		case s.ext != nil:
			e := direction(s.ext.f)
			if e == 0 {
				e = direction(s.ext.g)
			}
			d *= e
		case s.isAffine():
			d *= s.a.Sign()
		}
	}
	return d
}

// narrowForms reports whether every multiplier M/2^K of the forms has at
// most float64's 53 bits (floorForm's limit): the closed form of a dyadic
// quantizer after a convolution by float32-scaled codes (an input scale
// times a weight scale times a batch-norm factor) may not, where a fitted
// form of the same steps does.
func narrowForms(lins []linear) bool {
	for _, l := range lins {
		m := new(big.Rat).SetFrac(l.M, new(big.Int).Lsh(big.NewInt(1), l.K))
		if m.Num().BitLen() > maxConstBits {
			return false
		}
	}
	return true
}
