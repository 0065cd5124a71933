package rtl

import (
	"math"
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
	adderBits  int // result bits of adders of two varying operands that need a carry chain
	constBits  int // the same of adders of a varying operand and a constant
	cmpBits    int // the same of subtractors whose sign bit alone is read: comparisons
	muxBits    int // 2:1 multiplexer bits
	zeroBits   int // multiplexer bits one of whose inputs is constant zero: AND gates
	gateBits   int // bits of and/or/xor/not
	reduceIns  int // inputs of or/and reductions
	lookupLUTs int // 6-input LUTs of the ROMs: out bits · 2^max(index-6, 0)
	dsps       int // DSP48E1 slices of the multipliers (25x18 signed each)
}

// The weights of the features, fitted by least squares on the calibration
// designs and rounded (bench/lut-model.sh; docs/rtl.md "Cost model"):
//   - an adder bit is about one LUT (the carry chain's propagate; yosys
//     merges a few into neighbouring logic): 0.95, 0.9 with a constant
//     operand or when only its sign is read;
//   - a 2:1 mux bit, and an AND with a mux's zero branch, fold into the
//     LUT of the adder or comparison next to it: 0;
//   - and/or/xor/not bits pack two to a LUT: 0.5; a reduction of n inputs
//     is a tree of LUT6s: n/5;
//   - a ROM takes a LUT6 per output bit and 64 entries, a few shared: 0.95;
//   - a multiplier is DSP slices, no LUTs (synth_xilinx's default);
//   - a carry cell (CARRY4) serves about four adder bits: 0.24 a bit.
const (
	lutPerAdderBit  = 0.95
	lutPerConstBit  = 0.9
	lutPerGateBit   = 0.5
	lutPerReduceIn  = 0.2
	lutPerLookupLUT = 0.95
	carryPerBit     = 0.24
)

// Estimate returns the design's estimated area.
func (d *Design) Estimate() Estimate {
	f := d.features()
	luts := lutPerAdderBit*float64(f.adderBits) + lutPerConstBit*float64(f.constBits+f.cmpBits) +
		lutPerGateBit*float64(f.gateBits) + lutPerReduceIn*float64(f.reduceIns) +
		lutPerLookupLUT*float64(f.lookupLUTs)
	carry := carryPerBit * float64(f.adderBits+f.constBits+f.cmpBits)
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
			bits := w - low
			if bits <= 0 {
				continue
			}
			switch {
			case signOnly[i]:
				f.cmpBits += bits
			case constant:
				f.constBits += bits
			default:
				f.adderBits += bits
			}
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
			f.lookupLUTs += w << max(t.index-6, 0)
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
func (d *Design) usedBits() ([]int, []bool) {
	used := make([]int, len(d.nets))
	below := make([]bool, len(d.nets)) // a bit below the top is read
	mark := func(e expr) {
		for _, p := range e {
			if p.net < 0 {
				continue
			}
			hi := p.hi
			if p.rep {
				hi = p.lo
			}
			used[p.net] = max(used[p.net], hi+1)
			if p.lo < d.nets[p.net].width-1 {
				below[p.net] = true
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
