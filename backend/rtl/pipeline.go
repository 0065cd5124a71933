package rtl

import (
	"fmt"
	"github.com/otir-dev/otir/backend/alir"
	"math"
	"slices"
)

// This file places the pipeline registers by estimated delay
// (DelayEstimate): every op's delay comes from the nets the combinational
// design gives it, the stages are as few as the cutoff allows, and within
// that latency each op moves to the stage where the fewest register bits
// cross the cuts.

// DelayModel chooses the delays a latency cutoff cuts by.
type DelayModel uint8

const (
	// DelayEstimate estimates every op's delay from the design's nets (the
	// zero value), by alkaid's surrogate delay model (the one its
	// RTLModel pipelines by, trace/passes/surrogate.py), in its units
	// (about nanoseconds on an UltraScale+ part): an adder or subtractor
	// of n bits AdderDelay(n, carry_size); a mux, a bitwise operation or a
	// reduction a LUT level (LUTLevel; a relu's mux with 0 nothing); a
	// lookup of an n-bit index LookupDelay(n); a multiplier alkaid's
	// estimate of its partial products; wires, slices, shifts and
	// extensions nothing. A path's delay is the sum along it.
	DelayEstimate DelayModel = iota
	// DelayProgram cuts by the latencies stored in the program (Op.Latency,
	// alkaid's trace or otir's cost annotation), at multiples of the cutoff.
	DelayProgram
)

// LUTLevel is the delay of one LUT level (alkaid's mux and bitwise ops).
const LUTLevel = 0.5

// AdderDelay is alkaid's surrogate delay of an n-bit adder: 1.09375 and
// 0.025390625 for every carry_size bits above the first (carry_size < 1:
// unbounded, one chunk).
func AdderDelay(n int, carrySize int32) float64 {
	chunks := 0
	if carrySize >= 1 && n > 1 {
		chunks = (n - 1 + int(carrySize) - 1) / int(carrySize)
	} else if n > 1 {
		chunks = 1
	}
	return float64(chunks)*0.025390625 + 1.09375
}

// mulDelay is alkaid's surrogate delay of a multiplier of an n-bit
// product, its operands taken as n/2 bits each: a row of n/2 partial
// products, each a carry chain.
func mulDelay(n int, carrySize int32) float64 {
	h := n / 2
	chunks := 0
	if h > 2 {
		chunks = 1
		if carrySize >= 1 {
			chunks = (h - 2 + int(carrySize) - 1) / int(carrySize)
		}
	}
	return float64(h*chunks)*0.025390625 + 1.09375
}

// LookupDelay is alkaid's surrogate delay of a table lookup with an n-bit
// index: a LUT6, then F7/F8/F9 muxes and fabric for more bits.
func LookupDelay(n int) float64 {
	x := n - 6
	if x > 6 {
		return float64(x) * 0.5
	}
	x = max(x, 0)
	return 0.075 + 0.2*float64(min(x, 3)) + 0.8*float64(max(x-3, 0))
}

// ParseDelayModel reads "estimate" or "program".
func ParseDelayModel(s string) (DelayModel, error) {
	switch s {
	case "estimate":
		return DelayEstimate, nil
	case "program":
		return DelayProgram, nil
	}
	return 0, fmt.Errorf("unknown delay model %q (want estimate or program)", s)
}

// plan is a pipeline: the stage of every op and the number of stages.
type plan struct {
	stage  []int
	stages int
	worst  float64 // the longest combinational path of a stage
}

// netDelays returns the delay of every net of the combinational design
// from the start of its op's lowering: nets of earlier ops arrive at 0.
func (b *builder) netDelays() []float64 {
	nets := b.d.nets
	owner := make([]int, len(nets)) // first net of the net's op (0: outputs)
	for i := range b.firstNet {
		end := len(nets)
		if i+1 < len(b.firstNet) {
			end = b.firstNet[i+1]
		}
		for n := b.firstNet[i]; n < end; n++ {
			owner[n] = b.firstNet[i]
		}
	}
	at := make([]float64, len(nets))
	for k, n := range nets {
		in := 0.0
		for _, e := range []expr{n.a, n.b, n.c} {
			for _, p := range e {
				if p.net >= owner[k] && p.net < k {
					in = max(in, at[p.net])
				}
			}
		}
		var own float64
		switch n.kind {
		case kAdd, kSub:
			own = AdderDelay(n.width, b.p.CarrySize)
		case kMul:
			own = mulDelay(n.width, b.p.CarrySize)
		case kAnd, kOr, kXor:
			own = LUTLevel
		case kMux:
			if len(n.a) != 1 || n.a[0].net >= 0 || n.a[0].c.Sign() != 0 {
				own = LUTLevel // not a relu's
			}
		case kRedOr, kRedAnd:
			own = LUTLevel * float64(lutLevels(n.a.width()))
		case kLookup:
			own = LookupDelay(n.a.width())
		}
		at[k] = in + own
	}
	return at
}

// lutLevels is the depth of a tree of 6-input LUTs reading n bits.
func lutLevels(n int) int {
	l := 1
	for c := 6; c < n; c *= 6 {
		l++
	}
	return l
}

// opGraph is the program's dataflow between ops whose value is a net
// (constants and dead ops take no part): readers of each op, the bits of
// its value and whether an output reads it.
type opGraph struct {
	delay  []float64
	width  []int
	users  [][]int32
	ins    [][]int32
	output []bool
	live   []bool
	input  []bool // an input op: it reads model_inp, at stage 0 only
}

func (b *builder) graph() *opGraph {
	p := b.p
	n := len(p.Ops)
	at := b.netDelays()
	g := &opGraph{delay: make([]float64, n), width: make([]int, n), users: make([][]int32, n), ins: make([][]int32, n),
		output: make([]bool, n), live: make([]bool, n), input: make([]bool, n)}
	for i, op := range p.Ops {
		end := len(b.d.nets)
		if i+1 < n {
			end = b.firstNet[i+1]
		}
		for k := b.firstNet[i]; k < end; k++ {
			g.delay[i] = max(g.delay[i], at[k])
		}
		if !b.vals[i].isConst() {
			g.width[i] = b.vals[i].width
		}
		g.input[i] = op.Opcode == alir.OpInput
		if g.width[i] == 0 && g.delay[i] == 0 && end == b.firstNet[i] {
			continue // a constant: no net, no register
		}
		op.ForOperands(p.Dialect, func(j int32) {
			if !b.vals[j].isConst() && !slices.Contains(g.ins[i], j) {
				g.ins[i] = append(g.ins[i], j)
				g.users[j] = append(g.users[j], int32(i))
			}
		})
	}
	for _, o := range p.Outputs {
		if o.Index >= 0 && !b.vals[o.Index].isConst() {
			g.output[o.Index] = true
		}
	}
	for i := n - 1; i >= 0; i-- {
		g.live[i] = g.output[i]
		for _, k := range g.users[i] {
			g.live[i] = g.live[i] || g.live[k]
		}
	}
	return g
}

// plan places the registers of a pipeline whose stages have at most
// cutoff of estimated delay (an op longer than cutoff takes a stage of its
// own): as few stages as the cutoff allows, then each op in the stage
// where the fewest register bits cross the cuts.
func (b *builder) plan(cutoff float64) (*plan, error) {
	g := b.graph()
	asap, n := g.asap(cutoff)
	if n > MaxStages {
		top := 0.0
		for _, d := range g.delay {
			top += d
		}
		least := leastCutoffBy(func(c float64) bool { _, k := g.asap(c); return k <= MaxStages }, top)
		return nil, &CutoffError{fmt.Sprintf("rtl: latency cutoff %v would make %d pipeline stages; at most %d (rtl.MaxStages): use a cutoff of at least %s",
			cutoff, n, MaxStages, least)}
	}
	// Every cutoff from the least that gives n stages up to the given one
	// makes a pipeline of n stages; the register bits depend on it, and
	// the single moves of improve find different optima: try a few.
	least := n > 1
	cmin := cutoff
	if least {
		lo := 0.0
		for range 40 {
			mid := (lo + cmin) / 2
			if _, k := g.asap(mid); k <= n {
				cmin = mid
			} else {
				lo = mid
			}
		}
	}
	best := &plan{stage: asap, stages: n}
	bestBits := g.regBits(asap, n)
	const tries = 6
	for k := range tries + 1 {
		c := cutoff
		if least {
			c = cmin + (cutoff-cmin)*float64(k)/tries
		} else if k > 0 {
			break
		}
		st, m := g.asap(c)
		if m != n {
			continue
		}
		starts := [][]int{st}
		if alap, ok := g.alap(c, n, st); ok {
			starts = append(starts, alap)
		}
		for _, st := range starts {
			g.improve(st, n, c)
			if bits := g.regBits(st, n); bits < bestBits {
				best.stage, bestBits = st, bits
			}
		}
	}
	arr := g.arrivals(best.stage)
	for i := range arr {
		best.worst = max(best.worst, arr[i])
	}
	return best, nil
}

// asap places every live op in the earliest stage its operands and the
// cutoff allow, and returns the stages and their number; a dead op goes
// to its latest operand's stage (it makes no register).
func (g *opGraph) asap(cutoff float64) ([]int, int) {
	st := make([]int, len(g.delay))
	arr := make([]float64, len(g.delay))
	last := 0
	for i := range st {
		s, a := 0, 0.0
		for _, j := range g.ins[i] {
			switch {
			case st[j] > s:
				s, a = st[j], arr[j]
			case st[j] == s:
				a = max(a, arr[j])
			}
		}
		if g.live[i] && a > 0 && a+g.delay[i] > cutoff {
			s, a = s+1, 0
		}
		st[i], arr[i] = s, a+g.delay[i]
		if g.output[i] {
			last = max(last, s)
		}
	}
	return st, last + 1
}

// alap places every live op in the latest stage of n its readers and the
// cutoff allow (outputs in the last); ok is false when that is not a
// pipeline (an op before its operands' stage).
func (g *opGraph) alap(cutoff float64, n int, asap []int) ([]int, bool) {
	st := slices.Clone(asap)
	dep := make([]float64, len(g.delay))
	for i := len(st) - 1; i >= 0; i-- {
		if !g.live[i] {
			continue
		}
		s, d := n-1, 0.0
		if !g.output[i] {
			s = math.MaxInt
		}
		for _, k := range g.users[i] {
			if !g.live[k] {
				continue
			}
			switch {
			case st[k] < s:
				s, d = st[k], dep[k]
			case st[k] == s:
				d = max(d, dep[k])
			}
		}
		if d > 0 && d+g.delay[i] > cutoff {
			s, d = s-1, 0
		}
		if g.input[i] {
			s = 0
		}
		st[i], dep[i] = s, d+g.delay[i]
	}
	for i := range st {
		if !g.live[i] {
			continue
		}
		for _, j := range g.ins[i] {
			if st[j] > st[i] {
				return nil, false
			}
		}
	}
	for i := range st { // dead ops follow their operands
		if !g.live[i] {
			st[i] = 0
			for _, j := range g.ins[i] {
				st[i] = max(st[i], st[j])
			}
		}
	}
	return st, true
}

// lastUse is the stage that reads op i's value last (n: an output).
func (g *opGraph) lastUse(st []int, n, i int) int {
	u := st[i]
	if g.output[i] {
		u = n
	}
	for _, k := range g.users[i] {
		if g.live[k] {
			u = max(u, st[k])
		}
	}
	return u
}

// regBits is the register bits of the stages st: each value's bits once
// for every cut between its stage and its last reader's.
func (g *opGraph) regBits(st []int, n int) int {
	t := 0
	for i := range st {
		if g.live[i] {
			t += g.width[i] * (g.lastUse(st, n, i) - st[i])
		}
	}
	return t
}

// arrivals returns the delay from the start of its stage to the end of
// every live op.
func (g *opGraph) arrivals(st []int) []float64 {
	arr := make([]float64, len(st))
	for i := range st {
		if !g.live[i] {
			continue
		}
		a := 0.0
		for _, j := range g.ins[i] {
			if st[j] == st[i] {
				a = max(a, arr[j])
			}
		}
		arr[i] = a + g.delay[i]
	}
	return arr
}

// departures returns the delay from the start of every live op to the end
// of its stage.
func (g *opGraph) departures(st []int) []float64 {
	dep := make([]float64, len(st))
	for i := len(st) - 1; i >= 0; i-- {
		if !g.live[i] {
			continue
		}
		d := 0.0
		for _, k := range g.users[i] {
			if g.live[k] && st[k] == st[i] {
				d = max(d, dep[k])
			}
		}
		dep[i] = d + g.delay[i]
	}
	return dep
}

// improve moves single ops between stages while that saves register bits
// and every stage keeps within the cutoff (an op longer than the cutoff
// alone), a few passes over the ops.
func (g *opGraph) improve(st []int, n int, cutoff float64) {
	// last[j] is the stage that reads op j last (n: an output), cnt[j]
	// how many readers (an output one) read it there: kept up to date
	// as ops move, so that a move's cost does not scan every reader of
	// an operand with many.
	last, cnt := make([]int, len(st)), make([]int, len(st))
	count := func(j int) {
		last[j], cnt[j] = g.lastUse(st, n, j), 0
		if g.output[j] && last[j] == n {
			cnt[j]++
		}
		for _, k := range g.users[j] {
			if g.live[k] && st[k] == last[j] {
				cnt[j]++
			}
		}
	}
	for j := range st {
		if g.live[j] {
			count(j)
		}
	}
	// lastAfter is last[j] once its reader at stage s reads at t.
	lastAfter := func(j, s, t int) int {
		switch {
		case t > last[j]:
			return t
		case s != last[j] || cnt[j] > 1 || t == s:
			return last[j]
		}
		u := t // the only reader at last[j] moves earlier: the next latest
		for _, k := range g.users[j] {
			if g.live[k] && st[k] != s {
				u = max(u, st[k])
			}
		}
		return max(u, st[j])
	}
	for pass := 0; pass < 16; pass++ {
		arr, dep := g.arrivals(st), g.departures(st)
		moved := false
		for i := range st {
			if !g.live[i] || g.input[i] {
				continue
			}
			lo, hi := 0, n-1
			for _, j := range g.ins[i] {
				lo = max(lo, st[j])
			}
			for _, k := range g.users[i] {
				if g.live[k] {
					hi = min(hi, st[k])
				}
			}
			if lo >= hi {
				continue
			}
			s := st[i]
			bestT, bestDelta := s, 0
			for t := lo; t <= hi; t++ {
				if t == s || !g.fits(st, arr, dep, i, t, cutoff) {
					continue
				}
				// The register bits that change: op i's own (its last
				// reader stays) and its operands'.
				d := g.width[i] * (s - t)
				for _, j := range g.ins[i] {
					d += g.width[j] * (lastAfter(int(j), s, t) - last[j])
				}
				if d < bestDelta {
					bestT, bestDelta = t, d
				}
			}
			if bestT == s {
				continue
			}
			news := make([]int, len(g.ins[i]))
			for k, j := range g.ins[i] {
				news[k] = lastAfter(int(j), s, bestT)
			}
			st[i] = bestT
			moved = true
			for k, j := range g.ins[i] {
				switch old := last[j]; {
				case news[k] > old:
					last[j], cnt[j] = news[k], 1
				case news[k] < old: // its only last reader moved earlier
					count(int(j))
				case bestT == old:
					cnt[j]++
				case s == old:
					cnt[j]--
				}
			}
			// Arrivals after i and departures before i in its new stage
			// grow: bring them up to date (those in its old stage only
			// shrink: the next pass recomputes them).
			g.spread(st, arr, dep, i)
		}
		if !moved {
			return
		}
	}
}

// spread updates the arrivals of the ops after op i and the departures
// of those before it, in its stage, after i moved there.
func (g *opGraph) spread(st []int, arr, dep []float64, i int) {
	work := []int{i}
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		a := 0.0
		for _, j := range g.ins[k] {
			if st[j] == st[k] {
				a = max(a, arr[j])
			}
		}
		if a += g.delay[k]; a == arr[k] && k != i {
			continue
		}
		arr[k] = a
		for _, u := range g.users[k] {
			if g.live[u] && st[u] == st[k] {
				work = append(work, int(u))
			}
		}
	}
	work = append(work, i)
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		d := 0.0
		for _, u := range g.users[k] {
			if g.live[u] && st[u] == st[k] {
				d = max(d, dep[u])
			}
		}
		if d += g.delay[k]; d == dep[k] && k != i {
			continue
		}
		dep[k] = d
		for _, j := range g.ins[k] {
			if st[j] == st[k] {
				work = append(work, int(j))
			}
		}
	}
}

// fits reports whether op i in stage t keeps every path through it within
// the cutoff.
func (g *opGraph) fits(st []int, arr, dep []float64, i, t int, cutoff float64) bool {
	a, d := 0.0, 0.0
	for _, j := range g.ins[i] {
		if st[j] == t {
			a = max(a, arr[j])
		}
	}
	for _, k := range g.users[i] {
		if g.live[k] && st[k] == t {
			d = max(d, dep[k])
		}
	}
	return a+d+g.delay[i] <= max(cutoff, g.delay[i]) && (g.delay[i] <= cutoff || a+d == 0)
}

// registers counts the pipeline register bits a synthesis tool keeps:
// bits some output reads (through the bits each operation reads: an
// adder's bit k reads its operands' bits 0..k, but none below the first
// bit where both may be nonzero), whose input is not a constant, one for
// registers of the same bit (yosys's opt_clean, opt_dff, opt_merge). ffs
// are those synth_xilinx keeps as flip-flops (FD cells): the others are
// chains of 3 or more, each read only by the next but the last, which it
// maps to shift registers (xilinx_srl -fixed -minlen 3).
func (d *Design) registers() (bits, ffs int) {
	nets := d.nets
	// src: every bit's driver through wires: (net, bit) of a net that is
	// not a wire, or {-1, 0} / {-2, 0} for a constant 0 / 1. A register's
	// bit is its own source, or the first register of the same input's.
	type bitRef struct{ net, bit int }
	zero := bitRef{-1, 0}
	base := make([]int, len(nets)+1)
	for k, n := range nets {
		base[k+1] = base[k] + n.width
	}
	src := make([]bitRef, base[len(nets)])
	exprBit := func(e expr, k int) bitRef { // bit k of e (0: its lsb)
		for i := len(e) - 1; i >= 0; i-- {
			p := e[i]
			if w := p.width(); k >= w {
				k -= w
				continue
			}
			switch {
			case p.net < 0:
				return bitRef{-1 - int(p.c.Bit(k)), 0}
			case p.rep:
				return src[base[p.net]+p.lo]
			}
			return src[base[p.net]+p.lo+k]
		}
		return zero
	}
	regOf := map[bitRef]bitRef{}
	canon := d.merged()
	for k, n := range nets {
		if c := canon[k]; c != k && n.kind != kReg {
			// The same statement as net c (opt_merge): its bits are c's.
			copy(src[base[k]:base[k+1]], src[base[c]:base[c+1]])
			continue
		}
		carry := false // an adder's carry (or borrow) may be nonzero
		for bit := range n.width {
			r := bitRef{k, bit}
			switch n.kind {
			case kAssign:
				r = exprBit(n.a, bit)
			case kAdd, kSub:
				// Below the first bit where both operands may be nonzero
				// (a subtrahend's: a - 0), a bit is the other operand's.
				a, b := exprBit(n.a, bit), exprBit(n.b, bit)
				switch {
				case carry:
				case b == zero:
					r = a
				case a == zero && n.kind == kAdd:
					r = b
				default:
					carry = true
				}
			case kReg:
				in := exprBit(n.a, bit)
				if in.net < 0 {
					r = in
				} else if m, ok := regOf[in]; ok {
					r = m
				} else {
					regOf[in] = r
				}
			}
			src[base[k]+bit] = r
		}
	}
	// live: the bits some output reads; regReaders and otherRead: who
	// reads a live bit (registers, or logic and outputs).
	live := make([]bool, len(src))
	regReaders := make([]int32, len(src))
	otherRead := make([]bool, len(src))
	byReg := false
	read := func(e expr, k int) {
		if r := exprBit(e, k); r.net >= 0 {
			i := base[r.net] + r.bit
			live[i] = true
			if byReg {
				regReaders[i]++
			} else {
				otherRead[i] = true
			}
		}
	}
	for _, e := range d.outs {
		for k := range e.width() {
			read(e, k)
		}
	}
	for k := len(nets) - 1; k >= 0; k-- {
		n := nets[k]
		if n.kind == kAssign { // a wire: its readers read its sources
			continue
		}
		byReg = n.kind == kReg
		top := -1
		for bit := range n.width {
			if !live[base[k]+bit] {
				continue
			}
			top = bit
			switch n.kind {
			case kReg, kAnd, kOr, kXor, kNot, kMux:
				read(n.a, bit)
				if len(n.b) > 0 {
					read(n.b, bit)
				}
			}
		}
		if top < 0 {
			continue
		}
		switch n.kind {
		case kAdd, kSub:
			// Below the first bit where both operands may be nonzero (a
			// subtrahend's: a - 0), no carry: result bit k is operand bit k.
			m := 0
			for ; m <= top; m++ {
				if exprBit(n.b, m) != zero && (exprBit(n.a, m) != zero || n.kind == kSub) {
					break
				}
				if live[base[k]+m] {
					read(n.a, m)
					read(n.b, m)
				}
			}
			for bit := m; bit <= top; bit++ {
				read(n.a, bit)
				read(n.b, bit)
			}
		case kMul:
			for bit := 0; bit <= top; bit++ {
				read(n.a, bit)
				read(n.b, bit)
			}
		case kMux:
			read(n.c, 0)
		case kRedOr, kRedAnd, kLookup:
			for bit := range n.a.width() {
				read(n.a, bit)
			}
		}
	}
	// Shift-register chains: next[r] is the register reading r, when r is
	// read by that one register only.
	inChain := func(k, bit int) bool { // a register bit only the next reads
		i := base[k] + bit
		return regReaders[i] == 1 && !otherRead[i]
	}
	length := map[bitRef]int{} // chain length ending at a register bit
	for k, n := range nets {
		if n.kind != kReg {
			continue
		}
		for bit := range n.width {
			if r := src[base[k]+bit]; r != (bitRef{k, bit}) || !live[base[k]+bit] {
				continue
			}
			bits++
			l := 1
			if in := exprBit(n.a, bit); in.net >= 0 && nets[in.net].kind == kReg && inChain(in.net, in.bit) {
				l += length[in]
			}
			length[bitRef{k, bit}] = l
		}
	}
	ffs = bits
	for r, l := range length { // the ends of chains
		if !inChain(r.net, r.bit) && l >= 3 {
			ffs -= l
		}
	}
	return bits, ffs
}
