package parse

import (
	"sync"

	"github.com/otir-dev/otir/ir"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// OpList is the operations of a block: Operation* up to the block's closing
// '}'. It implements participle.Parseable: each operation in its pretty form
// is parsed by its assembly format (pretty.go), a simple generic one by the
// fast path (fastgeneric.go), anything else by the grammar's Operation
// production; and
// a large block is cut at operation boundaries into chunks parsed in
// parallel. A block whose chunks fail is parsed again in one go, which gives
// the canonical error.
type OpList struct {
	Ops []*Operation

	// A large body arrives as one tokOpaque token, at opaquePos; the
	// builder parses it (stream.go).
	opaque    bool
	opaquePos lexer.Position
}

// parseState is what OpList.Parse needs to know about the parse it is part
// of. participle hands Parseable only the lexer, so states are found by the
// address of the lexer's token array (shared by copies of the lexer).
type parseState struct {
	workers  int  // chunks per large block; <= 1 parses sequentially
	minChunk int  // fewest tokens per chunk worth a goroutine
	slow     bool // disable the fast path (to test that it agrees)
	// unregistered accepts generic operations of unknown names as opaque
	// operations (--allow-unregistered-dialect).
	unregistered bool

	// free holds allocators for the operations the grammar reaches (top-level
	// ones, the blocks of generic regions), taken and given back by one
	// goroutine at a time, so that a file of many small kernels does not
	// start fresh slabs and arenas (kilobytes) for each of them.
	mu   sync.Mutex
	free []*allocator
}

// alloc takes an allocator; release gives it back. What it handed out stays
// handed out (nothing is reset), so the AST it allocated stays valid.
func (st *parseState) alloc() *allocator {
	st.mu.Lock()
	defer st.mu.Unlock()
	if n := len(st.free); n > 0 {
		al := st.free[n-1]
		st.free = st.free[:n-1]
		return al
	}
	return &allocator{}
}

func (st *parseState) release(al *allocator) {
	st.mu.Lock()
	st.free = append(st.free, al)
	st.mu.Unlock()
}

var states sync.Map // *lexer.Token (first token of a PeekingLexer) -> *parseState

func stateKey(lex *lexer.PeekingLexer) *lexer.Token { return &lex.Range(0, 1)[0] }

func register(lex *lexer.PeekingLexer, st *parseState) func() {
	k := stateKey(lex)
	states.Store(k, st)
	return func() { states.Delete(k) }
}

func stateOf(lex *lexer.PeekingLexer) *parseState {
	if st, ok := states.Load(stateKey(lex)); ok {
		return st.(*parseState)
	}
	return &parseState{workers: 1}
}

var allowTrailing = []participle.ParseOption{participle.AllowTrailing(true)}

// Parse implements participle.Parseable.
func (l *OpList) Parse(lex *lexer.PeekingLexer) error {
	if t := lex.Peek(); t.Type == tokOpaque {
		l.opaque, l.opaquePos = true, t.Pos
		lex.Next()
		return nil
	}
	st := stateOf(lex)
	al := st.alloc()
	defer st.release(al)
	return l.parse(lex, st, al)
}

// parse parses the block's operations, allocating from al (unless the block
// is cut into parallel chunks, which have their own).
func (l *OpList) parse(lex *lexer.PeekingLexer, st *parseState, al *allocator) error {
	if st.workers > 1 && layoutOK {
		if ops, ok := parseChunks(lex, st); ok {
			l.Ops = ops
			return nil
		}
	}
	ops, err := parseOps(lex, st, -1, al)
	l.Ops = ops
	return err
}

// parseOps parses operations up to a '}' or EOF, or, when stop >= 0, up to
// the raw cursor stop, allocating from al.
func parseOps(lex *lexer.PeekingLexer, st *parseState, stop lexer.RawCursor, al *allocator) ([]*Operation, error) {
	var ops []*Operation
	opP := opParser()
	for {
		t := lex.Peek()
		if t.EOF() || t.Type == tokPunct && t.Value == "}" || stop >= 0 && lex.RawCursor() >= stop {
			return ops, nil
		}
		if o, ok, err := prettyOperation(lex, al); ok {
			if err != nil {
				return ops, err
			}
			ops = append(ops, o)
			continue
		}
		if !st.slow {
			if o := fastGeneric(lex, al); o != nil {
				ops = append(ops, o)
				continue
			}
		}
		o, err := opP.ParseFromLexer(lex, allowTrailing...)
		if err != nil {
			return ops, err
		}
		ops = append(ops, o)
	}
}

// blockSpan walks the tokens of the current block, up to the '}' that
// closes it (or EOF), and returns their raw cursor range [start, end) and
// the indexes (relative to start) where the block may be cut, at most one
// per every minChunk tokens: a token first on its line, outside any bracket,
// that is a result name followed by '=' or an operation name. A chunk reads
// the block's shared tokens, so its last operation sees what follows exactly
// as a sequential parse does; if that operation runs past the cut, or the
// cut is inside an operation, the chunk fails and the block is parsed whole.
// Either way the result is the sequential parse's.
func blockSpan(lex *lexer.PeekingLexer, minChunk int) (start, end lexer.RawCursor, cuts []int) {
	start = lex.RawCursor()
	toks := tokensOf(lex)
	base := int(start)
	depth := 0
	next := base + minChunk
	for i := base; i < len(toks); i++ {
		t := &toks[i]
		switch t.Type {
		case lexer.EOF:
			return start, lexer.RawCursor(i), cuts
		case tokPunct:
			switch t.Value {
			case "{", "(", "[":
				depth++
			case "}", ")", "]":
				if depth == 0 && t.Value == "}" {
					return start, lexer.RawCursor(i), cuts
				}
				depth--
			}
			continue
		}
		if i < next || depth != 0 || t.Pos.Line == toks[i-1].Pos.Line {
			continue
		}
		opStart := false
		switch t.Type {
		case tokValue, tokResultGroup:
			opStart = i+1 < len(toks) && toks[i+1].Type == tokPunct && toks[i+1].Value == "="
		case tokOpOther, tokString:
			opStart = true
		}
		if opStart {
			cuts = append(cuts, i-base)
			next = i + minChunk
		}
	}
	return start, lexer.RawCursor(len(toks) - 1), cuts
}

// pickCuts chooses, among candidate cuts of a block of n tokens, about
// want-1 that split it evenly; the result starts with 0.
func pickCuts(cands []int, n, want int) []int {
	cuts := []int{0}
	j := 0
	for k := 1; k < want; k++ {
		target := k * n / want
		for j < len(cands) && cands[j] < target {
			j++
		}
		if j == len(cands) {
			break
		}
		if cands[j] > cuts[len(cuts)-1] {
			cuts = append(cuts, cands[j])
		}
	}
	return cuts
}

// parseChunks parses a large block as parallel chunks, each with its own copy
// of the lexer over the shared tokens. It reports false when the block is
// small or any chunk fails; the caller then parses the block sequentially.
func parseChunks(lex *lexer.PeekingLexer, st *parseState) ([]*Operation, bool) {
	start, end, cands := blockSpan(lex, st.minChunk)
	n := int(end - start)
	if n < 2*st.minChunk {
		return nil, false
	}
	cuts := pickCuts(cands, n, st.workers)
	if len(cuts) < 2 {
		return nil, false
	}
	results := make([][]*Operation, len(cuts))
	failed := make([]bool, len(cuts))
	var wg sync.WaitGroup
	for c := range cuts {
		lo := start + lexer.RawCursor(cuts[c])
		hi := end
		if c+1 < len(cuts) {
			hi = start + lexer.RawCursor(cuts[c+1])
		}
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			sub := *lex
			seek(&sub, lo)
			err := guard(func() (err error) {
				results[c], err = parseOps(&sub, st, hi, &allocator{})
				return err
			})
			failed[c] = err != nil || sub.RawCursor() != hi
		}(c)
	}
	wg.Wait()
	count := 0
	for c := range results {
		if failed[c] {
			return nil, false
		}
		count += len(results[c])
	}
	ops := make([]*Operation, 0, count)
	for _, r := range results {
		ops = append(ops, r...)
	}
	seek(lex, end)
	return ops, true
}

// UnknownOp is a bare name in operation position that is not a registered
// operation: parsing it fails with `custom op '...' is unknown` at the name
// (as mlir-opt does), before anything later in the file.
type UnknownOp struct {
	Name string
}

func (*UnknownOp) opBody() {}

// Parse implements participle.Parseable.
func (u *UnknownOp) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != tokIdent {
		return participle.NextMatch
	}
	lex.Next()
	return &syntaxError{pos: t.Pos, msg: "custom op '" + t.Value + "' is unknown"}
}

// OpName is the quoted name of an operation in the generic form. It must be
// a registered operation: `unregistered operation 'foo.bar'` otherwise, at
// the name (mlir-opt without --allow-unregistered-dialect), unless the parse
// allows unregistered operations (Options.AllowUnregistered).
type OpName struct {
	Name string
}

// Parse implements participle.Parseable.
func (n *OpName) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != tokString {
		return participle.NextMatch
	}
	lex.Next()
	name, err := decodeString(t.Value, t.Pos)
	if err != nil {
		return err
	}
	if ir.LookupOp(name) == nil && !stateOf(lex).unregistered {
		return &syntaxError{pos: t.Pos, msg: "unregistered operation '" + name + "'"}
	}
	n.Name = name
	return nil
}
