package nneval

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/internal/tileview"
)

// The node kinds' functions on tensors. Sums are left-to-right folds from
// +0.0 in row-major order of the summed index, as the semantics fix them.

// unaryFn applies f to every element.
func unaryFn(f func(float64) float64) func(*node) (*tensor.Tensor, error) {
	return func(n *node) (*tensor.Tensor, error) {
		x, y := n.ins[0], n.result()
		for i, v := range x.Data {
			y.Data[i] = f(v)
		}
		return y, nil
	}
}

// binaryFn applies f to the elements of two equal-shaped operands.
func binaryFn(f func(a, b float64) float64) func(*node) (*tensor.Tensor, error) {
	return func(n *node) (*tensor.Tensor, error) {
		a, b, y := n.ins[0], n.ins[1], n.result()
		for i := range y.Data {
			y.Data[i] = f(a.Data[i], b.Data[i])
		}
		return y, nil
	}
}

// sigmoid is 1/(1+exp(−x)).
func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// relu is max(x, 0) as torch.relu computes it: NaN stays NaN, −0 stays −0.
func relu(x float64) float64 {
	if x < 0 {
		return 0
	}
	return x
}

// identity copies the operand (nn.detach).
func identity(n *node) (*tensor.Tensor, error) {
	y := n.result()
	copy(y.Data, n.ins[0].Data)
	return y, nil
}

// reshape keeps the values in row-major order (nn.reshape, nn.flatten).
func reshape(n *node) (*tensor.Tensor, error) { return identity(n) }

// constant is the inline value, or reads the payload entry params:
// numel(result) values in any array shape.
func constant(n *node) (*tensor.Tensor, error) {
	p, err := ConstValues(n.op, n.constEntry, nil)
	if err != nil {
		return nil, err
	}
	y := n.result()
	copy(y.Data, p.Data)
	return y, nil
}

// constEntry is payload entry key of an nn.const: numel(result) values.
func (n *node) constEntry(key string) (*tensor.Tensor, error) {
	return n.param(key, nil, tensor.NumElements(n.out.Shape))
}

// SplitMix64's mixing function (TorchLean's generator, nn-graph-ops.md
// §3.6), all arithmetic mod 2^64.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// uniform is the node's draw for the element at row-major index l:
// mix(key + l) mod 2^32 over 2^32, key = mix(seed + node index).
func (n *node) uniform() func(l int) float64 {
	key := mix(n.uintAttr("seed") + uint64(n.index))
	return func(l int) float64 { return float64(mix(key+uint64(l))&0xffffffff) / (1 << 32) }
}

func randUniform(n *node) (*tensor.Tensor, error) {
	y, u := n.result(), n.uniform()
	for i := range y.Data {
		y.Data[i] = u(i)
	}
	return y, nil
}

func bernoulliMask(n *node) (*tensor.Tensor, error) {
	y, u, p := n.result(), n.uniform(), n.ins[0].Data[0]
	for i := range y.Data {
		if p > u(i) {
			y.Data[i] = 1
		}
	}
	return y, nil
}

// linearParams reads linear's weight [out, in] and bias [out] for an input
// of shape xShape: rows is the number of leading indices.
func (n *node) linearParams(xShape []int64) (rows, in, out int64, w, b *tensor.Tensor, err error) {
	r := len(xShape)
	in, out = xShape[r-1], n.out.Shape[r-1]
	if w, err = n.param(n.params()+".weight", []int64{out, in}, 0); err != nil {
		return 0, 0, 0, nil, nil, err
	}
	if b, err = n.param(n.params()+".bias", []int64{out}, 0); err != nil {
		return 0, 0, 0, nil, nil, err
	}
	return tensor.NumElements(xShape[:r-1]), in, out, w, b, nil
}

// linear is W·x + b over the last dimension, for every leading index.
func linear(n *node) (*tensor.Tensor, error) {
	x := n.ins[0]
	rows, in, out, w, b, err := n.linearParams(x.Shape)
	if err != nil {
		return nil, err
	}
	y := n.result()
	for row := range rows {
		xs := x.Data[row*in : (row+1)*in]
		for o := range out {
			s := 0.0
			ws := w.Data[o*in : (o+1)*in]
			for i, v := range xs {
				s += ws[i] * v
			}
			y.Data[row*out+o] = s + b.Data[o]
		}
	}
	return y, nil
}

// matmul is [m,n]·[n,p] or per batch [B,m,n]·[B,n,p].
func matmul(n *node) (*tensor.Tensor, error) {
	a, b, y := n.ins[0], n.ins[1], n.result()
	matmulInto(a.Shape, b.Shape, a.Data, b.Data, y.Data, func(s, x, w float64) float64 { return s + x*w })
	return y, nil
}

// matmulInto sets y to the product of a and b ([m,n]·[n,p] or per batch
// [B,m,n]·[B,n,p]): each element folds mac(s, a, b) from the zero value
// over the inner index, left to right.
func matmulInto[T any](aShape, bShape []int64, a, b, y []T, mac func(s, x, w T) T) {
	r := len(aShape)
	m, k, p := aShape[r-2], aShape[r-1], bShape[r-1]
	batches := int64(1)
	if r == 3 {
		batches = aShape[0]
	}
	for bt := range batches {
		ad, bd, yd := a[bt*m*k:], b[bt*k*p:], y[bt*m*p:]
		for i := range m {
			for j := range p {
				var s T
				for l := range k {
					s = mac(s, ad[i*k+l], bd[l*p+j])
				}
				yd[i*p+j] = s
			}
		}
	}
}

// window reads the attributes of conv2d and the pools and the input's
// layout: batch count, channels, height, width (rank 3 or 4).
type window struct {
	batch, c, h, w int64
	kh, kw, stride int64
	pad            int64
	oh, ow         int64
}

func (n *node) window() window {
	x := n.ins[0]
	r := len(x.Shape)
	k := n.intList("kernel")
	wd := window{batch: tensor.NumElements(x.Shape[:r-3]), c: x.Shape[r-3], h: x.Shape[r-2], w: x.Shape[r-1],
		kh: k[0], kw: k[1], stride: n.intAttr("stride", 1), pad: n.intAttr("padding", 0)}
	wd.oh, wd.ow = n.out.Shape[r-2], n.out.Shape[r-1]
	return wd
}

// convCells calls f for each output cell of a convolution with outC output
// channels, by batch, channel, row and column: the offset of the cell's
// batch in the input, the cell's offset in the output, its channel o, its
// row i and its column j.
func (wd window) convCells(outC int64, f func(xo, yo, o, i, j int64)) {
	for bt := range wd.batch {
		for o := range outC {
			for i := range wd.oh {
				for j := range wd.ow {
					f(bt*wd.c*wd.h*wd.w, ((bt*outC+o)*wd.oh+i)*wd.ow+j, o, i, j)
				}
			}
		}
	}
}

// taps calls visit for each input cell in the window of output cell (i,
// j), kernel row then kernel column, skipping the padding: the cell's
// offset in its plane (row hi·w + column) and the kernel's row and column.
func (wd window) taps(i, j int64, visit func(at, di, dj int64)) {
	Taps(wd.h, wd.w, wd.kh, wd.kw, wd.stride, wd.pad, i, j, visit)
}

// Taps is taps for a plane h×w and a window kh×kw of the given stride and
// padding (nn-absorb-quant's convolutions and pools read the same cells).
func Taps(h, w, kh, kw, stride, pad, i, j int64, visit func(at, di, dj int64)) {
	for di := range kh {
		hi := i*stride + di - pad
		if hi < 0 || hi >= h {
			continue
		}
		for dj := range kw {
			wj := j*stride + dj - pad
			if wj < 0 || wj >= w {
				continue
			}
			visit(hi*w+wj, di, dj)
		}
	}
}

// convParams reads conv2d's weight [outC, C, kH, kW] and bias [outC].
func (n *node) convParams(wd window) (outC int64, w, b *tensor.Tensor, err error) {
	outC = n.out.Shape[len(n.out.Shape)-3]
	if w, err = n.param(n.params()+".weight", []int64{outC, wd.c, wd.kh, wd.kw}, 0); err != nil {
		return 0, nil, nil, err
	}
	b, err = n.param(n.params()+".bias", []int64{outC}, 0)
	return outC, w, b, err
}

// conv2d: y[o,i,j] = Σ_c Σ_di Σ_dj x[c, i·s+di−p, j·s+dj−p]·W[o,c,di,dj] +
// b[o], x zero outside the input; summed in-channel, kernel row, kernel
// column, bias last.
func conv2d(n *node) (*tensor.Tensor, error) {
	x, wd := n.ins[0], n.window()
	outC, w, b, err := n.convParams(wd)
	if err != nil {
		return nil, err
	}
	y := n.result()
	plane := wd.h * wd.w
	zero := zeroBlocks(w.Data, outC*wd.c, wd.kh*wd.kw)
	nf := nonFinite{x: x.Data, plane: plane, w: wd.w}
	wd.convCells(outC, func(xo, yo, o, i, j int64) {
		s := 0.0
		for c := range wd.c {
			if zero[o*wd.c+c] {
				// x·0 is ±0, which leaves the sum (it starts at +0, so it
				// is never −0) as it is, unless x is ±inf or NaN: then
				// the sum is NaN, as the dense sum makes it.
				if nf.inWindow(xo/plane+c, wd, i, j) {
					s = math.NaN()
				}
				continue
			}
			wd.taps(i, j, func(at, di, dj int64) {
				s += x.Data[xo+c*plane+at] * w.Data[((o*wd.c+c)*wd.kh+di)*wd.kw+dj]
			})
		}
		y.Data[yo] = s + b.Data[o]
	})
	return y, nil
}

// zeroBlocks marks the blocks of k weights (a convolution's [outC, C,
// kH, kW] by output and input channel) that are all zeros: the other
// groups' channels of a grouped or depthwise convolution, which the
// importer writes dense, so that evaluating it costs what the grouped
// one does (convWork).
func zeroBlocks(w []float64, blocks, k int64) []bool {
	z := make([]bool, blocks)
	for bl := range blocks {
		z[bl] = !slices.ContainsFunc(w[bl*k:(bl+1)*k], func(v float64) bool { return v != 0 })
	}
	return z
}

// nonFinite answers whether a window of an input plane holds ±inf or NaN,
// from a count of such cells per rectangle (prefix sums, made for a plane
// on its first question and only for a plane that has one).
type nonFinite struct {
	x        []float64
	plane, w int64
	checked  map[int64][]int64 // by plane: nil when it has none
}

func (f *nonFinite) inWindow(p int64, wd window, i, j int64) bool {
	if f.checked == nil {
		f.checked = map[int64][]int64{}
	}
	sums, ok := f.checked[p]
	if !ok {
		cells := f.x[p*f.plane : (p+1)*f.plane]
		if !slices.ContainsFunc(cells, func(v float64) bool { return math.IsInf(v, 0) || math.IsNaN(v) }) {
			f.checked[p] = nil
			return false
		}
		h := f.plane / f.w
		sums = make([]int64, (h+1)*(f.w+1)) // sums[r·(w+1) + c]: the cells of rows < r, columns < c
		for r := range h {
			for c := range f.w {
				bad := int64(0)
				if v := cells[r*f.w+c]; math.IsInf(v, 0) || math.IsNaN(v) {
					bad = 1
				}
				sums[(r+1)*(f.w+1)+c+1] = bad + sums[r*(f.w+1)+c+1] + sums[(r+1)*(f.w+1)+c] - sums[r*(f.w+1)+c]
			}
		}
		f.checked[p] = sums
	}
	if sums == nil {
		return false
	}
	r0, c0 := max(i*wd.stride-wd.pad, 0), max(j*wd.stride-wd.pad, 0)
	r1, c1 := min(i*wd.stride-wd.pad+wd.kh, wd.h), min(j*wd.stride-wd.pad+wd.kw, wd.w)
	if r0 >= r1 || c0 >= c1 {
		return false
	}
	at := func(r, c int64) int64 { return sums[r*(f.w+1)+c] }
	return at(r1, c1)-at(r0, c1)-at(r1, c0)+at(r0, c0) > 0
}

// pool applies one window function per output cell; cells outside the
// input are padding: max ignores them, avg counts them as 0 and divides by
// kH·kW (count_include_pad).
func pool(isMax bool) func(*node) (*tensor.Tensor, error) {
	return func(n *node) (*tensor.Tensor, error) {
		x, wd, y := n.ins[0], n.window(), n.result()
		planes := wd.batch * wd.c
		for pl := range planes {
			xd := x.Data[pl*wd.h*wd.w:]
			yd := y.Data[pl*wd.oh*wd.ow:]
			for i := range wd.oh {
				for j := range wd.ow {
					acc := 0.0
					if isMax {
						acc = math.Inf(-1)
					}
					wd.taps(i, j, func(at, _, _ int64) {
						v := xd[at]
						if !isMax {
							acc += v
						} else if v > acc || math.IsNaN(v) && !math.IsNaN(acc) {
							acc = v // NaN propagates, as in PyTorch
						}
					})
					if !isMax {
						acc /= float64(wd.kh * wd.kw)
					}
					yd[i*wd.ow+j] = acc
				}
			}
		}
		return y, nil
	}
}

// lines splits a shape at axis: the product of the dimensions before it,
// its size, and the product after it (the stride of the axis).
func lines(shape []int64, axis int) (outer, size, inner int64) {
	return tensor.NumElements(shape[:axis]), shape[axis], tensor.NumElements(shape[axis+1:])
}

// reduce sums along axis (mean: then divides by its size).
func reduce(mean bool) func(*node) (*tensor.Tensor, error) {
	return func(n *node) (*tensor.Tensor, error) {
		x, y := n.ins[0], n.result()
		outer, size, inner := lines(x.Shape, int(n.intAttr("axis", 0)))
		for o := range outer {
			for in := range inner {
				s := 0.0
				for k := range size {
					s += x.Data[(o*size+k)*inner+in]
				}
				if mean {
					s /= float64(size)
				}
				y.Data[o*inner+in] = s
			}
		}
		return y, nil
	}
}

func sumAll(n *node) (*tensor.Tensor, error) {
	s := 0.0
	for _, v := range n.ins[0].Data {
		s += v
	}
	return &tensor.Tensor{Shape: []int64{}, Data: []float64{s}}, nil
}

// softmax along axis: m = max; e = exp(x − m); y = e / Σe.
func softmax(n *node) (*tensor.Tensor, error) {
	x, y := n.ins[0], n.result()
	outer, size, inner := lines(x.Shape, int(n.intAttr("axis", 0)))
	for o := range outer {
		for in := range inner {
			at := func(k int64) int64 { return (o*size+k)*inner + in }
			m := math.Inf(-1)
			for k := range size {
				if v := x.Data[at(k)]; v > m || math.IsNaN(v) {
					m = v
				}
			}
			s := 0.0
			for k := range size {
				e := math.Exp(x.Data[at(k)] - m)
				y.Data[at(k)] = e
				s += e
			}
			for k := range size {
				y.Data[at(k)] /= s
			}
		}
	}
	return y, nil
}

// layerNorm normalizes each row of the [M, N] view (N the product of the
// dimensions from axis on): μ = Σx/N; c = x − μ; var = Σc²/N − (Σc/N)²,
// at least 0; y = c / sqrt(var + ε).
func layerNorm(n *node) (*tensor.Tensor, error) {
	x, y := n.ins[0], n.result()
	axis := int(n.intAttr("axis", 0))
	eps := n.floatAttr("epsilon", nn.DefaultEpsilon)
	cols := tensor.NumElements(x.Shape[axis:])
	if cols == 0 {
		return y, nil
	}
	rows := tensor.NumElements(x.Shape[:axis])
	N := float64(cols)
	for r := range rows {
		xs, ys := x.Data[r*cols:(r+1)*cols], y.Data[r*cols:(r+1)*cols]
		s := 0.0
		for _, v := range xs {
			s += v
		}
		mu := s / N
		sc, sc2 := 0.0, 0.0
		for i, v := range xs {
			c := v - mu
			ys[i] = c
			sc += c
			sc2 += c * c
		}
		v := sc2/N - (sc/N)*(sc/N)
		if v < 0 {
			v = 0
		}
		d := math.Sqrt(v + eps)
		for i := range ys {
			ys[i] /= d
		}
	}
	return y, nil
}

// permuteBy makes y with axis i of y axis perm[i] of x.
func permuteBy(x *tensor.Tensor, perm []int64, y *tensor.Tensor) {
	r := len(x.Shape)
	if r == 0 {
		copy(y.Data, x.Data)
		return
	}
	xStride := tileview.Strides(x.Shape)
	// step[i]: how far x's index moves when y's index i grows by one.
	step := make([]int64, r)
	for i, p := range perm {
		step[i] = xStride[p]
	}
	gather(y, x, step)
}

// gather sets y's elements, in row-major order, to those of x at the
// strided index map step (tileview.Map).
func gather(y, x *tensor.Tensor, step []int64) {
	for k, src := range tileview.Map[int64](y.Shape, step) {
		y.Data[k] = x.Data[src]
	}
}

func permute(n *node) (*tensor.Tensor, error) {
	y := n.result()
	permuteBy(n.ins[0], n.intList("perm"), y)
	return y, nil
}

// swapAxes returns the function of a node that swaps axes a and b.
func swapAxes(a, b int) func(*node) (*tensor.Tensor, error) {
	return func(n *node) (*tensor.Tensor, error) {
		r := len(n.ins[0].Shape)
		perm := make([]int64, r)
		for i := range perm {
			perm[i] = int64(i)
		}
		perm[a], perm[b] = perm[b], perm[a]
		y := n.result()
		permuteBy(n.ins[0], perm, y)
		return y, nil
	}
}

// broadcastTo copies x along broadcast dimensions; shapes align from the
// back (PyTorch).
func broadcastTo(n *node) (*tensor.Tensor, error) {
	x, y := n.ins[0], n.result()
	if len(x.Shape) > len(y.Shape) {
		return nil, errors.New("the input has more dimensions than the result")
	}
	gather(y, x, tileview.BroadcastStrides(x.Shape, y.Shape))
	return y, nil
}

// concat joins the operands along axis in operand order.
func concat(n *node) (*tensor.Tensor, error) {
	y := n.result()
	axis := int(n.intAttr("axis", 0))
	outer := tensor.NumElements(y.Shape[:axis])
	inner := tensor.NumElements(y.Shape[axis+1:])
	at := int64(0)
	for o := range outer {
		for _, x := range n.ins {
			chunk := x.Shape[axis] * inner
			copy(y.Data[at:at+chunk], x.Data[o*chunk:(o+1)*chunk])
			at += chunk
		}
	}
	if at != int64(len(y.Data)) {
		return nil, fmt.Errorf("the operands hold %d elements, the result %d", at, len(y.Data))
	}
	return y, nil
}

// mseLoss is Σ(p − t)² / numel.
func mseLoss(n *node) (*tensor.Tensor, error) {
	p, t := n.ins[0], n.ins[1]
	s := 0.0
	for i, v := range p.Data {
		d := v - t.Data[i]
		s += d * d
	}
	return &tensor.Tensor{Shape: []int64{}, Data: []float64{s / float64(len(p.Data))}}, nil
}
