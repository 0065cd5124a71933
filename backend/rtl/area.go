package rtl

import (
	"math"
	"strconv"
)

// Estimate is a design's area on a Xilinx 6-input-LUT fabric as yosys's
// synth_xilinx maps it, estimated from the netlist in milliseconds instead
// of minutes (docs/rtl.md "Cost model"; calibrated against yosys 0.23 on
// the designs of testdata/area/calibration.tsv, TestEstimateCalibration).
type Estimate struct {
	LUTs      int `json:"luts"`       // LUT1..LUT6 cells
	Carry     int `json:"carry"`      // CARRY4 cells
	FlipFlops int `json:"flip_flops"` // FD* cells: Design.FlipFlops
	DSPs      int `json:"dsps"`       // DSP48E1 cells: synth_xilinx maps each multiplier to them
}

// areaFeatures are the netlist's counts the estimate weighs.
type areaFeatures struct {
	carryBits  int // result bits of adders that need a carry chain (below: which of them need a LUT)
	adderBits  int // those whose operands' bits both vary: a LUT (the carry chain's propagate)
	invBits    int // those where one operand's bit is a constant that makes the other's bit inverted: a LUT
	cmpBits    int // those of subtractors whose sign bit alone is read: comparisons
	muxBits    int // 2:1 multiplexer bits
	zeroBits   int // multiplexer bits one of whose inputs is constant zero: AND gates
	gateBits   int // bits of and/or/xor/not
	reduceIns  int // inputs of or/and reductions
	lookupLUTs int // 6-input LUTs of the ROMs: out bits · romLUTs(index bits)
	dsps       int // DSP48E1 slices of the multipliers (25x18 signed each)
}

// The weights of the features, fitted by least squares on the calibration
// designs and rounded (bench/lut-model.sh; docs/rtl.md "Cost model"):
//   - an adder bit is one LUT (the carry chain's propagate, a ^ b) where
//     both operands' bits vary: 1; where one is a constant bit that
//     inverts the other, 0.95; where the constant passes the other bit as
//     it is, none (a wire); the carry out, above both operands' bits,
//     none; 0.9 a bit when only the sign is read (a comparison);
//   - a 2:1 mux bit, and an AND with a mux's zero branch, fold into the
//     LUT of the adder or comparison next to it: 0;
//   - and/or/xor/not bits pack two to a LUT: 0.5; a reduction of n inputs
//     is a tree of LUT6s: n/5;
//   - a ROM takes a LUT6 per output bit and 64 entries, and beyond 256
//     entries a tree of LUT6 multiplexers (romLUTs), a few shared: 0.95;
//   - a multiplier is DSP slices, no LUTs (synth_xilinx's default);
//   - a carry cell (CARRY4) serves about four adder bits, the carry out
//     included: 0.24 a bit.
//
// Statements that repeat an earlier one count once (merged: yosys's
// opt_merge), in the logic and in the pipeline registers.
const (
	lutPerAdderBit  = 1
	lutPerInvBit    = 0.95
	lutPerCmpBit    = 0.9
	lutPerGateBit   = 0.5
	lutPerReduceIn  = 0.2
	lutPerLookupLUT = 0.95
	carryPerBit     = 0.24
)

// Estimate returns the design's estimated area.
func (d *Design) Estimate() Estimate {
	f := d.features()
	luts := lutPerAdderBit*float64(f.adderBits) + lutPerInvBit*float64(f.invBits) + lutPerCmpBit*float64(f.cmpBits) +
		lutPerGateBit*float64(f.gateBits) + lutPerReduceIn*float64(f.reduceIns) +
		lutPerLookupLUT*float64(f.lookupLUTs)
	carry := carryPerBit * float64(f.carryBits)
	return Estimate{LUTs: int(math.Round(luts)), Carry: int(math.Round(carry)), FlipFlops: d.FlipFlops, DSPs: f.dsps}
}

// features counts what synthesis keeps: the bits of each net that some
// output depends on (the rest yosys removes), an adder's low bits that
// pass one operand through unchanged (the other's are constant zeros:
// wires, not LUTs) excluded.
func (d *Design) features() areaFeatures {
	used, signOnly := d.usedBits()
	addressOnly := d.addressOnly()
	var f areaFeatures
	for i, n := range d.nets {
		w := used[i]
		if w == 0 {
			continue
		}
		switch n.kind {
		case kAdd, kSub:
			constant := isConst(n.a) || isConst(n.b)
			if constant && addressOnly[i] {
				continue // a constant offset of a ROM's address: folded into the ROM
			}
			low := trailingZeros(n.b)
			if n.kind == kAdd {
				low = max(low, trailingZeros(n.a))
			}
			// The top bit, above both operands' own bits, is the carry
			// chain's carry out: no LUT.
			hi := min(w, max(significant(n.a), significant(n.b)))
			if hi <= low {
				continue
			}
			f.carryBits += min(w, hi+1) - low // the carry out's included
			if signOnly[i] {
				f.cmpBits += hi - low
				continue
			}
			adder, inv := adderBitLUTs(n, low, hi)
			f.adderBits += adder
			f.invBits += inv
		case kMux:
			if isZero(n.a) || isZero(n.b) {
				f.zeroBits += w
			} else {
				f.muxBits += w
			}
		case kAnd, kOr, kXor, kNot:
			f.gateBits += w
		case kRedOr, kRedAnd:
			f.reduceIns += n.a.width()
		case kLookup:
			t := d.tables[n.table]
			f.lookupLUTs += w * romLUTs(t.index)
		case kMul:
			// Operands of up to 25 and 18 bits fit one slice; wider ones
			// take a slice per 25x18 tile.
			a, b := significant(n.a), significant(n.b)
			wa, wb := max(a, b), min(a, b)
			f.dsps += ((wa + 24) / 25) * ((wb + 17) / 18)
		}
	}
	return f
}

// usedBits returns, for every net, how many of its low bits an output
// depends on (0: the net is dead), and whether its top bit is all that is
// read. Nets only read earlier nets, so one pass from the last net back
// finds them.
//
// A net that repeats an earlier one (the same statement on the same
// operands) is never used: its readers read the earlier net, as yosys's
// opt_merge makes them, so the area counts each distinct statement once.
func (d *Design) usedBits() ([]int, []bool) {
	used := make([]int, len(d.nets))
	below := make([]bool, len(d.nets)) // a bit below the top is read
	canon := d.merged()
	mark := func(e expr) {
		for _, p := range e {
			if p.net < 0 {
				continue
			}
			hi := p.hi
			if p.rep {
				hi = p.lo
			}
			n := canon[p.net]
			used[n] = max(used[n], hi+1)
			if p.lo < d.nets[n].width-1 {
				below[n] = true
			}
		}
	}
	for _, o := range d.outs {
		mark(o)
	}
	for i := len(d.nets) - 1; i >= 0; i-- {
		if used[i] == 0 {
			continue
		}
		n := d.nets[i]
		if n.kind == kAdd || n.kind == kSub {
			// A carry chain: bit k depends on every operand bit below it.
			mark(trim(n.a, used[i]))
			mark(trim(n.b, used[i]))
		} else {
			mark(n.a)
			mark(n.b)
		}
		mark(n.c)
	}
	signOnly := make([]bool, len(d.nets))
	for i, n := range d.nets {
		signOnly[i] = used[i] == n.width && !below[i]
	}
	return used, signOnly
}

// trim returns the low w bits of e.
func trim(e expr, w int) expr {
	var out expr
	skip := e.width() - w
	for _, p := range e {
		pw := p.width()
		switch {
		case skip >= pw:
			skip -= pw
			continue
		case skip > 0:
			p.hi -= skip
			skip = 0
		}
		out = append(out, p)
	}
	return out
}

// trailingZeros returns how many low bits of e are constant zeros.
func trailingZeros(e expr) int {
	z := 0
	for k := len(e) - 1; k >= 0; k-- {
		p := e[k]
		if p.net >= 0 {
			return z
		}
		if p.c.Sign() == 0 {
			z += p.width()
			continue
		}
		return z + int(p.c.TrailingZeroBits())
	}
	return z
}

// significant returns e's width less a leading sign extension.
func significant(e expr) int {
	w := e.width()
	if len(e) > 1 && e[0].rep {
		w -= e[0].width()
	}
	return w
}

// addressOnly reports, for every net, whether only lookup addresses read
// it (and no output).
func (d *Design) addressOnly() []bool {
	other := make([]bool, len(d.nets))
	read := make([]bool, len(d.nets))
	mark := func(e expr, byLookup bool) {
		for _, p := range e {
			if p.net >= 0 {
				read[p.net] = true
				other[p.net] = other[p.net] || !byLookup
			}
		}
	}
	for _, o := range d.outs {
		mark(o, false)
	}
	for _, n := range d.nets {
		mark(n.a, n.kind == kLookup)
		mark(n.b, false)
		mark(n.c, false)
	}
	only := make([]bool, len(d.nets))
	for i := range only {
		only[i] = read[i] && !other[i]
	}
	return only
}

// isConst reports whether e is all constant bits.
func isConst(e expr) bool {
	for _, p := range e {
		if p.net >= 0 {
			return false
		}
	}
	return true
}

// isZero reports whether e is constant zero.
func isZero(e expr) bool {
	for _, p := range e {
		if p.net >= 0 || p.c.Sign() != 0 {
			return false
		}
	}
	return true
}

// merged returns, for every net, the first net of the same statement on
// the same operands (itself if none came before): yosys's opt_merge, which
// also takes the operands of commutative cells in either order. Built
// once: the pipeline's register count and the estimate both read it.
func (d *Design) merged() []int {
	if len(d.canon) == len(d.nets) {
		return d.canon
	}
	canon := make([]int, len(d.nets))
	for i := range canon {
		canon[i] = i // a net read before its statement (a register's loop) is itself
	}
	first := make(map[string]int, len(d.nets))
	var key, ka, kb []byte
	for i, n := range d.nets {
		if n.kind == kPort {
			continue // driven from outside: each port its own
		}
		ka = appendExprKey(ka[:0], n.a, canon)
		kb = appendExprKey(kb[:0], n.b, canon)
		if commutative(n.kind) && string(kb) < string(ka) {
			ka, kb = kb, ka
		}
		key = append(key[:0], byte(n.kind))
		key = strconv.AppendInt(key, int64(n.width), 10)
		key = append(key, ' ')
		key = strconv.AppendInt(key, int64(n.table), 10)
		key = append(key, '|')
		key = append(key, ka...)
		key = append(key, '|')
		key = append(key, kb...)
		key = append(key, '|')
		key = appendExprKey(key, n.c, canon)
		if j, ok := first[string(key)]; ok {
			canon[i] = j
		} else {
			first[string(key)] = i
		}
	}
	d.canon = canon
	return canon
}

// commutative reports whether a statement's a and b may be swapped.
func commutative(k kind) bool {
	switch k {
	case kAdd, kMul, kAnd, kOr, kXor:
		return true
	}
	return false
}

// appendExprKey appends a text that identifies e, its nets taken as their
// canonical nets.
func appendExprKey(b []byte, e expr, canon []int) []byte {
	for _, p := range e {
		if p.net < 0 {
			b = append(b, 'c')
			b = p.c.Append(b, 16)
		} else {
			b = strconv.AppendInt(b, int64(canon[p.net]), 10)
		}
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(p.hi), 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(p.lo), 10)
		if p.rep {
			b = append(b, 'r')
		}
		b = append(b, ',')
	}
	return b
}

// adderBitLUTs sorts the bits low..hi-1 of an add or subtract by the
// LUT its carry chain needs for the bit's propagate (a ^ b, b inverted for a
// subtract): adder, both operands' bits vary; inv, one is a constant bit
// that inverts the other. Where a constant bit passes the other operand's
// bit as it is (0 added, 1 subtracted) the propagate is a wire.
func adderBitLUTs(n net, low, hi int) (adder, inv int) {
	sub := n.kind == kSub
	for i := low; i < hi; i++ {
		ca, va := constBit(n.a, i)
		cb, vb := constBit(n.b, i)
		switch {
		case ca && cb:
		case !ca && !cb:
			adder++
		default:
			v := va
			if cb {
				v = vb
			}
			if (v == 1) != sub {
				inv++
			}
		}
	}
	return adder, inv
}

// constBit reports whether bit i of e (0: its least significant) is a
// constant, and its value.
func constBit(e expr, i int) (bool, uint) {
	for k := len(e) - 1; k >= 0; k-- {
		p := e[k]
		if w := p.width(); i >= w {
			i -= w
			continue
		}
		if p.net >= 0 {
			return false, 0
		}
		return true, p.c.Bit(i)
	}
	return true, 0
}

// romLUTs is the 6-input LUTs of one output bit of a ROM with an index of
// k bits: a LUT6 per 64 entries; up to 256 entries the slice's MUXF7 and
// MUXF8 (not LUTs) choose among them, and beyond, a tree of LUT6s used as
// 4:1 multiplexers chooses among the 2^(k-8) MUXF8 outputs.
func romLUTs(k int) int {
	n := 1 << max(k-6, 0)
	for m := 1 << max(k-8, 0); m > 1; m = (m + 3) / 4 {
		n += (m + 3) / 4
	}
	return n
}
