// Package rtl writes ALIR and DAIS programs as hardware: plain Verilog-2001
// and VHDL-2008, combinational or pipelined.
//
// The top module follows alkaid's port convention: input [W_in-1:0]
// model_inp holds the input lanes packed from the least significant bit,
// lane j taking the k+i+f bits of input j's type as raw two's complement
// (after the input shift and wrap); output [W_out-1:0] model_out packs the
// outputs the same way, each with its final type (the op's interval scaled
// by the output shift and negated if the output is negated: the raw lane
// is ±the op's raw value). A pipelined design also has input clk.
//
// Values are exact, as the interpreter's semantics (backend/alir,
// semantics.go) define them: every net is as wide as the proven range of
// its values, and only the operations that wrap (input, relu, quantize,
// mux and DAIS's negated forms) drop high bits. See docs/rtl.md.
package rtl

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/backend/alir"
)

// Options controls Build.
type Options struct {
	// Name is the design's name: the top module's name and the prefix of
	// every other name in the design, made legal by DesignName. Empty:
	// "otir".
	Name string
	// LatencyCutoff, when positive, pipelines the design: registers are
	// placed so that no stage spans more than LatencyCutoff units of delay
	// (by Delay), with the fewest register bits at the fewest stages the
	// cutoff allows (DelayEstimate). 0: combinational. It must be a finite
	// number >= 0 that gives the program at most MaxStages stages and
	// MaxRegisters pipeline registers.
	LatencyCutoff float64
	// Delay chooses the delays LatencyCutoff cuts by: DelayEstimate (the
	// zero value) estimates every op's delay from the design's own nets,
	// DelayProgram reads the latencies stored in the program.
	Delay DelayModel
}

// Bounds of a pipeline, so that no cutoff (1e-300) or stored latency
// (1e308) makes a design that exhausts the memory: at most MaxStages
// stages, and at most MaxRegisters pipeline registers (nets registering a
// value to a later stage).
const (
	MaxStages    = 10000
	MaxRegisters = 1 << 19
)

// CutoffError reports a latency cutoff Build cannot use: not a finite
// number >= 0, or one that would give the program more than MaxStages
// stages or MaxRegisters registers. The option is at fault (a usage error),
// not the program.
type CutoffError struct{ msg string }

func (e *CutoffError) Error() string { return e.msg }

// Lane is one input or output lane of the ports: Width bits of raw two's
// complement (or unsigned) fixed-point with Frac fractional bits, at bit
// Offset of model_inp or model_out.
type Lane struct {
	Offset, Width int
	Signed        bool
	Frac          int
	// Widened (outputs only): the lane is wider than the output's type,
	// because the program is not portable (some value may leave its op's
	// type) and the op's proven values exceed its type.
	Widened bool
}

// Design is a program lowered to a netlist, ready to be written.
type Design struct {
	// Name is the design's name, legal in both languages (DesignName of
	// Options.Name): the module and entity; the testbench is Name_tb.
	Name string
	// Inputs and Outputs are the lanes of model_inp and model_out.
	Inputs, Outputs []Lane
	// InWidth and OutWidth are the widths of model_inp and model_out
	// (each at least 1 in the printed ports: a design without input bits
	// has an unused model_inp[0:0]).
	InWidth, OutWidth int
	// Latency is the number of rising clock edges from an input to its
	// output (0: combinational).
	Latency int
	// Ops is the number of operations of the program.
	Ops int
	// RegisterBits is the number of pipeline register bits a synthesis
	// tool keeps: bits an output reads, not constant, one for registers of
	// the same bit. FlipFlops are those yosys's synth_xilinx keeps as FD
	// cells, the rest being shift-register chains it maps to SRL16E. 0:
	// combinational.
	RegisterBits, FlipFlops int
	// Delay is the estimated combinational delay of the design's longest
	// stage, in the estimate's units (alkaid's surrogate model, about ns:
	// DelayEstimate); 0 for DelayProgram.
	Delay float64

	nets   []net
	canon  []int // merged(), kept once the design is built
	tables []table
	outs   []expr // model_out lanes, lane 0 first; nil: width 0
	cutoff float64
	model  DelayModel
}

// val is an integer value: a constant, or bits lo.. of a net taken as a
// width-bit two's complement (signed) or unsigned number.
type val struct {
	c      *big.Int // constant; nil: a net
	net    int
	lo     int
	width  int
	signed bool
}

func (v val) isConst() bool { return v.c != nil }

func constVal(c *big.Int) val { return val{c: c} }

// bitsFor returns the width and signedness of the narrowest vector holding
// every integer of [lo, hi] (width 0 for [0, 0]).
func bitsFor(lo, hi *big.Int) (int, bool) {
	if lo.Sign() >= 0 {
		return hi.BitLen(), false
	}
	// signed: -2^(w-1) <= lo, hi < 2^(w-1)
	n := new(big.Int).Not(lo).BitLen() // lo < 0: bits of -lo-1
	return max(n, hi.BitLen()) + 1, true
}

// ErrCannotExpress is returned for programs no design can express.
var ErrCannotExpress = errors.New("rtl: the program cannot be expressed as a design")

// builder lowers one program.
type builder struct {
	p      *alir.Program
	d      *Design
	kif    []alir.KIF
	vals   []val        // value of every op (at its own stage)
	rng    []alir.Range // proven range of every op's value
	stage  []int
	delay  map[[3]int][]int // (net, lo, width) -> a value's registers to the stages after its own
	ev     *alir.Evaluator
	pad    map[int]int64
	inLane []int // net of model_inp (index 0)
	tabOf  map[int]int
	regs   int // pipeline registers so far
	// firstNet[i] is the first net op i's lowering added (its nets are
	// firstNet[i] up to firstNet[i+1], the last its value's).
	firstNet []int
	err      error // a bound of the pipeline was hit (delayed)

	isPortable int8 // portable(): 0 unknown, 1 yes, -1 no
}

// Build lowers p to a design. p must be valid.
func Build(p *alir.Program, o Options) (*Design, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	p = mergeEqualOps(p)
	name := "otir"
	if o.Name != "" {
		name = DesignName(o.Name)
	}
	if o.LatencyCutoff < 0 || math.IsNaN(o.LatencyCutoff) || math.IsInf(o.LatencyCutoff, 0) {
		return nil, &CutoffError{fmt.Sprintf("rtl: latency cutoff %v is not a finite number >= 0 (0: combinational)", o.LatencyCutoff)}
	}
	ev, err := alir.NewEvaluator(p)
	if err != nil {
		return nil, err
	}
	if o.LatencyCutoff > 0 && o.Delay == DelayEstimate {
		// The combinational design gives every op's nets, their widths
		// and delays: the plan places the registers by them.
		comb, err := build(p, name, ev, 0, nil)
		if err != nil {
			return nil, err
		}
		pl, err := comb.plan(o.LatencyCutoff)
		if err != nil {
			return nil, err
		}
		b, err := build(p, name, ev, o.LatencyCutoff, pl)
		if err != nil {
			return nil, err
		}
		b.d.Delay = pl.worst
		b.d.RegisterBits, b.d.FlipFlops = b.d.registers()
		return b.d, nil
	}
	b, err := build(p, name, ev, o.LatencyCutoff, nil)
	if err != nil {
		return nil, err
	}
	b.d.model = DelayProgram
	if b.d.Latency > 0 {
		b.d.RegisterBits, b.d.FlipFlops = b.d.registers()
	}
	return b.d, nil
}

// build lowers p at the given cutoff: by the stored latencies when pl is
// nil, else at pl's stages.
func build(p *alir.Program, name string, ev *alir.Evaluator, cutoff float64, pl *plan) (*builder, error) {
	b := &builder{p: p, d: &Design{Name: name, Ops: len(p.Ops), cutoff: cutoff}, ev: ev,
		delay: map[[3]int][]int{}, pad: map[int]int64{}, tabOf: map[int]int{}}
	b.kif = make([]alir.KIF, len(p.Ops))
	for i, op := range p.Ops {
		t, err := op.QInt.KIF()
		if err != nil {
			return nil, err
		}
		b.kif[i] = t
	}
	if pl != nil {
		b.stage, b.d.Latency = pl.stage, pl.stages
	} else if err := b.stages(cutoff); err != nil {
		return nil, err
	}
	if err := b.inputs(); err != nil {
		return nil, err
	}
	b.vals = make([]val, len(p.Ops))
	b.rng = make([]alir.Range, len(p.Ops))
	b.firstNet = make([]int, len(p.Ops))
	ranges := alir.NewRanges(p, b.kif, func(id int32) alir.Range { return b.rng[id] })
	for i := range p.Ops {
		b.firstNet[i] = len(b.d.nets)
		if err := b.op(i, ranges); err != nil {
			return nil, err
		}
		if b.err != nil {
			return nil, b.err
		}
	}
	if err := b.outputs(); err != nil {
		return nil, err
	}
	if b.err != nil {
		return nil, b.err
	}
	return b, nil
}

// stages assigns every op its pipeline stage: the stage of its latency
// (ceil(latency/cutoff)-1, so that a stage spans (s*C, (s+1)*C]), no
// earlier than its operands'; inputs at stage 0. Every stored latency must
// be a finite number >= 0 (when pipelining, the only time they are read),
// and the largest must give at most MaxStages stages.
func (b *builder) stages(cutoff float64) error {
	p := b.p
	b.stage = make([]int, len(p.Ops))
	if cutoff == 0 {
		return nil
	}
	top := 0.0 // the largest latency of an op that is not an input
	for i, op := range p.Ops {
		if op.Latency < 0 || math.IsNaN(op.Latency) || math.IsInf(op.Latency, 0) {
			return fmt.Errorf("rtl: op %d: latency %v is not a finite number >= 0", i, op.Latency)
		}
		if op.Opcode != alir.OpInput {
			top = max(top, op.Latency)
		}
	}
	if n := math.Ceil(top / cutoff); n > MaxStages {
		return &CutoffError{fmt.Sprintf("rtl: latency cutoff %v would make %.4g pipeline stages (the largest op latency is %v); at most %d (rtl.MaxStages): use a cutoff of at least %s",
			cutoff, n, top, MaxStages, leastCutoff(top))}
	}
	last := 0
	for i, op := range p.Ops {
		s := 0
		if op.Opcode != alir.OpInput && op.Latency > 0 {
			s = max(int(math.Ceil(op.Latency/cutoff))-1, 0)
		}
		op.ForOperands(p.Dialect, func(j int32) { s = max(s, b.stage[j]) })
		b.stage[i] = s
	}
	for _, o := range p.Outputs {
		if o.Index >= 0 {
			last = max(last, b.stage[o.Index])
		}
	}
	b.d.Latency = last + 1
	return nil
}

// leastCutoff returns a short decimal cutoff, about the smallest, that
// gives an op of latency top at most MaxStages stages.
func leastCutoff(top float64) string {
	ok := func(c float64) bool { return c > 0 && math.Ceil(top/c) <= MaxStages }
	least := top / MaxStages
	for !ok(least) {
		least = math.Nextafter(least, math.Inf(1))
	}
	return roundCutoff(least, ok)
}

// leastCutoffBy returns a short decimal cutoff, about the smallest for
// which ok (monotone: false below some cutoff, true above) holds; ok(hi)
// must hold.
func leastCutoffBy(ok func(float64) bool, hi float64) string {
	lo := 0.0
	for range 100 {
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi {
			break
		}
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return roundCutoff(hi, ok)
}

// roundCutoff returns least (for which ok holds) to 3 or more significant
// digits, rounded so that ok still holds.
func roundCutoff(least float64, ok func(float64) bool) string {
	// least to prec (3 or more) significant digits D (least is about
	// D*10^exp): rounded to the nearest, or else up (D+1).
	for prec := 3; prec < 17; prec++ {
		mant, exp, _ := strings.Cut(strconv.FormatFloat(least, 'e', prec-1, 64), "e")
		d, err1 := strconv.ParseInt(strings.Replace(mant, ".", "", 1), 10, 64)
		e, err2 := strconv.Atoi(exp)
		if err1 != nil || err2 != nil {
			break
		}
		for _, d := range []int64{d, d + 1} {
			c, err := strconv.ParseFloat(fmt.Sprintf("%de%d", d, e-(prec-1)), 64)
			if err == nil && ok(c) {
				return strconv.FormatFloat(c, 'g', -1, 64)
			}
		}
	}
	return strconv.FormatFloat(least, 'g', -1, 64)
}

// addNet adds a net and returns its index.
func (b *builder) addNet(n net) int {
	b.d.nets = append(b.d.nets, n)
	return len(b.d.nets) - 1
}

// bit returns bit k of v's infinite two's complement as a one-bit part.
func (b *builder) bit(v val, k int) part {
	if v.isConst() {
		return constPart(big.NewInt(int64(v.c.Bit(k))), 1)
	}
	if k < 0 {
		return constPart(new(big.Int), 1)
	}
	if k < v.width {
		return part{net: v.net, hi: v.lo + k, lo: v.lo + k}
	}
	if v.signed && v.width > 0 {
		return part{net: v.net, hi: v.lo + v.width - 1, lo: v.lo + v.width - 1}
	}
	return constPart(new(big.Int), 1)
}

// sel returns the n low bits of floor(v*2^d) (bit k of the result is bit
// k-d of v): a shift, floor, sign or zero extension and wrap in one
// selection of bits.
func (b *builder) sel(v val, d, n int) expr {
	if n <= 0 {
		return nil
	}
	if v.isConst() {
		var c big.Int
		if d >= 0 {
			c.Lsh(v.c, uint(d))
		} else {
			c.Rsh(v.c, uint(-d))
		}
		return expr{constPart(&c, n)}
	}
	// result bits [0, n): bit k reads v's bit k-d.
	var e expr
	// top: bits k with k-d >= v.width (the extension)
	if top := min(n-max(v.width+d, 0), n); top > 0 {
		if v.signed && v.width > 0 {
			s := v.lo + v.width - 1
			e = append(e, part{net: v.net, hi: s + top - 1, lo: s, rep: true})
		} else {
			e = append(e, constPart(new(big.Int), top))
		}
	}
	// middle: k in [max(d,0), min(n, v.width+d))
	from, to := max(d, 0), min(n, v.width+d)
	if to > from {
		e = append(e, part{net: v.net, hi: v.lo + to - 1 - d, lo: v.lo + from - d})
	}
	// bottom: k < d zeros
	if z := min(d, n); z > 0 {
		e = append(e, constPart(new(big.Int), z))
	}
	return e.simplify()
}

// netVal returns the value of a whole net.
func netVal(n, width int, signed bool) val { return val{net: n, width: width, signed: signed} }

// signedWidth is the width v needs as a signed number.
func signedWidth(v val) int {
	if v.isConst() {
		w, s := bitsFor(v.c, v.c)
		if !s {
			w++
		}
		return w
	}
	if v.signed {
		return v.width
	}
	return v.width + 1
}

// fromRange narrows v (whose values lie in r) to the narrowest vector that
// holds r.
func fromRange(v val, r alir.Range) val {
	if v.isConst() || r.Lo == nil {
		return v
	}
	w, s := bitsFor(r.Lo, r.Hi)
	if w == 0 {
		return constVal(new(big.Int))
	}
	if w > v.width || (v.signed == false && s) {
		return v
	}
	v.width, v.signed = w, s
	return v
}

// rangeOf returns the range of the values of v.
func rangeOf(v val) alir.Range {
	if v.isConst() {
		return alir.Range{Lo: new(big.Int).Set(v.c), Hi: new(big.Int).Set(v.c)}
	}
	if v.width == 0 {
		return alir.Range{Lo: new(big.Int), Hi: new(big.Int)}
	}
	one := big.NewInt(1)
	if v.signed {
		hi := new(big.Int).Lsh(one, uint(v.width-1))
		lo := new(big.Int).Neg(hi)
		return alir.Range{Lo: lo, Hi: hi.Sub(hi, one)}
	}
	hi := new(big.Int).Lsh(one, uint(v.width))
	return alir.Range{Lo: new(big.Int), Hi: hi.Sub(hi, one)}
}

// typeVal returns v, a value of at least t's width whose low bits are a
// value of type t, as a value of type t (the wrap).
func typeVal(v val, t alir.KIF) val {
	if t.Width() == 0 {
		return constVal(new(big.Int))
	}
	v.width, v.signed = t.Width(), t.Signed
	return v
}

// inputs lays out model_inp: lane j has the type of input j's input ops
// (alkaid: the input op's type; when several ops read one input with
// different types, the narrowest type all of them can be taken from: the
// most fractional bits and the most bits above the point), width 0 for an
// input no op reads.
func (b *builder) inputs() error {
	p := b.p
	type acc struct {
		seen      bool
		frac, top int
		signed    bool
	}
	as := make([]acc, p.NumInputs())
	for i, op := range p.Ops {
		if op.Opcode != alir.OpInput {
			continue
		}
		t := b.kif[i]
		if t.Width() == 0 {
			continue
		}
		a := &as[op.ID0]
		if !a.seen {
			*a = acc{true, t.Fractionals, t.Width() - t.Fractionals, t.Signed}
			continue
		}
		a.frac = max(a.frac, t.Fractionals)
		a.top = max(a.top, t.Width()-t.Fractionals)
		a.signed = a.signed || t.Signed
	}
	off := 0
	for _, a := range as {
		l := Lane{Offset: off}
		if a.seen {
			l.Width, l.Signed, l.Frac = a.top+a.frac, a.signed, a.frac
		}
		b.d.Inputs = append(b.d.Inputs, l)
		off += l.Width
	}
	b.d.InWidth = off
	b.inLane = []int{b.addNet(net{name: "model_inp", width: max(off, 1), kind: kPort})}
	return nil
}

// outputs lays out model_out: lane j holds ±the raw value of the output's
// op, of the type of the op's interval scaled by 2^shift (and negated),
// widened only in a program that is not portable, when the op's proven
// values do not fit it.
func (b *builder) outputs() error {
	p := b.p
	last := b.d.Latency
	off := 0
	for j, o := range p.Outputs {
		l := Lane{Offset: off}
		if o.Index < 0 {
			b.d.Outputs = append(b.d.Outputs, l)
			b.d.outs = append(b.d.outs, nil)
			continue
		}
		// The type of the op's interval scaled by 2^shift (negated): the
		// same raw values (negated), f - shift fractional bits.
		q := p.Ops[o.Index].QInt
		lo, hi := rawBound(q.Min/q.Step, false), rawBound(q.Max/q.Step, true)
		if o.Neg {
			lo, hi = new(big.Int).Neg(hi), new(big.Int).Neg(lo)
		}
		tw, ts := bitsFor(lo, hi)
		tf := b.kif[o.Index].Fractionals - int(o.Shift)
		v := b.vals[o.Index]
		r := b.rng[o.Index]
		s := b.stage[o.Index]
		if o.Neg {
			v = b.neg(-1-j, v)
			r = alir.Range{Lo: new(big.Int).Neg(r.Hi), Hi: new(big.Int).Neg(r.Lo)}
		}
		if last > 0 {
			v = b.delayed(v, s, last)
		}
		l.Width, l.Signed, l.Frac = tw, ts, tf
		tr := rangeOf(val{width: tw, signed: ts})
		if (r.Lo.Cmp(tr.Lo) < 0 || r.Hi.Cmp(tr.Hi) > 0) && !b.portable() {
			w, s := bitsFor(r.Lo, r.Hi)
			l.Width, l.Signed, l.Widened = w, s, true
		}
		b.d.Outputs = append(b.d.Outputs, l)
		b.d.outs = append(b.d.outs, b.sel(v, 0, l.Width))
		off += l.Width
	}
	b.d.OutWidth = off
	return nil
}

// portable reports whether every value of the program lies in its op's
// type (alir.Program.Portability, exact linear forms): then each output
// lane is its op's type, alkaid's port convention, even where the
// builder's own interval arithmetic cannot prove the value fits; the low
// bits of the wider net are the value. Computed once, on the first output
// that needs it.
func (b *builder) portable() bool {
	if b.isPortable == 0 {
		b.isPortable = -1
		if np, err := b.p.Portability(); err == nil && len(np) == 0 {
			b.isPortable = 1
		}
	}
	return b.isPortable > 0
}

// rawBound returns x rounded down (up if up) to an integer.
func rawBound(x float64, up bool) *big.Int {
	if up {
		x = math.Ceil(x)
	} else {
		x = math.Floor(x)
	}
	z, _ := new(big.Float).SetFloat64(x).Int(nil)
	return z
}
