package exec

import "github.com/otir-dev/otir/ir"

// A kernel is compiled once per run into a flat form, so that a step costs
// no name lookup, no map access and, for scalars, no allocation: every SSA
// value the kernel mentions is numbered into a slot of the workgroup's slot
// slice; every operation becomes an instruction holding its table entry,
// its step cost and the slots of its operands and results; the operations of
// each region block are an index range of one instruction array. Compiling
// changes no meaning: the instructions run the table's handlers, in the
// order of the operations, with the same checks.

// program is a compiled kernel.
type program struct {
	code   []instr
	blocks []block // blocks[0] is the kernel's body
	nslots int
	// slotOf numbers the values and sems holds the table entries, while
	// compiling.
	slotOf map[*ir.Value]int
	sems   map[string]*semantics
	ints   []int // the chunk that slots fills
	// kept marks, while compiling, the slots of values some operation may
	// keep a reference to (an operand of an op neither element-wise nor
	// readsOnly, a yielded or carried value).
	kept map[int]bool
}

// block is a compiled region block: the slots of its arguments and the
// range code[start:end] of its operations, up to and including the first
// terminator (operations after it never run).
type block struct {
	b          *ir.Block
	args       []int
	start, end int
}

// maxScalarArgs bounds the operands of the scalar fast path of element-wise
// operations (otir.select has the most, three).
const maxScalarArgs = 3

// instr is one compiled operation.
type instr struct {
	op    *ir.Operation
	sem   *semantics
	known bool  // sem is the op's table entry (else the op is unknown)
	cost  int64 // stepCost(op, sem)
	args  []int // operand slots
	res   []int // result slots
	// regions are the indices in program.blocks of the op's region
	// blocks, -1 for a region without one.
	regions []int
	// scalar is set for an element-wise op with a scalar result and a
	// valid operand count: it runs unboxed when its operands are scalars
	// (workgroup.scalarElementwise).
	scalar *scalarOp
	// konst is an otir.constant's value, made at its first run.
	konst []rvalue
	// reuse marks an element-wise op whose result no operation keeps: when
	// it runs again, its last result is dead (every use of a value runs
	// after its definition, before the definition runs again), so out, the
	// buffer its last run made, holds the new result.
	reuse bool
	out   *Buffer
	// wg is the #workgroup tile an allocation made last in the running
	// workgroup (listed in machine.wgTiles), whose storage is working
	// memory (spare.go).
	wg *Buffer
	// plan and bufs are an element-wise op's plan for its last operand types
	// and shapes and its operands while it runs.
	plan *elemPlan
	bufs []*Buffer
	// scratch holds a region op's values while it runs (scf.for's body
	// arguments, scf.if's results): an instruction never runs inside
	// itself, so one buffer per instruction is enough.
	scratch []slot
}

// scalarOp is what a scalar element-wise instruction keeps between runs.
type scalarOp struct {
	relem ir.Type // the result type
	// fn is the scalar function picked for the operand types fnTypes
	// (picked again when they differ).
	fn      scalarFn
	fnTypes [maxScalarArgs]ir.Type
}

// compile compiles kernel k.
func compile(k *ir.Operation) *program {
	values, uses := 0, 0
	k.Walk(func(op *ir.Operation) bool {
		values += len(op.Results)
		uses += len(op.Operands) + len(op.Results)
		for r := range op.Regions {
			if b := op.Body(r); b != nil {
				uses += len(b.Args)
			}
		}
		return true
	})
	p := &program{slotOf: make(map[*ir.Value]int, values), sems: map[string]*semantics{},
		ints: make([]int, 0, uses), kept: map[int]bool{}}
	p.compileBlock(k.Body(0))
	p.nslots = len(p.slotOf)
	for i := range p.code {
		if in := &p.code[i]; (in.sem.elem != nil || in.sem.fresh) && len(in.res) == 1 && !p.kept[in.res[0]] {
			in.reuse = true
		}
	}
	p.slotOf, p.sems, p.ints, p.kept = nil, nil, nil, nil
	return p
}

// release gives the working memory of the program's last run back
// (spare.go): its instructions' result buffers.
func (p *program) release() {
	for i := range p.code {
		if in := &p.code[i]; in.out != nil {
			giveInts(in.out.Ints)
			in.out = nil
		}
	}
}

// semOf is semOf(name), one copy per program.
func (p *program) semOf(name string) (*semantics, bool) {
	s, known := semOf(name)
	if q, ok := p.sems[name]; ok {
		return q, known
	}
	p.sems[name] = &s
	return &s, known
}

// slot returns the slot of v, numbering it at its first mention.
func (p *program) slot(v *ir.Value) int {
	s, ok := p.slotOf[v]
	if !ok {
		s = len(p.slotOf)
		p.slotOf[v] = s
	}
	return s
}

// slots returns the slots of vs, in a slice of one shared array (the slots
// of all instructions, allocated in chunks).
func (p *program) slots(vs []*ir.Value) []int {
	if len(vs) > cap(p.ints)-len(p.ints) {
		p.ints = make([]int, 0, max(len(vs), 1024))
	}
	start := len(p.ints)
	for _, v := range vs {
		p.ints = append(p.ints, p.slot(v))
	}
	return p.ints[start:len(p.ints):len(p.ints)]
}

// compileBlock compiles b (nil: an absent region block, -1) and returns its
// index in p.blocks. Its instructions are contiguous; those of nested
// regions follow them.
func (p *program) compileBlock(b *ir.Block) int {
	if b == nil {
		return -1
	}
	n := len(b.Ops)
	for i, op := range b.Ops {
		if s, _ := semOf(op.Name); s.ends {
			n = i + 1
			break
		}
	}
	bi := len(p.blocks)
	p.blocks = append(p.blocks, block{b: b, args: p.slots(b.Args), start: len(p.code), end: len(p.code) + n})
	p.code = append(p.code, make([]instr, n)...)
	for i, op := range b.Ops[:n] {
		in := p.compileOp(op)
		p.code[p.blocks[bi].start+i] = in
	}
	return bi
}

// compileOp compiles one operation and its regions.
func (p *program) compileOp(op *ir.Operation) instr {
	sem, known := p.semOf(op.Name)
	in := instr{op: op, sem: sem, known: known, cost: stepCost(op, *sem),
		args: p.slots(op.Operands), res: p.slots(op.Results)}
	for j, s := range in.args {
		if sem.elem == nil && !(sem.readsOnly && j == 0) {
			p.kept[s] = true
		}
	}
	for r := range op.Regions {
		in.regions = append(in.regions, p.compileBlock(op.Body(r)))
	}
	if sem.elem != nil && len(op.Operands) <= maxScalarArgs && len(op.Results) == 1 && ir.IsScalar(op.Results[0].Type) {
		// execElementwise's checks that hold for every run of op.
		if d := ir.LookupOp(op.Name); d != nil && len(d.Operands) == len(op.Operands) {
			in.scalar = &scalarOp{relem: op.Results[0].Type}
		}
	}
	if b := op.Body(0); sem.run != nil && b != nil {
		in.scratch = make([]slot, len(b.Args))
	}
	return in
}

// region returns the compiled block of the op's region r (nil if absent).
func (p *program) region(in *instr, r int) *block {
	if r >= len(in.regions) || in.regions[r] < 0 {
		return nil
	}
	return &p.blocks[in.regions[r]]
}

// slot holds one SSA value of a workgroup: a runtime value v, or a scalar
// held unboxed (t its type, n its value; v its *Buffer once a handler asked
// for one). The zero slot is a value not computed (yet).
type slot struct {
	v rvalue
	t ir.Type
	n num
}

// scalarSlot is an unboxed scalar of type t.
func scalarSlot(t ir.Type, n num) slot { return slot{t: t, n: n} }

// set stores a runtime value, unboxing a scalar.
func (s *slot) set(v rvalue) {
	*s = slot{v: v}
	if b, ok := v.(*Buffer); ok && len(b.Shape) == 0 && len(b.Ints)+len(b.Floats)+len(b.Bigs) == 1 {
		s.t, s.n = b.Elem, b.num(0)
	}
}

// value returns the runtime value (nil: none), boxing a scalar once.
func (s *slot) value() rvalue {
	if s.v == nil && s.t != nil {
		b := NewBuffer(s.t)
		b.setNum(0, s.n)
		s.v = b
	}
	return s.v
}

// conforms is conforms(s.value(), t), without boxing a scalar of type t.
func (s *slot) conforms(t ir.Type) error {
	if s.t != nil && s.t == t {
		return nil
	}
	return conforms(s.value(), t)
}
