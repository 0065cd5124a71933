package ir

import (
	"bufio"
	"bytes"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// PrintOptions controls the printer.
type PrintOptions struct {
	// Generic prints every operation in MLIR's generic form.
	Generic bool
	// DebugInfo prints each operation's location after it,
	// loc("file":line:col), inline (mlir-opt's --mlir-print-debuginfo
	// with --mlir-print-local-scope); the parser reads and drops them.
	DebugInfo bool
}

// Print writes the module in textual form. It records each value's printed
// name in the value itself, so the same IR must not be printed from two
// goroutines at once. Large blocks are printed in parallel (see printOps).
func Print(w io.Writer, m *Module, opts PrintOptions) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	p := &printer{w: bw, opts: opts}
	p.op(m.Op, 0)
	return bw.Flush()
}

// String prints the module to a string.
func (m *Module) String() string {
	var sb strings.Builder
	_ = Print(&sb, m, PrintOptions{})
	return sb.String()
}

// PrintOp prints a single operation (and its regions) with fresh value names.
func PrintOp(w io.Writer, op *Operation, opts PrintOptions) error {
	bw := bufio.NewWriter(w)
	p := &printer{w: bw, opts: opts}
	p.op(op, 0)
	return bw.Flush()
}

type printer struct {
	w    *bufio.Writer
	opts PrintOptions
	// gen identifies the current naming scope: a value's name is valid when
	// its printGen equals gen (0: no scope yet).
	gen   uint32
	hints []string       // readable names of the scope (%c16, %pid_0, ...)
	used  map[string]int // hint name -> next suffix to try
	next  int            // next numeric result name
	nArgs int            // next %argN
	// split: no operation strictly inside the current scope opens a scope
	// of its own, so printing the scope's blocks renames nothing and their
	// operations may print in parallel (see printOps).
	split bool
	depth int   // nesting of the op being printed in its format
	sp    uint8 // spacing state of the format printer (spNormal, ...)
	// scratch is the memory of the format's fits check.
	scratch inferScratch
}

// Large blocks print in parallel: a block of at least 2*parallelMinOps
// operations is cut into pieces of parallelMinOps (fewer is not worth the
// hand-over) printed by up to parallelWorkers goroutines.
// Variables so that tests can force either path.
var (
	parallelMinOps  = 3000
	parallelWorkers = 0                 // 0: runtime.GOMAXPROCS(0)
	parallelHook    func(ops, ways int) // tests: told of each parallel block
)

// Kinds of printed names (Value.printKind).
const (
	nameNumber      = iota // %7
	nameMultiResult        // %7#1 (the result's Index)
	nameArg                // %arg3
	nameHinted             // hints[printNum]
)

// printGens hands out naming-scope generations, unique across printers.
var printGens atomic.Uint32

func (p *printer) name(v *Value, kind uint8, num int) {
	v.printGen, v.printKind, v.printNum = p.gen, kind, int32(num)
}

func (p *printer) str(s string) { p.w.WriteString(s) }

// int writes n in decimal, formatted in the writer's free buffer space (no
// allocation).
func (p *printer) int(n int64) { p.w.Write(strconv.AppendInt(p.w.AvailableBuffer(), n, 10)) }

func (p *printer) indent(n int) {
	for i := 0; i < n; i++ {
		p.w.WriteString("  ")
	}
}

// nameScope assigns names to every value under op (an isolated operation:
// the module's kernels), in the order they are printed, as MLIR does.
func (p *printer) nameScope(op *Operation) {
	p.gen = printGens.Add(1)
	if p.gen == 0 { // wrapped around: 0 means "unnamed"
		p.gen = printGens.Add(1)
	}
	p.hints = p.hints[:0]
	p.used = make(map[string]int)
	p.next = 0
	p.nArgs = 0
	p.split = true
	var visit func(o *Operation)
	visit = func(o *Operation) {
		d := LookupOp(o.Name)
		if o != op && opensScope(o, d) {
			p.split = false
		}
		if len(o.Results) > 0 {
			if hint := nameHint(o, d); hint != "" && len(o.Results) == 1 {
				p.hints = append(p.hints, p.unique(hint))
				p.name(o.Results[0], nameHinted, len(p.hints)-1)
			} else {
				kind := uint8(nameNumber)
				if len(o.Results) > 1 {
					kind = nameMultiResult
				}
				for _, r := range o.Results {
					if r != nil {
						p.name(r, kind, p.next)
					}
				}
				p.next++
			}
		}
		for b := range o.Blocks() {
			for _, a := range b.Args {
				if a != nil {
					p.name(a, nameArg, p.nArgs)
				}
				p.nArgs++
			}
			for _, inner := range b.Ops {
				if inner != nil {
					visit(inner)
				}
			}
		}
	}
	// The scope's own block arguments come first, then its body.
	visit(op)
}

func (p *printer) unique(hint string) string {
	n, seen := p.used[hint]
	if !seen {
		p.used[hint] = 0
		return hint
	}
	for {
		cand := hint + "_" + strconv.Itoa(n)
		n++
		if _, taken := p.used[cand]; !taken {
			p.used[hint] = n
			p.used[cand] = 0
			return cand
		}
	}
}

// nameHint is the readable name the op's record gives its result (%c16,
// %true, %pid: MLIR's OpAsmOpInterface), or "".
func nameHint(op *Operation, d *OpDef) string {
	if d != nil && d.ResultName != nil {
		return d.ResultName(op)
	}
	return ""
}

func (p *printer) val(v *Value) {
	p.w.WriteByte('%')
	p.valName(v)
}

// valName writes v's name without the '%'.
func (p *printer) valName(v *Value) {
	if v == nil || v.printGen != p.gen || p.gen == 0 {
		p.str("<<UNKNOWN SSA VALUE>>")
		return
	}
	switch v.printKind {
	case nameHinted:
		p.str(p.hints[v.printNum])
		return
	case nameArg:
		p.str("arg")
	}
	p.int(int64(v.printNum))
	if v.printKind == nameMultiResult {
		p.w.WriteByte('#')
		p.int(int64(v.Index))
	}
}

func (p *printer) vals(vs []*Value) {
	for i, v := range vs {
		if i > 0 {
			p.str(", ")
		}
		p.val(v)
	}
}

// valueTypes prints the types of vs, "T1, T2" or, with parens, "(T1, T2)",
// straight to the writer (a type list per operation is the printer's most
// frequent output).
func (p *printer) valueTypes(vs []*Value, parens bool) {
	if parens {
		p.w.WriteByte('(')
	}
	for i, v := range vs {
		if i > 0 {
			p.str(", ")
		}
		if v == nil {
			p.str(TypeString(nil))
		} else {
			p.typ(v.Type)
		}
	}
	if parens {
		p.w.WriteByte(')')
	}
}

// typ prints a type: in the generic form, in MLIR's spelling (uiN).
func (p *printer) typ(t Type) {
	if p.opts.Generic {
		p.str(MLIRTypeString(t))
		return
	}
	p.str(TypeString(t))
}

// results prints "%0 = ", "%0:2 = " or nothing.
func (p *printer) results(op *Operation) {
	if len(op.Results) == 0 {
		return
	}
	r := op.Results[0]
	p.w.WriteByte('%')
	if len(op.Results) > 1 && r != nil && r.printGen == p.gen && r.printKind == nameMultiResult {
		p.int(int64(r.printNum))
		p.w.WriteByte(':')
		p.int(int64(len(op.Results)))
	} else {
		p.valName(r)
	}
	p.str(" = ")
}

// opensScope reports whether op is an isolated scope, whose values are
// numbered from zero: a kernel, or any other op of a module body (a
// dais.program). d is op's record (nil if unregistered).
func opensScope(op *Operation, d *OpDef) bool {
	if op.Name == OpModule {
		return false
	}
	parent := op.ParentOp()
	if d != nil && d.Has(IsolatedFromAbove) {
		return true // otir.kernel
	}
	return parent != nil && parent.Name == OpModule
}

func (p *printer) op(op *Operation, depth int) {
	d := LookupOp(op.Name)
	scope := opensScope(op, d) || p.gen == 0 && op.Name != OpModule
	if scope {
		p.nameScope(op)
	}
	p.indent(depth)
	if p.opts.Generic || d == nil || !p.pretty(op, d, depth) {
		p.generic(op, depth)
	}
	if p.opts.DebugInfo {
		p.w.WriteByte(' ')
		p.str(LocText(op.Loc))
	}
	p.w.WriteByte('\n')
	if scope {
		p.split = false // the blocks that follow are outside the scope
	}
}

// printOps prints a block's operations. A large block (when naming is done:
// p.split) is cut into pieces of parallelMinOps operations that goroutines
// print in turn into buffers; this goroutine writes the buffers out in
// order and hands them back, so memory stays at a few pieces per goroutine
// whatever the block's size. A panic in a piece is raised again here, as
// the sequential print would have.
func (p *printer) printOps(ops []*Operation, depth int) {
	n := 1
	if p.split && len(ops) >= 2*parallelMinOps {
		n = parallelWorkers
		if n <= 0 {
			n = runtime.GOMAXPROCS(0)
		}
		n = min(n, len(ops)/max(parallelMinOps, 1))
	}
	if n < 2 {
		for _, o := range ops {
			p.opLine(o, depth)
		}
		return
	}
	if parallelHook != nil {
		parallelHook(len(ops), n)
	}
	size := max(parallelMinOps, 1)
	pieces := make([]printPiece, (len(ops)+size-1)/size)
	for i := range pieces {
		pieces[i].ready = make(chan struct{})
	}
	free := make(chan *bytes.Buffer, 2*n) // buffers not in use
	for i := 0; i < 2*n; i++ {
		free <- new(bytes.Buffer)
	}
	quit := make(chan struct{}) // closed when the writer stops early
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		wg.Go(func() {
			q := &printer{opts: p.opts, gen: p.gen, hints: p.hints}
			for {
				var buf *bytes.Buffer
				select {
				case buf = <-free:
				case <-quit:
					return
				}
				k := int(next.Add(1) - 1)
				if k >= len(pieces) {
					return
				}
				pc := &pieces[k]
				func() {
					defer func() { pc.panic = recover() }()
					buf.Reset()
					if q.w == nil {
						q.w = bufio.NewWriterSize(buf, 1<<16)
					} else {
						q.w.Reset(buf)
					}
					for _, o := range ops[k*size : min((k+1)*size, len(ops))] {
						q.opLine(o, depth)
					}
					q.w.Flush()
				}()
				pc.buf = buf
				close(pc.ready)
			}
		})
	}
	defer wg.Wait()
	for k := range pieces {
		pc := &pieces[k]
		<-pc.ready
		if pc.panic != nil {
			close(quit)
			wg.Wait()
			panic(pc.panic)
		}
		p.w.Write(pc.buf.Bytes())
		free <- pc.buf
	}
}

// printPiece is a piece of a block printed by printOps: its text, or the
// panic that stopped it, once ready is closed.
type printPiece struct {
	ready chan struct{}
	buf   *bytes.Buffer
	panic any
}

// opLine prints op, or a placeholder line for a nil operation.
func (p *printer) opLine(o *Operation, depth int) {
	if o == nil {
		p.indent(depth)
		p.str("<<NULL OPERATION>>\n")
		return
	}
	p.op(o, depth)
}

// hasOnlyAttrs reports whether op's attributes are all spelled by its pretty form.
func hasOnlyAttrs(op *Operation, d *OpDef) bool {
	for _, a := range op.Attrs {
		known := false
		for _, n := range d.Attrs {
			if a.Name == n.Name {
				known = true
				break
			}
		}
		if !known {
			return false
		}
	}
	return true
}

func (p *printer) generic(op *Operation, depth int) {
	p.results(op)
	p.str(QuoteString(op.Name))
	p.w.WriteByte('(')
	p.vals(op.Operands)
	p.w.WriteByte(')')
	if len(op.Regions) > 0 {
		p.str(" (")
		for i, r := range op.Regions {
			if i > 0 {
				p.str(", ")
			}
			p.region(r, depth, true, true)
		}
		p.w.WriteByte(')')
	}
	if len(op.Attrs) > 0 {
		p.w.WriteByte(' ')
		if p.opts.Generic {
			p.str(op.Attrs.GenericString())
		} else {
			p.str(op.Attrs.String())
		}
	}
	p.str(" : ")
	p.valueTypes(op.Operands, true)
	p.str(" -> ")
	if len(op.Results) == 1 {
		p.typ(op.Results[0].Type)
	} else {
		p.valueTypes(op.Results, true)
	}
}

// region prints "{ ... }". With header, block arguments print as ^bb0(...):
// (the generic form); elideYield drops an operand-less scf.yield terminator.
func (p *printer) region(r *Region, depth int, header bool, keepYield bool) {
	p.str("{\n")
	if r == nil {
		r = &Region{}
	}
	for _, b := range r.Blocks {
		if b == nil {
			continue
		}
		// An empty block prints its label, as MLIR's generic form does: a
		// bare "{ }" is a region without blocks.
		if header && (len(b.Args) > 0 || len(r.Blocks) > 1 || len(b.Ops) == 0) {
			p.indent(depth)
			p.str("^bb0")
			if len(b.Args) > 0 {
				PrintBlockArgList(p, b)
			}
			p.str(":\n")
		}
		ops := b.Ops
		if n := len(ops); !keepYield && n > 0 {
			if o := ops[n-1]; o != nil && r.Parent != nil && o.Name == implicitTerminator(r.Parent) && len(o.Operands) == 0 && len(o.Attrs) == 0 {
				ops = ops[:n-1]
			}
		}
		p.printOps(ops, depth+1)
	}
	p.indent(depth)
	p.w.WriteByte('}')
}

// sameTypes reports whether every type in ts is t.
// sameOperandTypes reports whether every operand of op has type t.
func sameOperandTypes(t Type, op *Operation) bool {
	for _, v := range op.Operands {
		if v == nil || v.Type != t {
			return false
		}
	}
	return true
}

// LocText is a location as MLIR writes it: loc("file":3:5), or loc(unknown).
func LocText(l Location) string {
	if m := l.MLIR(); m != nil {
		return "loc(" + m.String() + ")"
	}
	if l.Line == 0 {
		return "loc(unknown)"
	}
	return "loc(" + QuoteString(l.File) + ":" + strconv.Itoa(l.Line) + ":" + strconv.Itoa(l.Col) + ")"
}

// symbolName quotes a symbol that is not a bare identifier.
func symbolName(s string) string {
	if s == "" {
		return `""`
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '.' || c == '$' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return QuoteString(s)
		}
	}
	return s
}
