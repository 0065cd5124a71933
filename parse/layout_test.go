package parse

import "testing"

func TestPeekingLayout(t *testing.T) {
	if !layoutOK {
		t.Fatal("participle's PeekingLexer layout changed: newPeekingLexer falls back to lexer.Upgrade")
	}
}
