// Package parse reads OTIR text (pretty and generic forms) into the typed IR.
//
// The grammar is a participle grammar (grammar.go) over a hand-written lexer
// (lexer.go) whose tokens are coarse: an SSA name, a whole dialect type, a
// one-line function type or an operation name is one token. Parsing runs in
// three phases:
//
//  1. syntax: the source is scanned (in parallel pieces when large) and
//     participle builds an AST; the frequent simple operations go through a
//     hand-written fast path that builds the same AST (fastpath.go), and the
//     operations of a large block are cut at operation boundaries and parsed
//     in parallel (oplist.go);
//  2. build: AST operations become IR operations with types, attributes,
//     regions and block arguments, again in parallel for large blocks
//     (build.go, attrs.go); operands are left unbound;
//  3. resolve: one sequential walk in text order binds SSA names, with
//     mlir-opt's scoping and diagnostics (resolve.go).
//
// Every error is a *diag.Diagnostic located at the offending token; no input
// makes the parser panic.
package parse

import (
	"fmt"

	"github.com/alecthomas/participle/v2/lexer"
	"math"
	"runtime"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// Options configures a parse.
type Options struct {
	// LineOffset is added to every line number (for chunks of a split file, so
	// that locations point into the original file).
	LineOffset int
	// Workers is the number of goroutines that parse and build a large block;
	// 0 means runtime.GOMAXPROCS(0), 1 parses sequentially.
	Workers int
	// AllowUnregistered accepts operations of unregistered names in the
	// generic form, kept as opaque operations that print back unchanged
	// (mlir-opt's --allow-unregistered-dialect); the module is marked so
	// that the verifier accepts them too.
	AllowUnregistered bool
	// MinChunkTokens is the fewest tokens a parallel chunk holds (0: 20000).
	MinChunkTokens int
	// MinChunkBytes is the size from which a region body is streamed, and
	// the least size of its chunks (0: 64 KiB; see stream.go).
	MinChunkBytes int

	// noFastPath parses every operation with the participle grammar alone
	// (tests check that the fast path agrees with it).
	noFastPath bool
	// noStream never streams bodies (tests check that streaming agrees).
	noStream bool
}

// catchPanics makes Parse turn a panic into an error.
var catchPanics = true

// guard runs fn in a goroutine of the parse, turning a panic into an error
// (a goroutine's panic is beyond Parse's recover).
func guard(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if !catchPanics {
				panic(r)
			}
			err = fmt.Errorf("internal parser error: %v", r)
		}
	}()
	return fn()
}

// maxInput is the largest input: offsets in the AST are int32s (a variable
// so that a test can lower it).
var maxInput = math.MaxInt32

const (
	defaultMinChunk      = 20000
	defaultMinChunkBytes = 64 << 10
	opsPerToken          = 10 // rough tokens per operation, for the build phase
)

// Parse reads a whole OTIR file. filename is used in locations. On failure the
// error is a *diag.Diagnostic located at the offending token.
func Parse(filename string, src []byte, opts Options) (*ir.Module, error) {
	return ParseString(filename, string(src), opts)
}

// ParseString is Parse of a string, which it does not copy: names and
// attributes of the IR may keep pieces of it.
func ParseString(filename, text string, opts Options) (m *ir.Module, err error) {
	text = diag.NormalizeNewlines(text)
	defer func() {
		// A panic here is a parser bug; report it as a located error rather
		// than crash the tool (the fuzz targets turn this off to find them).
		if !catchPanics {
			return
		}
		if r := recover(); r != nil {
			m = nil
			err = diag.Errorf(ir.Location{File: filename, Line: 1 + opts.LineOffset, Col: 1}, "internal parser error: %v", r)
		}
	}()
	if len(text) > maxInput {
		return nil, diag.Errorf(ir.Location{File: filename, Line: 1 + opts.LineOffset, Col: 1}, "input of %d bytes is larger than the parser's limit of %d bytes", len(text), maxInput)
	}
	var sk *skeleton
	if layoutOK && !opts.noStream {
		minBytes := opts.MinChunkBytes
		if minBytes <= 0 {
			minBytes = defaultMinChunkBytes
		}
		sk = skeletonOf(text, 1+opts.LineOffset, minBytes)
	}
	if sk != nil {
		var streamed *ir.Module
		if err := guard(func() (err error) {
			streamed, err = parseText(filename, text, opts, sk)
			return err
		}); err == nil {
			return streamed, nil
		}
		// Errors are those of a parse without streaming (stream.go).
	}
	return parseText(filename, text, opts, nil)
}

// parseText parses src, streaming the large bodies of sk (if not nil).
func parseText(filename, src string, opts Options, sk *skeleton) (*ir.Module, error) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	minChunk := opts.MinChunkTokens
	if minChunk <= 0 {
		minChunk = defaultMinChunk
	}
	st := &parseState{workers: workers, minChunk: minChunk, slow: opts.noFastPath, unregistered: opts.AllowUnregistered}
	peek, err := newPeekingLexer(src, opts.LineOffset, workers, sk)
	if err != nil {
		return nil, toDiag(err, filename)
	}
	defer register(peek, st)()
	file, err := parseFile(peek, st)
	if err != nil {
		return nil, toDiag(err, filename)
	}
	minOps := minChunk / opsPerToken
	if minOps < 1 {
		minOps = 1
	}
	b := &builder{filename: filename, style: "hls", workers: workers, minOps: minOps, al: &allocator{}}
	if sk != nil {
		b.stream = &stream{src: src, sk: sk, st: st}
	}
	top := ir.Location{File: filename, Line: 1 + opts.LineOffset, Col: 1}
	mod, root, err := b.file(file, top)
	if err != nil {
		return nil, toDiag(err, filename)
	}
	r := &resolver{src: src}
	if err := r.op(root); err != nil {
		return nil, toDiag(err, filename)
	}
	if err := r.finish(); err != nil {
		return nil, toDiag(err, filename)
	}
	mod.AllowUnregistered = opts.AllowUnregistered
	return mod, nil
}

// parseFile parses the file's top-level items. Operations go through the
// paths a block's operations take (parseOps), so that a file of many small
// kernels does not pay for the grammar's reflection on each; a file that is
// one pretty module, or whose top level fails, is parsed by the grammar from
// the start, which gives the same AST, and the canonical errors.
func parseFile(lex *lexer.PeekingLexer, st *parseState) (*File, error) {
	if !st.slow {
		if f := topLevel(lex, st); f != nil {
			return f, nil
		}
		seek(lex, 0)
	}
	return fileParser().ParseFromLexer(lex)
}

// topLevel parses a file whose items are all operations, as the grammar's
// File production would; it returns nil, with the lexer anywhere, at a
// `module` or at any error.
func topLevel(lex *lexer.PeekingLexer, st *parseState) *File {
	al := st.alloc()
	defer st.release(al)
	f := &File{}
	opP := opParser()
	for {
		t := lex.Peek()
		if t.EOF() {
			return f
		}
		if t.Value == "module" {
			return nil
		}
		o, ok, err := prettyOperation(lex, al)
		if !ok {
			if o = fastGeneric(lex, al); o == nil {
				o, err = opP.ParseFromLexer(lex, allowTrailing...)
			}
		}
		if err != nil {
			return nil
		}
		f.Items = append(f.Items, &TopLevel{Op: o})
	}
}

// file builds the module: the file's single top-level module, or an implicit
// module holding every top-level operation. It returns the module and its
// operation's AST node for the resolver.
func (b *builder) file(f *File, top ir.Location) (*ir.Module, *Operation, error) {
	if len(f.Items) == 1 {
		it := f.Items[0]
		if it.Module != nil {
			o := &Operation{}
			if err := b.prettyModule(o, it.Module); err != nil {
				return nil, nil, err
			}
			return &ir.Module{Op: o.op}, o, nil
		}
		if g, ok := it.Op.Body.(*GenericOp); ok && g.Name.Name == ir.OpModule {
			if err := b.op(it.Op); err != nil {
				return nil, nil, err
			}
			// A module without a body cannot be the file's module (ir.Module
			// needs its block); it is then an operation of an implicit one.
			if op := it.Op.op; len(op.Regions) == 1 && len(op.Regions[0].Blocks) == 1 {
				return &ir.Module{Op: op}, it.Op, nil
			}
		}
	}
	// An implicit module: a region whose operations are the file's.
	m := ir.NewModule(top)
	root := &Operation{op: m.Op}
	reg := &Region{block: m.Body()}
	root.regions = []*Region{reg}
	ops := make([]*Operation, 0, len(f.Items))
	for _, it := range f.Items {
		if it.Module != nil {
			o := &Operation{}
			if err := b.prettyModule(o, it.Module); err != nil {
				return nil, nil, err
			}
			ops = append(ops, o)
			continue
		}
		ops = append(ops, it.Op)
	}
	reg.Body = &OpList{Ops: ops}
	blk := m.Body()
	for _, o := range ops {
		if o.op == nil {
			if err := b.op(o); err != nil {
				return nil, nil, err
			}
		}
		blk.Append(o.op)
	}
	return m, root, nil
}

// Grammar describes the parser's grammar in participle's EBNF, for debugging
// and for docs/parser.md.
func Grammar() string {
	return fmt.Sprint(fileParser().String())
}
