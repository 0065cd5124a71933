package alir

import (
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/otir-dev/otir/internal/intrange"
)

// MaxExactBits bounds the exact values the interpreter evaluates: an
// operation whose result can need more bits, or a program whose operations
// beyond 64 bits add up to more than 64 times as many, is rejected by
// Compile. Only a program that relies on exact arithmetic far past its
// declared widths comes near it (an ALIR interpreter computes in 64 bits).
const MaxExactBits = 1 << 13

// ErrTooWide is the error of Compile (and RunExact) for a program whose
// exact values can exceed MaxExactBits.
var ErrTooWide = errors.New("values too wide to evaluate")

// keepRanges keeps Machine.vr after Compile (for tests).
var keepRanges = false

// blockSize is the number of samples every instruction processes at once.
// Each slot is a [blockSize]int64 array in a worker's buffer.
const blockSize = 128

// kind selects an instruction's kernel. Shifts s0, s1, rs and rs2 are below
// 64 except where noted; wrap(v) = (v << fsh >> fsh) & fmask.
type kind uint8

const (
	kInput     kind = iota // d = wrap(floor(in[a] * scale)), fused wrap
	kConst                 // d = k
	kCopy                  // d = a
	kLin1                  // d = ((a << s0) + k) >> rs
	kLin1Neg               // d = (k - (a << s0)) >> rs
	kAdd                   // d = a + b
	kSub                   // d = a - b
	kAddShB                // d = a + (b << s1)
	kSubShB                // d = a - (b << s1)
	kAddShA                // d = (a << s0) + b
	kSubShA                // d = (a << s0) - b
	kLin2                  // d = ((a << s0) + (b << s1) + k) >> rs
	kLin2Sub               // d = ((a << s0) - (b << s1) + k) >> rs
	kReLU                  // d = (max(a, 0) << s0) >> rs
	kReLUNeg               // d = (max(-a, 0) << s0) >> rs
	kMux                   // wrap(bit k of c ? (a << s0) >> rs : ((b^m)-m << s1) >> rs2)
	kMuxGT                 // kMux with the condition c > k (DAIS, unsigned c)
	kMul                   // d = ((a * b) << s0) >> rs
	kLookup                // d = table[a - k], with a bounds check
	kNot                   // d = ^((a^m)-m) & k
	kReduceAny             // d = (a^m)-m != 0
	kReduceAll             // d = ((a^m)-m) & k == k
	kAnd                   // d = (a << s0) & (b << s1)  (shifts may exceed 63: Go semantics)
	kOr                    //
	kXor                   //
	kExact                 // exact big-integer evaluation, sample by sample
	kLin1W                 // d = wrap((a*m0 + k) >> rs)             (fused wrap)
	kLin2W                 // d = wrap((a*m0 + b*m1 + k) >> rs)      (fused wrap)
	kSumN                  // d = (Σ t.m * t + k) >> rs over sum terms (any number, any signs)
)

// Wrap modes applied after a kernel.
const (
	wrapNone     uint8 = iota
	wrapSigned         // d = d << (64-W) >> (64-W)
	wrapUnsigned       // d &= 2^W - 1
	wrapZero           // d = 0 (zero-width type)
)

// instr is one compiled operation.
type instr struct {
	kind        kind
	s0, s1      uint8
	rs, rs2     uint8
	wrap, wrapW uint8 // wrap mode; shift (64-W) for wrapSigned
	d, a, b, c  int   // slot offsets in the worker buffer (slot*blockSize)
	k, m        int64 // constants (see kind)
	m0, m1      int64 // 2^s0 and 2^s1, for shifts done as multiplications
	fsh         uint8 // fused wrap: d = (d << fsh >> fsh) & fmask
	fmask       int64
	mask        int64 // wrapUnsigned mask
	scale       float64
	op          int32 // index of the operation in the program
	tab         []int64
	sum         []sumTerm // kSumN
	// vlen > 0 starts a vector run of vlen instructions, vcode[vstart:]
	// (vrun.go).
	vstart, vlen int32
	// ilen > 0 starts a run of ilen kInput instructions, inputs[istart:].
	istart, ilen int32
}

// sumTerm is one addend of a kSumN instruction: the slot at offset off
// times m (±2^s, mod 2^64).
type sumTerm struct {
	off int
	m   int64
}

// outSpec tells how output j is read from the buffer.
type outSpec struct {
	slot     int // offset, or -1 for a constant zero
	scale    float64
	neg      bool
	unsigned bool // unsigned 64-bit slot: convert as uint64
	wide     int  // the operation, if its values may not fit 64 bits; else -1
	fast     bool // written by the row loop of writeOutputs (fastOuts)
}

// Machine is a compiled program, safe for concurrent use.
type Machine struct {
	prog   *Program
	inf    *info
	code   []instr
	vcode  []vinstr // vector runs (vrun.go)
	inputs []inSpec // input runs (kernels.go)
	// fastOuts are the outputs writeOutputs writes row by row.
	fastOuts []rowOutput
	outs     []outSpec
	nSlots   int
	slotOf   []int // offset of every operation's slot
	nExact   int   // number of operations evaluated exactly (slow path)
	workers  sync.Pool
	vr       []rng // value range of every slot, proven at compile time
	// narrow is set when every slot value fits an int32: slots are then
	// stored as int32, halving the memory traffic.
	narrow bool
	// u64 marks the slots that hold values in [2^63, 2^64): their 64 bits
	// are read as unsigned. Every other slot holds an int64.
	u64 []bool
	// wide marks the operations whose values may need more than 64 bits;
	// they are evaluated exactly (see worker.wide).
	wide  []bool
	nWide int
	// Workers is the number of goroutines Run uses; 0 means GOMAXPROCS.
	Workers int
}

// Compile validates p and compiles it for Run. The Machine keeps a copy of
// p, so p may change afterwards.
func Compile(p *Program) (*Machine, error) {
	p = p.Clone()
	inf, err := p.analyze()
	if err != nil {
		return nil, err
	}
	m := &Machine{prog: p, inf: inf}
	order := m.execOrder()
	m.allocSlots(order)
	m.code = make([]instr, len(p.Ops))
	m.vr = make([]rng, len(p.Ops))
	m.u64 = make([]bool, len(p.Ops))
	m.wide = make([]bool, len(p.Ops))
	wideBits := 0
	for i := range p.Ops {
		m.vr[i] = typeRange(inf.kif[i]) // refined by compileOp
		ins := m.compileOp(i)
		ins.m0, ins.m1 = int64(1)<<(ins.s0&63), int64(1)<<(ins.s1&63)
		fuseWrap(&ins)
		m.code[i] = ins
		r := m.vr[i]
		m.u64[i] = !r.FitsInt64() && r.Lo.Sign() >= 0 && r.Hi.Cmp(maxUint64) <= 0
		if !r.FitsInt64() && !m.u64[i] {
			if m.code[i].kind != kExact {
				panic(fmt.Sprintf("alir: compile: op %d holds %d-bit values on the fast path", i, r.Bits()))
			}
			m.wide[i], m.nWide = true, m.nWide+1
			wideBits += r.Bits()
			if b := r.Bits(); b > MaxExactBits || wideBits > MaxExactBits*64 {
				return nil, p.opErr(i, "%w: its exact result can take %d bits, more than this interpreter evaluates (%d bits an operation, %d in all); only %s wrap to their type", ErrTooWide, b, MaxExactBits, MaxExactBits*64, wrappingOps(p.Dialect))
			}
		}
	}
	code := make([]instr, len(m.code))
	for q, i := range order {
		code[q] = m.code[i]
	}
	m.code = code
	m.narrow = true
	for _, r := range m.vr {
		if r.Lo.Cmp(minInt32) < 0 || r.Hi.Cmp(maxInt32) > 0 {
			m.narrow = false
		}
	}
	m.buildInputs()
	m.buildVector()
	m.outs = make([]outSpec, len(p.Outputs))
	for j, o := range p.Outputs {
		if o.Index < 0 {
			m.outs[j] = outSpec{slot: -1, wide: -1}
			continue
		}
		t := inf.kif[o.Index]
		wide := -1
		if m.wide[o.Index] {
			wide = int(o.Index)
		}
		m.outs[j] = outSpec{
			wide:     wide,
			slot:     m.slotOf[o.Index],
			scale:    outputScale(o.Shift, t.Fractionals),
			neg:      o.Neg,
			unsigned: m.u64[o.Index],
		}
	}
	m.buildOutputs()
	if !keepRanges {
		m.vr = nil
	}
	return m, nil
}

// Program returns the machine's program; do not modify it.
func (m *Machine) Program() *Program { return m.prog }

// NumSlots returns the number of buffer slots after reuse.
func (m *Machine) NumSlots() int { return m.nSlots }

// Storage describes how slots are stored: "int32" or "int64".
func (m *Machine) Storage() string {
	if m.narrow {
		return "int32"
	}
	return "int64"
}

// NumExact returns how many operations run on the exact (slow) path.
func (m *Machine) NumExact() int { return m.nExact }

// execOrder returns the order the operations run in: the inputs first
// (they read nothing but the input rows, so inputRun converts them in one
// pass over the rows), then every other operation in program order (so a
// failing lookup is still found in program order).
func (m *Machine) execOrder() []int32 {
	p := m.prog
	order := make([]int32, 0, len(p.Ops))
	for i, op := range p.Ops {
		if op.Opcode == OpInput {
			order = append(order, int32(i))
		}
	}
	for i, op := range p.Ops {
		if op.Opcode != OpInput {
			order = append(order, int32(i))
		}
	}
	return order
}

// allocSlots assigns every operation a buffer slot, reusing the slot of a
// value after its last use in the given execution order (an operation may
// write the slot it reads).
func (m *Machine) allocSlots(order []int32) {
	p := m.prog
	n := len(p.Ops)
	const pinned = -2
	last := make([]int, n) // position in order of the last use
	for i := range last {
		last[i] = -1
	}
	for q, i := range order {
		for _, j := range p.Ops[i].operands(p.Dialect) {
			if last[j] != pinned {
				last[j] = q
			}
		}
	}
	for _, o := range p.Outputs {
		if o.Index >= 0 {
			last[o.Index] = pinned
		}
	}
	release := make([][]int32, n)
	for j, l := range last {
		if l >= 0 {
			release[l] = append(release[l], int32(j))
		}
	}
	m.slotOf = make([]int, n)
	var free []int
	next := 0
	for q, i := range order {
		for _, j := range release[q] {
			free = append(free, m.slotOf[j])
		}
		var s int
		if k := len(free); k > 0 {
			s, free = free[k-1], free[:k-1]
		} else {
			s, next = next*blockSize, next+1
		}
		m.slotOf[i] = s
		if last[i] == -1 { // never read: the slot is free again at once
			free = append(free, s)
		}
	}
	m.nSlots = next
}

// term is one addend ±r*2^-e of a linear operation, r the raw value of slot
// id.
type term struct {
	id  int32
	neg bool
	e   int
}

// rangeOf returns the range of values slot id can hold: the range its
// operation computes if that needs no wrap, else its type's range.
func (m *Machine) rangeOf(id int32) rng { return m.vr[id] }

// setWrap sets the wrap mode of ins, the instruction of op i, unless op i
// does not wrap (semantics.go) or the range r of its result before wrapping
// already lies in the result's type, and records the value range of slot i.
func (m *Machine) setWrap(i int, ins *instr, r rng) {
	t := m.inf.kif[i]
	tr := typeRange(t)
	if r.Within(tr) || !m.prog.Dialect.Wraps(m.prog.Ops[i].Opcode) {
		m.vr[i] = r
		return
	}
	m.vr[i] = tr
	w := t.Width()
	switch {
	case w == 0:
		ins.wrap = wrapZero
	case t.Signed && w < 64:
		ins.wrap, ins.wrapW = wrapSigned, uint8(64-w)
	case !t.Signed && w < 64:
		ins.wrap, ins.mask = wrapUnsigned, int64(1)<<w-1
	}
}

// lo64 returns z mod 2^64 as int64 bits.
func lo64(z *big.Int) int64 {
	if z.IsInt64() {
		return z.Int64()
	}
	var m big.Int
	m.And(z, new(big.Int).SetUint64(^uint64(0)))
	return int64(m.Uint64())
}

// exactInstr makes ins, the instruction of op i whose result before any
// wrap lies in r, evaluate exactly.
func (m *Machine) exactInstr(i int, ins instr, r rng) instr {
	m.setWrap(i, &ins, r)
	ins.kind = kExact
	ins.wrap = wrapNone
	m.nExact++
	return ins
}

// compileOp compiles op i by its opcode table entry.
func (m *Machine) compileOp(i int) instr {
	op := m.prog.Ops[i]
	ins := instr{d: m.slotOf[i], op: int32(i)}
	if e := m.prog.Dialect.Info(op.Opcode); e != nil {
		return e.compile(m, i, ins)
	}
	panic(fmt.Sprintf("alir: compile: unhandled opcode %d after validation", op.Opcode))
}

// fr returns the fractional bits of slot id.
func (m *Machine) fr(id int32) int { return m.inf.kif[id].Fractionals }

// The compile functions of the opcode table: each turns op i into the
// instruction ins of the fast interpreter.

func compileInput(m *Machine, i int, ins instr) instr {
	p, op, t := m.prog, m.prog.Ops[i], m.inf.kif[i]
	ins.kind, ins.a = kInput, int(op.ID0)
	ins.scale = inputScale(p.InShifts[op.ID0], t.Fractionals)
	m.setWrap(i, &ins, rng{Lo: minInt64, Hi: maxInt64}) // any int64 may arrive
	if t.Width() == 64 && !t.Signed {
		ins.wrap = wrapNone // bits are the value mod 2^64
	}
	return ins
}

// compileNeg compiles ALIR's neg: the raw value negated, whatever the two
// steps.
func compileNeg(m *Machine, i int, ins instr) instr {
	return m.compileLinear(i, ins, []term{{m.prog.Ops[i].ID0, true, m.inf.kif[i].Fractionals}}, nil, 0)
}

func compileNegReLU(m *Machine, i int, ins instr) instr { return m.compileReLU(i, ins, true) }

func compileReLUOp(m *Machine, i int, ins instr) instr { return m.compileReLU(i, ins, false) }

func compileNegQuantize(m *Machine, i int, ins instr) instr {
	op := m.prog.Ops[i]
	return m.compileLinear(i, ins, []term{{op.ID0, true, m.fr(op.ID0)}}, nil, 0)
}

func compileAddSub(m *Machine, i int, ins instr) instr {
	op := m.prog.Ops[i]
	return m.compileLinear(i, ins, []term{
		{op.ID0, false, m.fr(op.ID0)},
		{op.ID1, op.Opcode == OpSub, m.fr(op.ID1) - int(op.Data)},
	}, nil, 0)
}

// compileQuantize compiles quantize(a*2^r).
func compileQuantize(m *Machine, i int, ins instr) instr {
	op := m.prog.Ops[i]
	return m.compileLinear(i, ins, []term{{op.ID0, false, m.fr(op.ID0) - int(op.Data)}}, nil, 0)
}

func compileSum(m *Machine, i int, ins instr) instr {
	op := m.prog.Ops[i]
	terms := make([]term, len(op.Terms))
	for k, tm := range op.Terms {
		terms[k] = term{tm.ID, tm.Neg, m.fr(tm.ID) - int(tm.Shift)}
	}
	return m.compileLinear(i, ins, terms, nil, 0)
}

func compileConstAdd(m *Machine, i int, ins instr) instr {
	op := m.prog.Ops[i]
	k, ek := big.NewInt(int64(op.DataLow())), int(op.DataHigh())
	if m.prog.Dialect == DAIS {
		k, ek = big.NewInt(op.Data), m.inf.kif[i].Fractionals
	}
	return m.compileLinear(i, ins, []term{{op.ID0, false, m.fr(op.ID0)}}, k, ek)
}

func compileConst(m *Machine, i int, ins instr) instr {
	op := m.prog.Ops[i]
	ins.kind, ins.k = kConst, op.Data
	m.vr[i] = intrange.Point(big.NewInt(op.Data))
	return ins
}

func compileMuxOp(m *Machine, i int, ins instr) instr { return m.compileMux(i, ins) }

// compileMul compiles the raw product, whatever the steps.
func compileMul(m *Machine, i int, ins instr) instr {
	op := m.prog.Ops[i]
	r := m.rangeOf(op.ID0).Mul(m.rangeOf(op.ID1))
	if !r.FitsInt64() {
		return m.exactInstr(i, ins, r)
	}
	ins.kind, ins.a, ins.b = kMul, m.slotOf[op.ID0], m.slotOf[op.ID1]
	m.setWrap(i, &ins, r)
	return ins
}

func compileLookup(m *Machine, i int, ins instr) instr {
	op := m.prog.Ops[i]
	ta := m.inf.kif[op.ID0]
	off := big.NewInt(m.inf.padOf(i)) // index = a - off
	if ta.Signed {
		off.Sub(off, new(big.Int).Lsh(big.NewInt(1), uint(ta.Width()-1)))
	}
	vals := m.prog.Tables[op.Data].Values
	tr := intrange.Point(new(big.Int))
	for k, v := range vals {
		if k == 0 {
			tr = intrange.Point(big.NewInt(int64(v)))
		}
		tr = tr.Union(intrange.Point(big.NewInt(int64(v))))
	}
	ra := m.rangeOf(op.ID0)
	idx := ra.Add(intrange.Point(new(big.Int).Neg(off)))
	if !ra.FitsInt64() || !off.IsInt64() || !idx.FitsInt64() {
		return m.exactInstr(i, ins, tr)
	}
	ins.tab = make([]int64, len(vals))
	for k, v := range vals {
		ins.tab[k] = int64(v)
	}
	m.vr[i] = tr
	ins.kind, ins.a, ins.k = kLookup, m.slotOf[op.ID0], off.Int64()
	return ins
}

// compileBitUnary compiles bit_unary and DAIS's neg_bit_unary.
func compileBitUnary(m *Machine, i int, ins instr) instr {
	op, t := m.prog.Ops[i], m.inf.kif[i]
	ta := m.inf.kif[op.ID0]
	ra := m.rangeOf(op.ID0)
	ins.a = m.slotOf[op.ID0]
	if op.Opcode == OpNegBitUnary {
		ins.m = -1
		ra = ra.Neg()
	}
	ins.k = -1 // mask of the operand's width
	if w := ta.Width(); w < 64 {
		ins.k = int64(1)<<w - 1
	}
	var r rng
	switch op.Data {
	case BitNot:
		ins.kind, r = kNot, ra.Not()
		switch {
		case t.Signed:
			ins.k = -1 // no mask
		case ins.k != -1:
			r = rng{Lo: new(big.Int), Hi: big.NewInt(ins.k)}
		default: // masked to 64 bits: the bits of ^a, read as unsigned
			r = rng{Lo: new(big.Int), Hi: new(big.Int).Set(maxUint64)}
		}
	case BitReduceAny:
		ins.kind, r = kReduceAny, rng{Lo: big.NewInt(0), Hi: big.NewInt(1)}
	default:
		ins.kind, r = kReduceAll, rng{Lo: big.NewInt(0), Hi: big.NewInt(1)}
	}
	if !ra.FitsInt64() || !r.FitsInt64() {
		return m.exactInstr(i, ins, r)
	}
	m.setWrap(i, &ins, r)
	return ins
}

func compileBitBinary(m *Machine, i int, ins instr) instr {
	op := m.prog.Ops[i]
	dais := m.prog.Dialect == DAIS
	sh := int(op.DataLow()) + m.fr(op.ID0) - m.fr(op.ID1)
	ra, rb := m.rangeOf(op.ID0), m.rangeOf(op.ID1)
	if dais && op.DataHigh()&1 != 0 {
		ra = ra.Neg()
	}
	if dais && op.DataHigh()&2 != 0 {
		rb = rb.Neg()
	}
	ins.a, ins.b = m.slotOf[op.ID0], m.slotOf[op.ID1]
	if sh > 0 {
		ins.s1, rb = uint8(min(sh, 64)), rb.Shl(uint(sh))
	} else {
		ins.s0, ra = uint8(min(-sh, 64)), ra.Shl(uint(-sh))
	}
	r := bitwise(ra, rb, uint64(op.Data)>>56)
	negates := dais && op.DataHigh()&3 != 0
	if negates || !ra.FitsInt64() || !rb.FitsInt64() || !r.FitsInt64() {
		return m.exactInstr(i, ins, r)
	}
	ins.kind = [...]kind{kAnd, kOr, kXor}[uint64(op.Data)>>56]
	m.setWrap(i, &ins, r)
	return ins
}

// compileLinear compiles r = quantize(Σ terms + k*2^-ek): one or two terms
// with their own kernels, more (or two negated ones) with kSumN.
func (m *Machine) compileLinear(i int, ins instr, terms []term, k *big.Int, ek int) instr {
	t := m.inf.kif[i]
	g := t.Fractionals
	for _, tm := range terms {
		g = max(g, tm.e)
	}
	if k != nil {
		g = max(g, ek)
	}
	rs := g - t.Fractionals
	// Exact range of the sum before the right shift.
	sum := intrange.Point(new(big.Int))
	kk := new(big.Int)
	if k != nil {
		kk.Lsh(k, uint(g-ek))
		sum = intrange.Point(kk)
	}
	for _, tm := range terms {
		r := m.rangeOf(tm.id).Shl(uint(g - tm.e))
		if tm.neg {
			r = r.Neg()
		}
		sum = sum.Add(r)
	}
	res := sum.Sar(uint(rs))
	// A wrapping op may compute its sum mod 2^64 (when no bits are shifted
	// out); any other op needs it exactly.
	if (rs > 0 || !m.prog.Dialect.Wraps(m.prog.Ops[i].Opcode)) && !sum.FitsInt64() {
		return m.exactInstr(i, ins, res)
	}
	// Computed mod 2^64 the sum is exact here; terms shifted by 64 or more
	// are multiples of 2^64 and drop out.
	var live []term
	for _, tm := range terms {
		if g-tm.e < 64 {
			live = append(live, tm)
		}
	}
	ins.k = lo64(kk)
	ins.rs = uint8(min(rs, 63))
	m.setWrap(i, &ins, res)
	if len(live) == 2 && live[0].neg {
		live[0], live[1] = live[1], live[0]
	}
	switch {
	case len(live) == 0:
		// The sum is k mod 2^64 (exactly k unless the op wraps and rs = 0).
		v := big.NewInt(ins.k >> ins.rs)
		if m.prog.Dialect.Wraps(m.prog.Ops[i].Opcode) {
			t.Wrap(v)
		}
		ins.kind, ins.k, ins.wrap = kConst, lo64(v), wrapNone
		m.vr[i] = intrange.Point(v)
	case len(live) == 1:
		a := live[0]
		ins.a, ins.s0 = m.slotOf[a.id], uint8(g-a.e)
		switch {
		case a.neg:
			ins.kind = kLin1Neg
		case ins.s0 == 0 && ins.k == 0 && ins.rs == 0:
			ins.kind = kCopy
		default:
			ins.kind = kLin1
		}
	case len(live) > 2 || live[0].neg: // a sum of several terms, or of negated ones
		ins.kind = kSumN
		for _, tm := range live {
			st := sumTerm{m.slotOf[tm.id], int64(1) << uint(g-tm.e)}
			if tm.neg {
				st.m = -st.m
			}
			ins.sum = append(ins.sum, st)
		}
	default:
		a, b := live[0], live[1]
		ins.a, ins.b = m.slotOf[a.id], m.slotOf[b.id]
		ins.s0, ins.s1 = uint8(g-a.e), uint8(g-b.e)
		simple := ins.k == 0 && ins.rs == 0
		switch {
		case simple && ins.s0 == 0 && ins.s1 == 0:
			ins.kind = pick(b.neg, kSub, kAdd)
		case simple && ins.s0 == 0:
			ins.kind = pick(b.neg, kSubShB, kAddShB)
		case simple && ins.s1 == 0:
			ins.kind = pick(b.neg, kSubShA, kAddShA)
		default:
			ins.kind = pick(b.neg, kLin2Sub, kLin2)
		}
	}
	return ins
}

func pick(c bool, a, b kind) kind {
	if c {
		return a
	}
	return b
}

// compileReLU compiles quantize(max(±a, 0)).
func (m *Machine) compileReLU(i int, ins instr, neg bool) instr {
	op := m.prog.Ops[i]
	ta := m.inf.kif[op.ID0]
	if m.rangeOf(op.ID0).Lo.Sign() >= 0 { // a >= 0: relu(a) = a and relu(-a) = 0
		if neg {
			ins.kind, ins.k = kConst, 0
			m.vr[i] = intrange.Point(new(big.Int))
			return ins
		}
		return m.compileLinear(i, ins, []term{{op.ID0, false, ta.Fractionals}}, nil, 0)
	}
	t := m.inf.kif[i]
	g := max(t.Fractionals, ta.Fractionals)
	s0, rs := g-ta.Fractionals, g-t.Fractionals
	r := m.rangeOf(op.ID0)
	if neg {
		r = r.Neg()
	}
	if !r.FitsInt64() { // -(-2^63)
		return m.exactInstr(i, ins, typeRange(m.inf.kif[i]))
	}
	r = r.Relu().Shl(uint(s0))
	if s0 >= 64 || (rs > 0 && !r.FitsInt64()) {
		return m.exactInstr(i, ins, typeRange(m.inf.kif[i]))
	}
	ins.kind = pick(neg, kReLUNeg, kReLU)
	ins.a, ins.s0, ins.rs = m.slotOf[op.ID0], uint8(s0), uint8(min(rs, 63))
	m.setWrap(i, &ins, r.Sar(uint(rs)))
	return ins
}

// compileMux compiles msb(c) ? quantize(a) : quantize(±b*2^shift); each
// branch is brought to the result's scale on its own.
func (m *Machine) compileMux(i int, ins instr) instr {
	op := m.prog.Ops[i]
	t := m.inf.kif[i]
	f := t.Fractionals
	cond := op.DataLow()
	wc := m.inf.kif[cond].Width()
	if wc == 0 { // no sign bit: always the false branch
		wc = 65
	}
	branch := func(id int32, neg bool, e int) (s, rs int, r rng, ok bool) {
		g := max(f, e)
		s, rs = g-e, g-f
		r = m.rangeOf(id)
		if neg {
			r = r.Neg()
		}
		r = r.Shl(uint(s))
		ok = s < 64 && (rs == 0 || r.FitsInt64())
		return s, rs, r.Sar(uint(rs)), ok
	}
	sa, ra, rA, okA := branch(op.ID0, false, m.inf.kif[op.ID0].Fractionals)
	neg := op.Opcode == OpNegMux
	sb, rb, rB, okB := branch(op.ID1, neg, m.inf.kif[op.ID1].Fractionals-int(op.DataHigh()))
	tc := m.inf.kif[cond]
	// da4ml's DAIS reads a condition by its sign, or for an unsigned one by
	// a threshold (muxTrue): the same as its msb only for a signed value
	// that lies in its type.
	daisGT := m.prog.Dialect == DAIS && !tc.Signed
	daisExact := m.prog.Dialect == DAIS && (m.u64[cond] || m.wide[cond])
	if !okA || !okB || wc > 64 || daisExact {
		return m.exactInstr(i, ins, typeRange(m.inf.kif[i]))
	}
	ins.kind = kMux
	ins.a, ins.b, ins.c = m.slotOf[op.ID0], m.slotOf[op.ID1], m.slotOf[cond]
	ins.s0, ins.rs, ins.s1, ins.rs2 = uint8(sa), uint8(min(ra, 63)), uint8(sb), uint8(min(rb, 63))
	ins.k = int64(wc - 1)
	if m.prog.Dialect == DAIS && tc.Signed {
		ins.k = 63 // c < 0
	}
	if daisGT {
		ins.kind, ins.k = kMuxGT, 1<<62 // width 0: see muxTrue
		switch w := tc.Width(); {
		case w >= 2:
			ins.k = 1 << (w - 2)
		case w == 1:
			ins.k = 0
		}
	}
	if neg {
		ins.m = -1
	}
	m.setWrap(i, &ins, rA.Union(rB))
	return ins
}

// fuseWrap folds the wrap of inputs and muxes, and of linear operations that
// need one, into their kernels (saving a pass over the block): linear
// operations become kLin1W or kLin2W with signed multipliers.
func fuseWrap(ins *instr) {
	var lin1, lin2, neg0, neg1 bool
	switch ins.kind {
	case kCopy, kLin1:
		lin1 = true
	case kLin1Neg:
		lin1, neg0 = true, true
	case kAdd, kAddShB, kAddShA, kLin2:
		lin2 = true
	case kSub, kSubShB, kSubShA, kLin2Sub:
		lin2, neg1 = true, true
	case kInput, kMux, kMuxGT:
	default:
		return
	}
	if (lin1 || lin2) && ins.wrap == wrapNone {
		return
	}
	ins.fsh, ins.fmask = 0, -1
	switch ins.wrap {
	case wrapSigned:
		ins.fsh = ins.wrapW
	case wrapUnsigned:
		ins.fmask = ins.mask
	case wrapZero:
		ins.fmask = 0
	}
	ins.wrap = wrapNone
	if neg0 {
		ins.m0 = -ins.m0
	}
	if neg1 {
		ins.m1 = -ins.m1
	}
	switch {
	case lin1:
		ins.kind = kLin1W
	case lin2:
		ins.kind = kLin2W
	}
}
