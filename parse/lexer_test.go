package parse

import (
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// TestTokens checks the lexer's coarse tokens and their positions.
func TestTokens(t *testing.T) {
	src := "%0:2 = otir.add %a#1, %b : !otir.tile<4x8xi8, #private> // c\n  ^bb0 @k @\"q s\" #x -3 0x1F 1.5e-3 \"s\\\"\" -> otir.kernel foo.bar i8 [ ]"
	want := []struct {
		typ       lexer.TokenType
		val       string
		line, col int
	}{
		{tokResultGroup, "%0:2", 1, 1}, {tokPunct, "=", 1, 6}, {tokOpOther, "otir.add", 1, 8},
		{tokValue, "%a#1", 1, 17}, {tokPunct, ",", 1, 21}, {tokValue, "%b", 1, 23}, {tokPunct, ":", 1, 26},
		{tokBangType, "!otir.tile<4x8xi8, #private>", 1, 28},
		{tokCaret, "^bb0", 2, 3}, {tokSymbol, "@k", 2, 8}, {tokSymbol, "@\"q s\"", 2, 11}, {tokHash, "#x", 2, 18},
		{tokInt, "-3", 2, 21}, {tokInt, "0x1F", 2, 24}, {tokFloat, "1.5e-3", 2, 29}, {tokString, "\"s\\\"\"", 2, 36},
		{tokArrow, "->", 2, 42}, {tokOpOther, "otir.kernel", 2, 45}, {tokIdent, "foo.bar", 2, 57}, {tokIdent, "i8", 2, 65},
		{tokPunct, "[", 2, 68}, {tokPunct, "]", 2, 70}, {lexer.EOF, "", 2, 71},
	}
	toks, err := tokenize(src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(toks) != len(want) {
		t.Fatalf("got %d tokens: %v", len(toks), toks)
	}
	for i, w := range want {
		g := toks[i]
		if g.Type != w.typ || g.Value != w.val || g.Pos.Line != w.line || g.Pos.Column != w.col {
			t.Errorf("token %d: got %d %q %d:%d, want %d %q %d:%d", i, g.Type, g.Value, g.Pos.Line, g.Pos.Column, w.typ, w.val, w.line, w.col)
		}
	}
}

// TestParallelScan checks that scanning in pieces gives the tokens and the
// errors of a sequential scan.
func TestParallelScan(t *testing.T) {
	old := minScanPiece
	minScanPiece = 64
	defer func() { minScanPiece = old }()
	chain := string(GenerateChain(400))
	lines := strings.SplitAfter(chain, "\n")
	deep := strings.Join(lines[:300], "") + "  " + strings.Repeat("[", 5000) + "\n" + strings.Join(lines[300:], "")
	bad := strings.Join(lines[:200], "") + "  ;\n" + strings.Join(lines[200:], "")
	both := strings.Join(lines[:100], "") + "  ;\n" + deep
	for _, src := range []string{chain, deep, bad, both, "", "\n\n", "%a"} {
		want, werr := scanTokens(src, 7, 1)
		for _, k := range []int{2, 3, 8} {
			got, gerr := scanTokens(src, 7, k)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("workers %d: error %v, want %v", k, gerr, werr)
			}
			if werr != nil {
				continue
			}
			if len(got) != len(want) {
				t.Fatalf("workers %d: %d tokens, want %d", k, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("workers %d: token %d is %#v, want %#v", k, i, got[i], want[i])
				}
			}
		}
	}
}

// TestGrammarText checks that the participle grammar prints as EBNF (the
// source of docs/parser.md's grammar).
func TestGrammarText(t *testing.T) {
	g := Grammar()
	for _, want := range []string{"File = TopLevel* .", "Operation = ", "OpBody = GenericOp | PrettyOp | UnknownOp"} {
		if !strings.Contains(g, want) {
			t.Errorf("grammar lacks %q:\n%s", want, g)
		}
	}
}

// TestSignatureTokens: a signature after ':' is one token whatever its result
// type: a dialect type, a builtin tensor type, a bare type or a list.
func TestSignatureTokens(t *testing.T) {
	for _, sig := range []string{
		"(tensor<784xf64>) -> tensor<128xf64>", "(tensor<f64>, tensor<2x3xf64>) -> tensor<f64>",
		"(!otir.tile<4xi8, #private>) -> !otir.tile<4xi8, #private>", "(i8) -> i8", "() -> (tensor<2xf64>, i8)",
	} {
		toks, err := tokenize("%0 = nn.relu %x : "+sig+"\n", 0)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(toks); n < 2 || toks[n-2].Type != tokSig || toks[n-2].Value != sig {
			t.Errorf("%s: tokens %v, want the signature as one token", sig, toks)
		}
	}
}
