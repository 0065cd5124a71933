package rtl

import (
	"math"
)

// Estimate is a design's area on a Xilinx 6-input-LUT fabric as yosys's
// synth_xilinx maps it, estimated from the netlist in microseconds instead
// of minutes (docs/rtl.md "Cost model"; calibrated against yosys 0.23 on
// the designs of testdata/area/calibration.tsv, TestEstimateCalibration).
type Estimate struct {
	LUTs      int // LUT1..LUT6 cells
	Carry     int // CARRY4 cells
	FlipFlops int // FD* cells: register bits
}

// areaFeatures are the netlist's counts the estimate weighs.
type areaFeatures struct {
	adderBits  int // result bits of adders and subtractors that need a carry chain
	carryCells int // ceil(bits/4) per adder
	muxBits    int // 2:1 multiplexer bits
	gateBits   int // bits of and/or/xor/not
	reduceIns  int // inputs of or/and reductions
	lookupLUTs int // 6-input LUTs of the ROMs: out bits · 2^max(index-6, 0)
	mulBits    int // partial-product bits of multipliers
	regBits    int // register bits
}

// The weights of the features, fitted by least squares on the calibration
// designs (bench/lut-model.sh prints the fit):
//   - an adder bit is one LUT (the carry chain's propagate) and a quarter
//     of a CARRY4, whatever drives it;
//   - a mux bit is a LUT3, and yosys packs about two of them per LUT6
//     when they share a select;
//   - a reduction of n inputs is a tree of LUT6s, n/5 of them;
//   - a multiplier's partial products cost about a LUT each.
const (
	lutPerAdderBit  = 1.0
	lutPerMuxBit    = 1.0
	lutPerGateBit   = 0.5
	lutPerReduceIn  = 0.2
	lutPerMulBit    = 1.0
	lutPerLookupLUT = 1.0
)

// Estimate returns the design's estimated area.
func (d *Design) Estimate() Estimate {
	f := d.features()
	luts := lutPerAdderBit*float64(f.adderBits) + lutPerMuxBit*float64(f.muxBits) +
		lutPerGateBit*float64(f.gateBits) + lutPerReduceIn*float64(f.reduceIns) +
		lutPerMulBit*float64(f.mulBits) + lutPerLookupLUT*float64(f.lookupLUTs)
	return Estimate{LUTs: int(math.Round(luts)), Carry: f.carryCells, FlipFlops: f.regBits}
}

// features counts what synthesis keeps: the bits of each net that some
// output depends on (the rest yosys removes), an adder's low bits that
// pass one operand through unchanged (the other's are constant zeros:
// wires, not LUTs) excluded.
func (d *Design) features() areaFeatures {
	used := d.usedBits()
	var f areaFeatures
	for i, n := range d.nets {
		w := used[i]
		if w == 0 {
			continue
		}
		switch n.kind {
		case kAdd, kSub:
			low := trailingZeros(n.b)
			if n.kind == kAdd {
				low = max(low, trailingZeros(n.a))
			}
			if bits := w - low; bits > 0 {
				f.adderBits += bits
				f.carryCells += (bits + 3) / 4
			}
		case kMux:
			f.muxBits += w
		case kAnd, kOr, kXor, kNot:
			f.gateBits += w
		case kRedOr, kRedAnd:
			f.reduceIns += n.a.width()
		case kLookup:
			t := d.tables[n.table]
			f.lookupLUTs += w << max(t.index-6, 0)
		case kMul:
			f.mulBits += n.a.width() * n.b.width()
		case kReg:
			f.regBits += w
		}
	}
	return f
}

// usedBits returns, for every net, how many of its low bits an output
// depends on (0: the net is dead). Nets only read earlier nets, so one
// pass from the last net back finds them.
func (d *Design) usedBits() []int {
	used := make([]int, len(d.nets))
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
	return used
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
