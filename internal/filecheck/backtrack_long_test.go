package filecheck

import (
	"strings"
	"testing"
)

// A back-reference over a line of megabytes neither overflows the stack nor
// gives up: a repetition of one byte class is matched without recursion.
func TestBackrefLongLine(t *testing.T) {
	x := strings.Repeat("x", 2_000_000)
	re, err := compileERE(`(x*ab)\1`, false)
	if err != nil {
		t.Fatal(err)
	}
	m := re.match(x + "ab" + x + "ab")
	if m == nil || m[0] != 0 || m[1] != 2*len(x)+4 {
		t.Fatalf("match %v", m)
	}
	// Deep recursion (a group repeated) stops at the depth bound instead.
	re, err = compileERE(`((x)*ab)\1`, false)
	if err != nil {
		t.Fatal(err)
	}
	_ = re.match(x + "ab" + x + "ab")
}
