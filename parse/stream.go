package parse

import (
	"errors"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/ir"
)

// Streaming large bodies. A body the skeleton found large reaches the
// builder as one opaque token (its text). The builder cuts it at the
// skeleton's cut points into chunks, and goroutines take the chunks in turn:
// each scans its chunk into a token buffer it reuses for the next, parses the
// chunk's operations and builds them at once. Only the IR and the little the
// resolver needs of each operation's AST stay; tokens, 60% of a parse's
// memory, never exist for the whole file at once.
//
// A chunk is scanned with one line of lookahead (or the body's closing '}'),
// so that its last operation sees what a parse of the whole body would see,
// and it must end exactly at its cut. If a chunk fails (the cut was inside an
// operation, or the text is wrong) the body is parsed as one chunk; if that
// fails too, Parse starts again without streaming, so that errors are exactly
// those of a parse of the whole file.

// errStreamFailed aborts a streamed parse; Parse then parses without.
var errStreamFailed = errors.New("streamed parse failed")

// stream is what the builder needs to parse opaque bodies.
type stream struct {
	src string
	sk  *skeleton
	st  *parseState
}

// chunk is a piece of a body: [from.off, to), scanned up to lookTo, whose
// body starts at bracket nesting brackets.
type chunk struct {
	from     cutPoint
	to       int
	lookTo   int
	brackets int
}

// chunkResult is what a chunk parsed into.
type chunkResult struct {
	ast []*Operation
	err error
}

// opaqueOps parses and builds the operations of an opaque body into blk.
func (b *builder) opaqueOps(body *OpList, blk *ir.Block) error {
	sp := b.stream.sk.spanAt(body.opaquePos.Offset)
	if sp == nil {
		return errStreamFailed
	}
	chunks := b.stream.chunks(sp, b.stream.sk.cutsOf(sp))
	results := make([]chunkResult, len(chunks))
	workers := b.workers
	if workers > len(chunks) {
		workers = len(chunks)
	}
	var next atomic.Int64
	work := func(nb *builder) {
		var buf []lexer.Token
		for {
			k := int(next.Add(1) - 1)
			if k >= len(chunks) {
				return
			}
			r := &results[k]
			if r.err = guard(func() (err error) {
				r.ast, err = nb.chunk(chunks[k], &buf)
				return err
			}); r.err != nil {
				next.Store(int64(len(chunks))) // stop early: the body is parsed again
				return
			}
		}
	}
	// Each goroutine has its own allocator, whose AST bodies its chunks reset
	// (the caller may still be building operations from b's).
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(b.fork())
		}()
	}
	wg.Wait()
	total := 0
	for _, r := range results {
		if r.err != nil {
			total = -1
			break
		}
		total += len(r.ast)
	}
	if total < 0 {
		// A cut inside an operation, or an error: the body in one piece.
		whole := chunk{from: cutPoint{off: sp.start, line: sp.line, lineStart: sp.lineStart}, to: sp.end, lookTo: sp.end + 1, brackets: sp.brackets}
		var buf []lexer.Token
		ast, err := b.fork().chunk(whole, &buf)
		if err != nil {
			return errStreamFailed
		}
		results = []chunkResult{{ast: ast}}
		total = len(ast)
	}
	body.Ops = make([]*Operation, 0, total)
	blk.Ops = make([]*ir.Operation, 0, total)
	for _, r := range results {
		for _, o := range r.ast {
			o.op.Block = blk
			body.Ops = append(body.Ops, o)
			blk.Ops = append(blk.Ops, o.op)
		}
	}
	return nil
}

// chunks cuts a body at cuts.
func (s *stream) chunks(sp *bodySpan, cuts []cutPoint) []chunk {
	out := make([]chunk, 0, len(cuts)+1)
	from := cutPoint{off: sp.start, line: sp.line, lineStart: sp.lineStart}
	for k, c := range cuts {
		// The lookahead is the rest of the cut's line; on a long line (a cut
		// inside it), up to the next operation's results, or the next cut.
		look := sp.end
		if k+1 < len(cuts) {
			look = cuts[k+1].off
		}
		if nl := strings.IndexByte(s.src[c.off:look], '\n'); nl >= 0 {
			look = c.off + nl
		} else if j := midLineOp(s.src, c.off+1, c.off+1+specialFree(s.src[c.off+1:min(look, c.off+1+4096)])); j >= 0 {
			look = j
		}
		out = append(out, chunk{from: from, to: c.off, lookTo: look, brackets: sp.brackets})
		from = c
	}
	return append(out, chunk{from: from, to: sp.end, lookTo: sp.end + 1, brackets: sp.brackets})
}

// specialFree is the length of text's prefix without the bytes the skeleton
// follows (braces, strings, comments), where midLineOp may look.
func specialFree(text string) int {
	if j := strings.IndexAny(text, specials); j >= 0 {
		return j
	}
	return len(text)
}

// chunk scans, parses and builds the operations of one chunk, with buf as
// its token buffer.
func (b *builder) chunk(c chunk, buf *[]lexer.Token) ([]*Operation, error) {
	src := b.stream.src
	spans := b.stream.sk.spans
	// The body's own span starts where its first chunk does.
	first := sort.Search(len(spans), func(i int) bool { return spans[i].start > c.from.off })
	s := &scanner{src: src[:c.to], pos: c.from.off, line: c.from.line, lineStart: c.from.lineStart,
		piece: true, toks: (*buf)[:0], spans: spans[first:], base: c.brackets}
	if err := s.scanPiece(); err != nil {
		return nil, err
	}
	stop := lexer.RawCursor(len(s.toks))
	s.src = src[:c.lookTo]
	if err := s.scanPiece(); err != nil {
		return nil, err
	}
	s.toks = append(s.toks, lexer.Token{Type: lexer.EOF, Pos: s.here()})
	*buf = s.toks
	if s.base+s.peak > maxNesting {
		return nil, errStreamFailed // the whole-file parse reports it
	}
	lex := fromTokens(s.toks)
	defer register(lex, b.stream.st)()
	ops, err := parseOps(lex, b.stream.st, stop, b.al)
	if err != nil {
		return nil, err
	}
	if lex.RawCursor() != stop {
		return nil, errStreamFailed
	}
	for _, o := range ops {
		if err := b.op(o); err != nil {
			return nil, err
		}
		o.Body, o.Tokens = nil, nil // gone with the chunk's arenas and tokens
	}
	b.al.bodies.reset()
	return ops, nil
}
