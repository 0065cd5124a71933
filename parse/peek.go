package parse

import (
	"strings"
	"sync"
	"unsafe"

	"github.com/alecthomas/participle/v2/lexer"
)

// participle builds a PeekingLexer only through lexer.Upgrade, which appends
// the tokens one by one: for a million tokens of 64 bytes that growth (by a
// quarter at a time) copies and clears several hundred megabytes, half the
// cost of a parse. So the parser reaches into the PeekingLexer through a
// struct of the same layout: fromTokens hands participle an already scanned
// token array, tokensOf reads it back, and seek moves a lexer in O(1) (the
// parallel block parse needs both to cut a block into chunks). The layout is
// checked once against lexers made by Upgrade; if it ever differs (another
// participle version), tokens go through Upgrade and blocks are parsed
// sequentially.

// peekingLayout mirrors lexer.PeekingLexer of participle v2.1.4.
type peekingLayout struct {
	rawCursor  lexer.RawCursor // next raw token, elided or not
	nextCursor lexer.RawCursor // next non-elided token
	cursor     int             // count of non-elided tokens consumed
	tokens     []lexer.Token
	elide      map[lexer.TokenType]bool
}

var layoutOK = checkLayout()

func view(pl *lexer.PeekingLexer) *peekingLayout { return (*peekingLayout)(unsafe.Pointer(pl)) }

// checkLayout verifies that peekingLayout matches lexer.PeekingLexer.
func checkLayout() bool {
	if unsafe.Sizeof(peekingLayout{}) != unsafe.Sizeof(lexer.PeekingLexer{}) {
		return false
	}
	toks := []lexer.Token{{Type: tokIdent, Value: "a"}, {Type: tokIdent, Value: "b"}, {Type: tokIdent, Value: "c"}, {Type: lexer.EOF}}
	pl, err := lexer.Upgrade(&tokenList{toks: toks})
	if err != nil {
		return false
	}
	v := view(pl)
	if len(v.tokens) != 4 || v.tokens[1].Value != "b" || &v.tokens[0] != &pl.Range(0, 1)[0] || v.elide == nil {
		return false
	}
	pl.Next()
	if v.rawCursor != 1 || v.nextCursor != 1 || v.cursor != 1 || pl.RawCursor() != 1 || pl.Cursor() != 1 {
		return false
	}
	// A lexer built by hand, and one moved by seek, behave like Upgrade's.
	mine := fromTokens(toks)
	if mine.Peek().Value != "a" || mine.Next().Value != "a" || mine.Peek().Value != "b" || mine.Cursor() != 1 || mine.RawCursor() != 1 {
		return false
	}
	seek(mine, 2)
	return mine.Peek().Value == "c" && mine.Cursor() == 2 && mine.RawCursor() == 2 && len(tokensOf(mine)) == 4
}

// fromTokens makes a PeekingLexer over toks (which must end with EOF)
// without copying them.
func fromTokens(toks []lexer.Token) *lexer.PeekingLexer {
	pl := &lexer.PeekingLexer{}
	v := view(pl)
	v.tokens = toks
	v.elide = map[lexer.TokenType]bool{}
	return pl
}

// tokensOf is the lexer's whole token array.
func tokensOf(pl *lexer.PeekingLexer) []lexer.Token { return view(pl).tokens }

// seek moves the lexer to the raw token at, which lexers of this package
// (which elide nothing) reach after consuming at tokens.
func seek(pl *lexer.PeekingLexer, at lexer.RawCursor) {
	v := view(pl)
	v.rawCursor, v.nextCursor, v.cursor = at, at, int(at)
}

// newPeekingLexer scans src (with up to workers goroutines) and returns a
// PeekingLexer over its tokens. The large bodies of sk (if not nil) become
// opaque tokens, and the rest, small, is scanned in one goroutine.
func newPeekingLexer(src string, lineOffset, workers int, sk *skeleton) (*lexer.PeekingLexer, error) {
	if sk != nil {
		s := newScanner(src, lineOffset)
		s.spans = sk.spans
		if err := s.scanAll(); err != nil {
			return nil, err
		}
		return fromTokens(s.toks), nil
	}
	if !layoutOK {
		s := newScanner(src, lineOffset)
		if err := s.scanAll(); err != nil {
			return nil, err
		}
		return lexer.Upgrade(&tokenList{toks: s.toks})
	}
	toks, err := scanTokens(src, lineOffset, workers)
	if err != nil {
		return nil, err
	}
	return fromTokens(toks), nil
}

// tokenDensity estimates tokens per byte of src from its first 64 KiB, so
// that the token array is allocated once with little to spare (a large
// array that must grow is copied whole, and unused capacity is still
// scanned by the garbage collector).
func tokenDensity(src string) float64 {
	sample := len(src)
	if sample > 64<<10 {
		sample = 64 << 10
		// End the sample at a line end near by; a source of one long line is
		// sampled as cut (its last token may split: only an estimate).
		if nl := strings.IndexByte(src[sample:], '\n'); nl >= 0 && nl < 4<<10 {
			sample += nl + 1
		}
	}
	if sample == 0 {
		return 0
	}
	s := &scanner{src: src[:sample], line: 1, piece: true}
	_ = s.scanPiece() // an error only makes the estimate rougher
	return float64(len(s.toks)+1) / float64(sample)
}

// capacityFor is the token capacity for n bytes: the estimate plus a quarter.
func capacityFor(n int, perByte float64) int {
	return int(float64(n)*perByte*1.25) + 64
}

// minScanPiece is the least source, in bytes, worth a scanning goroutine.
var minScanPiece = 1 << 20

// scanTokens scans src into one token array. A large source is cut after
// newlines (no token spans lines) into pieces scanned in parallel, each
// starting at its own line number. Errors are those of a sequential scan:
// the first lexical error, unless brackets nest too deep before it.
func scanTokens(src string, lineOffset, workers int) ([]lexer.Token, error) {
	k := workers
	if n := len(src) / minScanPiece; n < k {
		k = n
	}
	perByte := tokenDensity(src)
	if k <= 1 {
		s := newScanner(src, lineOffset)
		s.toks = make([]lexer.Token, 0, capacityFor(len(src), perByte))
		return s.toks, s.scanAll()
	}
	// Cut after the first newline past each k-th of the source.
	cuts := []int{0}
	for i := 1; i < k; i++ {
		c := i * len(src) / k
		if c < cuts[len(cuts)-1] {
			continue
		}
		nl := strings.IndexByte(src[c:], '\n')
		if nl < 0 {
			break
		}
		cuts = append(cuts, c+nl+1)
	}
	cuts = append(cuts, len(src))
	n := len(cuts) - 1
	// Each piece starts at the line after the newlines before it.
	lines := make([]int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			lines[i] = strings.Count(src[cuts[i]:cuts[i+1]], "\n")
		}(i)
	}
	wg.Wait()
	// The pieces scan into consecutive windows of one array, each sized by
	// an estimate; afterwards they are moved down to close the gaps (a move
	// in memory already touched costs far less than a second array).
	scanners := make([]*scanner, n)
	errs := make([]error, n)
	windows := make([]int, n+1)
	for i := 0; i < n; i++ {
		windows[i+1] = windows[i] + capacityFor(cuts[i+1]-cuts[i], perByte)
	}
	all := make([]lexer.Token, windows[n])
	line := 1 + lineOffset
	for i := 0; i < n; i++ {
		scanners[i] = &scanner{src: src[:cuts[i+1]], pos: cuts[i], line: line, lineStart: cuts[i], piece: true}
		scanners[i].toks = all[windows[i]:windows[i]:windows[i+1]]
		line += lines[i]
	}
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i == n-1 {
				errs[i] = guard(scanners[i].scanAll)
			} else {
				errs[i] = guard(scanners[i].scanPiece)
			}
		}(i)
	}
	wg.Wait()
	for i := 0; i < n-1; i++ {
		if scanners[i].cutList {
			// A dense list crosses a cut: its pieces would scan it token
			// by token. Scan the source whole, so that it is one token (a
			// second linear scan, only for such sources).
			s := newScanner(src, lineOffset)
			s.toks = all[:0]
			return s.toks, s.scanAll()
		}
	}
	last := n - 1
	for i, err := range errs {
		if err != nil {
			last = i
			break
		}
	}
	// The first bracket nested too deep, if any, comes before the error.
	depth := 0
	for i := 0; i <= last; i++ {
		for _, p := range scanners[i].peaks {
			if depth+p.depth > maxNesting {
				return nil, &syntaxError{pos: scanners[i].toks[p.idx].Pos, msg: nestingError}
			}
		}
		depth += scanners[i].depth
	}
	// Close the gaps. A piece that outgrew its window was moved by append
	// to an array of its own; it is copied back in the same way.
	total, inPlace := 0, true
	for i := 0; i <= last; i++ {
		total += len(scanners[i].toks)
		if len(scanners[i].toks) > windows[i+1]-windows[i] {
			inPlace = false
		}
	}
	toks := all
	if !inPlace {
		toks = make([]lexer.Token, total)
	}
	off := 0
	for i := 0; i <= last; i++ {
		off += copy(toks[off:], scanners[i].toks)
	}
	toks = toks[:total]
	return toks, errs[last]
}

// tokenList is a lexer.Lexer over scanned tokens.
type tokenList struct {
	toks []lexer.Token
	i    int
}

func (l *tokenList) Next() (lexer.Token, error) {
	t := l.toks[l.i]
	if l.i < len(l.toks)-1 {
		l.i++
	}
	return t, nil
}
