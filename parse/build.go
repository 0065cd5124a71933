package parse

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/ir"
)

// builder turns the AST into IR operations. Operands stay unresolved (nil)
// until the resolver binds SSA names; everything else (types, attributes,
// regions, block arguments) is built here, for large blocks in parallel.
type builder struct {
	filename string
	style    string // the enclosing module's otir.typing_style
	workers  int
	minOps   int        // fewest operations per goroutine
	al       *allocator // this goroutine's slabs
	stream   *stream    // for opaque bodies (nil: none)
	inferIn  ir.InferInput
}

const styleAttr = "otir.typing_style"

// loc is the IR location of a token position (tokens do not carry the file
// name: it would be one more pointer per token for the garbage collector).
func (b *builder) loc(p lexer.Position) ir.Location {
	return ir.Location{File: b.filename, Line: p.Line, Col: p.Column}
}

// typeAt parses a type written in an operation, locating errors at the type's
// token.
func typeAt(toks []lexer.Token, s string) (ir.Type, error) {
	t, err := ir.ParseType(s)
	if err != nil {
		return nil, errAt(tokPos(toks, s), "%s", err.Error())
	}
	return t, nil
}

// typesAt parses a list of types.
func typesAt(toks []lexer.Token, ss []string) ([]ir.Type, error) {
	ts := make([]ir.Type, len(ss))
	for i, s := range ss {
		t, err := typeAt(toks, s)
		if err != nil {
			return nil, err
		}
		ts[i] = t
	}
	return ts, nil
}

// tokPos is the position of the first token with the given text, or of the
// first token.
func tokPos(toks []lexer.Token, text string) lexer.Position {
	for i := range toks {
		if toks[i].Value == text {
			return toks[i].Pos
		}
	}
	if len(toks) == 0 {
		return lexer.Position{}
	}
	return toks[0].Pos
}

// namePos is the position of the operation's name (after its results).
func (o *Operation) namePos() lexer.Position {
	if i := 2 * len(o.Results); i < len(o.Tokens) {
		return o.Tokens[i].Pos
	}
	return o.Tokens[0].Pos
}

// fork is a copy of b for another goroutine, with slabs of its own.
func (b *builder) fork() *builder {
	nb := *b
	nb.al = &allocator{}
	return &nb
}

// ops converts a block's operations into blk, in parallel for long blocks.
func (b *builder) ops(list []*Operation, blk *ir.Block) error {
	blk.Ops = make([]*ir.Operation, len(list))
	n := len(list)
	if b.workers <= 1 || n < 2*b.minOps {
		return b.convert(list, blk, 0, n)
	}
	k := b.workers
	if n/k < b.minOps {
		k = n / b.minOps
	}
	errs := make([]error, k)
	var wg sync.WaitGroup
	for i := 0; i < k; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			nb := b.fork()
			errs[i] = guard(func() error { return nb.convert(list, blk, i*n/k, (i+1)*n/k) })
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// convert builds list[lo:hi] into blk.Ops[lo:hi].
func (b *builder) convert(list []*Operation, blk *ir.Block, lo, hi int) error {
	for j := lo; j < hi; j++ {
		if err := b.op(list[j]); err != nil {
			return err
		}
		list[j].op.Block = blk
		blk.Ops[j] = list[j].op
	}
	return nil
}

// regionSpec says how to build one region of an operation.
type regionSpec struct {
	ast      *Region
	argTypes []ir.Type
	argNames []string
	argPos   []lexer.Position
	argEnd   []int // see Region.argEnd
	// pretty regions never have a ^bb header and always have one block;
	// terminator, when set, is their implicit terminator (scf.yield), added
	// without operands when the block does not end with it.
	pretty     bool
	terminator string
}

// typeEnd is the end offset of the type of the block argument declared
// "%name: type" at offset at among toks, or -1. toks are in source order, so
// the argument's token is found by binary search: a signature of n arguments
// costs O(n log n), not O(n²) (issue 26: 100,000 arguments took 66 s).
func typeEnd(toks []lexer.Token, at int) int {
	i := sort.Search(len(toks), func(i int) bool { return toks[i].Pos.Offset >= at })
	if i == len(toks) || toks[i].Pos.Offset != at || i+2 >= len(toks) {
		return -1
	}
	if c := &toks[i+1]; c.Type != tokPunct || c.Value != ":" {
		return -1
	}
	t := &toks[i+2]
	return t.Pos.Offset + len(t.Value)
}

// region builds a region of op.
func (b *builder) region(o *Operation, spec regionSpec) error {
	r := spec.ast
	reg := &ir.Region{Parent: o.op}
	o.op.Regions = append(o.op.Regions, reg)
	o.regions = append(o.regions, r)
	if r.Header != nil {
		if spec.pretty {
			return errAt(r.Header.Pos, "invalid block name in region with named arguments")
		}
		for _, a := range r.Header.Args {
			t, err := typeAt(a.Tokens, a.Type)
			if err != nil {
				return err
			}
			spec.argTypes = append(spec.argTypes, t)
			spec.argNames = append(spec.argNames, a.Name)
			spec.argPos = append(spec.argPos, a.Tokens[0].Pos)
			spec.argEnd = append(spec.argEnd, typeEnd(a.Tokens, a.Tokens[0].Pos.Offset))
		}
	}
	var list []*Operation
	if r.Body != nil {
		list = r.Body.Ops
	}
	opaque := r.Body != nil && r.Body.opaque
	if !opaque && !spec.pretty && r.Header == nil && len(list) == 0 && o.op.Name != ir.OpModule {
		// An empty region has no block, except a module's: its body is
		// always one block (the printer writes both as "{ }").
		return nil
	}
	blk := &ir.Block{Parent: reg}
	reg.Blocks = []*ir.Block{blk}
	for i, t := range spec.argTypes {
		blk.AddArg(t, b.loc(spec.argPos[i]))
		blk.Args[i].Name = strings.TrimPrefix(spec.argNames[i], "%")
	}
	r.block, r.argNames, r.argPos, r.argEnd = blk, spec.argNames, spec.argPos, spec.argEnd
	if opaque {
		if b.stream == nil {
			return errStreamFailed
		}
		if err := b.opaqueOps(r.Body, blk); err != nil {
			return err
		}
		if len(blk.Ops) == 0 && !spec.pretty && r.Header == nil && o.op.Name != ir.OpModule {
			reg.Blocks, r.block = nil, nil // only comments: an empty region
			return nil
		}
	} else if err := b.ops(list, blk); err != nil {
		return err
	}
	if spec.terminator != "" {
		if t := blk.Terminator(); t == nil || t.Name != spec.terminator {
			y := ir.NewOp(spec.terminator, b.loc(r.Pos), nil, nil, nil)
			blk.Append(y)
		}
	}
	return nil
}

// newOp creates o's IR operation (as ir.NewOp does, but from the builder's
// slabs) with the operands named by uses, of the types useTys, unresolved.
func (b *builder) newOp(o *Operation, name string, uses []string, useTys []ir.Type, results []ir.Type, attrs ir.Attrs) {
	al := b.al
	o.uses = al.uses.many(len(uses))
	for i := range uses {
		o.uses[i] = use{uses[i], useTys[i]}
	}
	op := al.irOps.one()
	op.Name, op.Attrs, op.Loc = name, attrs, b.loc(o.Tokens[0].Pos)
	op.Operands = al.valPtrs.many(len(uses))
	if len(results) > 0 {
		vals := al.values.many(len(results))
		op.Results = al.valPtrs.many(len(results))
		for i, t := range results {
			vals[i] = ir.Value{Type: t, Def: op, Index: i, Loc: op.Loc}
			op.Results[i] = &vals[i]
		}
	}
	o.op = op
}

// same returns n copies of t (from the slab).
func (b *builder) same(t ir.Type, n int) []ir.Type {
	ts := b.al.types.many(n)
	for i := range ts {
		ts[i] = t
	}
	return ts
}

// op converts one operation (and its regions).
func (b *builder) op(o *Operation) error {
	if n := len(o.Tokens); n > 0 {
		// The resolver's diagnostics find tokens again from these: a
		// streamed chunk's tokens are gone by then.
		last := &o.Tokens[n-1]
		first := o.Tokens[0].Pos
		o.text.start, o.text.end = int32(first.Offset), int32(last.Pos.Offset+len(last.Value))
		o.text.line, o.text.col = int32(first.Line), int32(first.Column)
	}
	var err error
	switch body := o.Body.(type) {
	case *PrettyOp:
		err = b.pretty(o, body)
	case *GenericOp:
		err = b.generic(o, body)
	default:
		return errAt(o.Tokens[0].Pos, "expected operation name in quotes")
	}
	if err != nil {
		return err
	}
	return b.bindResults(o)
}

// bindResults checks the result names against the operation's results and
// gives each result its name hint and location.
func (b *builder) bindResults(o *Operation) error {
	if len(o.Results) == 0 {
		return nil
	}
	n := 0
	counts := make([]int, len(o.Results))
	for i, r := range o.Results {
		counts[i] = 1
		if j := strings.IndexByte(r, ':'); j >= 0 {
			c, err := strconv.Atoi(r[j+1:])
			if err != nil && c > 0 {
				return errAt(o.Tokens[2*i].Pos, "operation defines %d results but was provided %s to bind", len(o.op.Results), r[j+1:])
			}
			if err != nil || c < 1 {
				return errAt(o.Tokens[2*i].Pos, "expected named operation to have at least 1 result")
			}
			counts[i] = c
		} else if strings.IndexByte(r, '#') >= 0 {
			return errAt(o.Tokens[2*i].Pos, "expected '=' after SSA name")
		}
		n += counts[i]
		if n > len(o.op.Results) {
			break
		}
	}
	if n != len(o.op.Results) {
		return errAt(o.Tokens[0].Pos, "operation defines %d results but was provided %d to bind", len(o.op.Results), n)
	}
	k := 0
	for i, r := range o.Results {
		name := r
		if j := strings.IndexByte(r, ':'); j >= 0 {
			name = r[:j]
		}
		for c := 0; c < counts[i]; c++ {
			v := o.op.Results[k]
			v.Name = name[1:]
			v.Loc = b.loc(o.Tokens[2*i].Pos)
			k++
		}
	}
	return nil
}

func oneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}
