package alir

import (
	"math"
	"math/big"
)

// worker holds one goroutine's buffer (nSlots blocks of T) and scratch
// space.
type worker[T elem] struct {
	buf   []T
	exact *exactCtx
	ops   []big.Int // operand values for exact evaluation
	res   big.Int
	acc   [blockSize]int64 // kSumN accumulator
	// wide holds, for every operation whose values may not fit 64 bits
	// (Machine.wide), the exact values of the current block; its slot in
	// buf holds their low 64 bits.
	wide [][]big.Int
}

func newWorker[T elem](m *Machine) *worker[T] {
	arity := 3
	for _, op := range m.prog.Ops {
		arity = max(arity, len(op.Terms))
	}
	w := &worker[T]{
		buf:   make([]T, m.nSlots*blockSize),
		exact: newExactCtx(m.prog, m.inf),
		ops:   make([]big.Int, arity),
	}
	if m.nWide > 0 {
		w.wide = make([][]big.Int, len(m.prog.Ops))
		for i, wd := range m.wide {
			if wd {
				w.wide[i] = make([]big.Int, blockSize)
			}
		}
	}
	return w
}

func slotAt[T elem](buf []T, off int) *blk[T] { return (*blk[T])(buf[off : off+blockSize]) }

// runBlock evaluates every instruction for n <= blockSize samples whose
// input rows start at in (row-major) and writes their outputs to out. base is
// the index of the first sample, for error messages. Values are loaded into
// int64 for arithmetic; a value stored into T always lies in its slot's
// range, or is wrapped right after (which reads only its low 64-s bits).
func runBlock[T elem](m *Machine, w *worker[T], in []float64, out []float64, n, base int) error {
	buf := w.buf
	nIn := m.prog.NumInputs()
	for k := 0; k < len(m.code); k++ {
		ins := &m.code[k]
		if ins.ilen > 0 {
			inputRun(buf, m.inputs[ins.istart:ins.istart+ins.ilen], in, nIn, n)
			k += int(ins.ilen) - 1
			continue
		}
		if ins.vlen > 0 {
			runVector(m, buf, ins)
			k += int(ins.vlen) - 1
			continue
		}
		d := slotAt(buf, ins.d)
		switch ins.kind {
		case kInput:
			inputKernel(d, in, nIn, ins.a, n, ins.scale, ins.fsh, ins.fmask)
		case kLin1W:
			lin1WBlock(d, slotAt(buf, ins.a), ins.m0, ins.k, ins.rs, ins.fsh, ins.fmask)
		case kLin2W:
			lin2WBlock(d, slotAt(buf, ins.a), slotAt(buf, ins.b), ins.m0, ins.m1, ins.k, ins.rs, ins.fsh, ins.fmask)
		case kConst:
			v := T(ins.k)
			for i := range d {
				d[i] = v
			}
		case kCopy:
			*d = *slotAt(buf, ins.a)
		case kLin1:
			lin1Block(d, slotAt(buf, ins.a), ins.m0, ins.k, ins.rs)
		case kLin1Neg:
			lin1Block(d, slotAt(buf, ins.a), -ins.m0, ins.k, ins.rs)
		case kAdd:
			addBlock(d, slotAt(buf, ins.a), slotAt(buf, ins.b))
		case kSub:
			subBlock(d, slotAt(buf, ins.a), slotAt(buf, ins.b))
		case kAddShB:
			addMulBlock(d, slotAt(buf, ins.a), slotAt(buf, ins.b), ins.m1)
		case kSubShB:
			subMulBlock(d, slotAt(buf, ins.a), slotAt(buf, ins.b), ins.m1)
		case kAddShA:
			addMulBlock(d, slotAt(buf, ins.b), slotAt(buf, ins.a), ins.m0)
		case kSubShA:
			mulSubBlock(d, slotAt(buf, ins.a), slotAt(buf, ins.b), ins.m0)
		case kLin2:
			lin2Block(d, slotAt(buf, ins.a), slotAt(buf, ins.b), ins.m0, ins.m1, ins.k, ins.rs)
		case kLin2Sub:
			lin2Block(d, slotAt(buf, ins.a), slotAt(buf, ins.b), ins.m0, -ins.m1, ins.k, ins.rs)
		case kReLU:
			a := slotAt(buf, ins.a)
			s, r := ins.s0&63, ins.rs&63
			for i := range d {
				d[i] = T((max(int64(a[i]), 0) << s) >> r)
			}
		case kReLUNeg:
			a := slotAt(buf, ins.a)
			s, r := ins.s0&63, ins.rs&63
			for i := range d {
				d[i] = T((max(-int64(a[i]), 0) << s) >> r)
			}
		case kMux:
			a, b, c := slotAt(buf, ins.a), slotAt(buf, ins.b), slotAt(buf, ins.c)
			s0, r0, s1, r1 := ins.s0&63, ins.rs&63, ins.s1&63, ins.rs2&63
			cb, ng := uint8(ins.k)&63, ins.m
			w, mask := ins.fsh&63, ins.fmask
			for i := range d {
				sel := -(int64(c[i]) >> cb & 1) // all ones if the bit is set
				va := int64(a[i]) << s0 >> r0
				vb := ((int64(b[i]) ^ ng) - ng) << s1 >> r1
				d[i] = T((va&sel | vb&^sel) << w >> w & mask)
			}
		case kMuxGT:
			a, b, c := slotAt(buf, ins.a), slotAt(buf, ins.b), slotAt(buf, ins.c)
			s0, r0, s1, r1 := ins.s0&63, ins.rs&63, ins.s1&63, ins.rs2&63
			thr, ng := ins.k, ins.m
			w, mask := ins.fsh&63, ins.fmask
			for i := range d {
				var sel int64
				if int64(c[i]) > thr {
					sel = -1
				}
				va := int64(a[i]) << s0 >> r0
				vb := ((int64(b[i]) ^ ng) - ng) << s1 >> r1
				d[i] = T((va&sel | vb&^sel) << w >> w & mask)
			}
		case kMul:
			a, b := slotAt(buf, ins.a), slotAt(buf, ins.b)
			s, r := ins.s0&63, ins.rs&63
			for i := range d {
				d[i] = T((int64(a[i]) * int64(b[i]) << s) >> r)
			}
		case kLookup:
			a := slotAt(buf, ins.a)
			tab, off := ins.tab, ins.k
			for i := range n {
				x := int64(a[i]) - off
				if uint64(x) >= uint64(len(tab)) {
					return fmtSample(m.prog.opErr(int(ins.op), "lookup index %d out of range [0, %d)", x, len(tab)), base+i)
				}
				d[i] = T(tab[x])
			}
			clear(d[n:])
		case kNot:
			a := slotAt(buf, ins.a)
			ng, mask := ins.m, ins.k
			for i := range d {
				d[i] = T(^((int64(a[i]) ^ ng) - ng) & mask)
			}
		case kReduceAny:
			a := slotAt(buf, ins.a)
			for i := range d {
				var v T
				if a[i] != 0 {
					v = 1
				}
				d[i] = v
			}
		case kReduceAll:
			a := slotAt(buf, ins.a)
			ng, mask := ins.m, ins.k
			for i := range d {
				var v T
				if ((int64(a[i])^ng)-ng)&mask == mask {
					v = 1
				}
				d[i] = v
			}
		case kAnd:
			a, b := slotAt(buf, ins.a), slotAt(buf, ins.b)
			s0, s1 := ins.s0, ins.s1
			for i := range d {
				d[i] = T(int64(a[i]) << s0 & (int64(b[i]) << s1))
			}
		case kOr:
			a, b := slotAt(buf, ins.a), slotAt(buf, ins.b)
			s0, s1 := ins.s0, ins.s1
			for i := range d {
				d[i] = T(int64(a[i])<<s0 | int64(b[i])<<s1)
			}
		case kXor:
			a, b := slotAt(buf, ins.a), slotAt(buf, ins.b)
			s0, s1 := ins.s0, ins.s1
			for i := range d {
				d[i] = T(int64(a[i])<<s0 ^ int64(b[i])<<s1)
			}
		case kSumN:
			acc := &w.acc
			for i := range acc {
				acc[i] = ins.k
			}
			for _, st := range ins.sum {
				a, mul := slotAt(buf, st.off), st.m
				for i := range acc {
					acc[i] += int64(a[i]) * mul
				}
			}
			r := ins.rs & 63
			for i := range d {
				d[i] = T(acc[i] >> r)
			}
		case kExact:
			if err := exactKernel(m, w, int(ins.op), d, in, n, base); err != nil {
				return err
			}
		}
		switch ins.wrap {
		case wrapSigned:
			wrapBlock(d, ins.wrapW, -1)
		case wrapUnsigned:
			wrapBlock(d, 0, ins.mask)
		case wrapZero:
			clear(d[:])
		}
	}
	writeOutputs(m, w, out, n)
	return nil
}

// inSpec is one kInput instruction of an input run.
type inSpec struct {
	d, col int
	scale  float64
	w      uint8
	mask   int64
}

// buildInputs groups consecutive kInput instructions (all the inputs: they
// run first, see execOrder) into input runs, which inputRun converts by
// tiles of rows instead of one column of the whole block at a time.
func (m *Machine) buildInputs() {
	for k := 0; k < len(m.code); {
		j := k
		for j < len(m.code) && m.code[j].kind == kInput && m.code[j].wrap == wrapNone {
			j++
		}
		if j-k >= 2 {
			m.code[k].istart, m.code[k].ilen = int32(len(m.inputs)), int32(j-k)
			for _, ins := range m.code[k:j] {
				m.inputs = append(m.inputs, inSpec{d: ins.d, col: ins.a, scale: ins.scale, w: ins.fsh & 63, mask: ins.fmask})
			}
		}
		k = max(j, k+1)
	}
}

// inputRun is inputKernel for several inputs at once, by tiles of
// ioTile samples: each tile's rows are read once for all its inputs, and
// each input's slot written ioTile values at a time.
func inputRun[T elem](buf []T, specs []inSpec, in []float64, nIn, n int) {
	for i0 := 0; i0 < n; i0 += ioTile {
		i1 := min(i0+ioTile, n)
		for q := range specs {
			sp := &specs[q]
			sc, w, mask := sp.scale, sp.w, sp.mask
			d := buf[sp.d+i0 : sp.d+i1]
			src := in[i0*nIn+sp.col:]
			if !inputTile(d, src, nIn, sc, w, mask) {
				inputTileSlow(d, src, nIn, sc, w, mask)
			}
		}
	}
	for q := range specs {
		clear(buf[specs[q].d+n : specs[q].d+blockSize])
	}
}

// inputTile converts a tile of one input: d[t] = wrap(floor(src[t*nIn] *
// sc)). It returns false, leaving the work to inputTileSlow, at a value
// beyond ±2^63 or NaN. (A small function of its own, not inlined: its few
// variables stay in registers.)
//
//go:noinline
func inputTile[T elem](d []T, src []float64, nIn int, sc float64, w uint8, mask int64) bool {
	w &= 63
	for t := range d {
		x := src[t*nIn] * sc
		if !(x > -0x1p63 && x < 0x1p63) { // NaN too
			return false
		}
		v := int64(x) // truncates toward zero
		if float64(v) > x {
			v-- // floor of a negative non-integer
		}
		d[t] = T(v << w >> w & mask)
	}
	return true
}

// outputTile writes dst[t*nOut] = ±v[t] * sc (neg is 0 or -1).
//
//go:noinline
func outputTile[T elem](dst []float64, nOut int, v []T, neg int64, sc float64) {
	for t, x := range v {
		x := int64(x)
		dst[t*nOut] = float64((x^neg)-neg) * sc
	}
}

// inputTileSlow converts a tile of one input that holds huge values or NaN.
//
//go:noinline
func inputTileSlow[T elem](d []T, src []float64, nIn int, sc float64, w uint8, mask int64) {
	w &= 63
	for t := range d {
		x := src[t*nIn] * sc
		var v int64
		if x > -0x1p63 && x < 0x1p63 {
			v = int64(math.Floor(x))
		} else {
			v = hugeToBits(math.Floor(x))
		}
		d[t] = T(v << w >> w & mask)
	}
}

// ioTile is the number of samples inputRun and writeOutputs convert
// together.
const ioTile = 16

// inputKernel quantizes column col of n input rows: floor, then wrap
// ((v << w >> w) & mask); rows past n are zero.
func inputKernel[T elem](d *blk[T], in []float64, nIn, col, n int, scale float64, w uint8, mask int64) {
	w &= 63
	for i := range n {
		x := in[i*nIn+col] * scale
		var v int64
		if x > -0x1p63 && x < 0x1p63 { // false for NaN
			v = int64(x) // truncates toward zero
			if float64(v) > x {
				v-- // floor of a negative non-integer
			}
		} else {
			v = hugeToBits(math.Floor(x))
		}
		d[i] = T(v << w >> w & mask)
	}
	clear(d[n:])
}

// hugeToBits returns the integer x (|x| >= 2^63 or not finite) modulo 2^64;
// NaN and infinities give 0.
func hugeToBits(x float64) int64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	b := math.Float64bits(x)
	exp := int(b>>52&0x7ff) - 1075 // x = mant * 2^exp
	mant := b&(1<<52-1) | 1<<52
	var v uint64
	if exp < 64 {
		v = mant << uint(exp) // exp >= 11 here
	}
	if x < 0 {
		v = -v
	}
	return int64(v)
}

// exactKernel evaluates operation i exactly for the first n samples.
func exactKernel[T elem](m *Machine, w *worker[T], i int, d *blk[T], in []float64, n, base int) error {
	p := m.prog
	op := p.Ops[i]
	ids := op.operands(p.Dialect)
	k := len(ids)
	nIn := p.NumInputs()
	val := func(j int32) *big.Int {
		for q := range k {
			if ids[q] == j {
				return &w.ops[q]
			}
		}
		return &w.ops[0] // not reached: operations read only their operands
	}
	for s := range n {
		for q := range k {
			id := ids[q]
			v := int64(slotAt(w.buf, m.slotOf[id])[s])
			switch {
			case m.wide[id]:
				w.ops[q].Set(&w.wide[id][s])
			case m.u64[id]:
				w.ops[q].SetUint64(uint64(v))
			default:
				w.ops[q].SetInt64(v)
			}
		}
		var row []float64
		if op.Opcode == OpInput {
			row = in[s*nIn : (s+1)*nIn]
		}
		if err := w.exact.op(i, val, row, &w.res); err != nil {
			return fmtSample(err, base+s)
		}
		d[s] = T(lo64(&w.res))
		if m.wide[i] {
			w.wide[i][s].Set(&w.res)
		}
	}
	clear(d[n:])
	return nil
}

// writeOutputs converts the output slots of n samples to float64 rows:
// the plain outputs (rowOutput) by tiles of ioTile samples, then
// the others column by column.
func writeOutputs[T elem](m *Machine, w *worker[T], out []float64, n int) {
	nOut := len(m.outs)
	if fast := m.fastOuts; len(fast) > 0 {
		buf := w.buf
		for s0 := 0; s0 < n; s0 += ioTile {
			s1 := min(s0+ioTile, n)
			for q := range fast {
				o := &fast[q]
				outputTile(out[s0*nOut+o.col:], nOut, buf[o.slot+s0:o.slot+s1], o.neg, o.scale)
			}
		}
	}
	for j, o := range m.outs {
		if o.fast {
			continue
		}
		if o.slot < 0 {
			for s := range n {
				out[s*nOut+j] = 0
			}
			continue
		}
		v := slotAt(w.buf, o.slot)
		sc := o.scale
		switch {
		case o.wide >= 0:
			var x big.Int
			for s := range n {
				x.Set(&w.wide[o.wide][s])
				if o.neg {
					x.Neg(&x)
				}
				out[s*nOut+j] = bigToFloat(&x) * sc
			}
		case o.unsigned:
			for s := range n {
				f := float64(uint64(v[s]))
				if o.neg && f != 0 {
					f = -f
				}
				out[s*nOut+j] = f * sc
			}
		case o.neg:
			for s := range n {
				f := 0x1p63 // -(-2^63)
				if x := int64(v[s]); x != math.MinInt64 {
					f = float64(-x)
				}
				out[s*nOut+j] = f * sc
			}
		default:
			for s := range n {
				out[s*nOut+j] = float64(v[s]) * sc
			}
		}
	}
}

// rowOutput is an output written by writeOutputs' tile loop: a signed slot,
// negated (neg = -1) only if it cannot hold -2^63 (whose negation
// overflows).
type rowOutput struct {
	col, slot int
	neg       int64
	scale     float64
}

// buildOutputs picks the outputs writeOutputs writes row by row.
func (m *Machine) buildOutputs() {
	for j := range m.outs {
		o := &m.outs[j]
		if o.slot < 0 || o.wide >= 0 || o.unsigned || o.neg && m.vr[m.prog.Outputs[j].Index].Lo.Cmp(minInt64) <= 0 {
			continue
		}
		ro := rowOutput{col: j, slot: o.slot, scale: o.scale}
		if o.neg {
			ro.neg = -1
		}
		o.fast = true
		m.fastOuts = append(m.fastOuts, ro)
	}
}
