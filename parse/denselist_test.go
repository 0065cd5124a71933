package parse

import (
	"strconv"
	"strings"
	"testing"

	"otir/ir"
)

// A dense literal of a million elements is one token and parses without
// any iteration limit (participle stops repetitions at a million).
func TestDenseListMillion(t *testing.T) {
	const n = 1_100_000
	var sb strings.Builder
	sb.WriteString("otir.kernel @k() {\n  %c = otir.constant dense<[")
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.Itoa(i%200 - 100))
	}
	sb.WriteString("]> : !otir.tile<" + strconv.Itoa(n) + "xi8, #private>\n  otir.return\n}\n")
	m, err := ParseString("d.otir", sb.String(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var d *ir.DenseAttr
	m.Op.Walk(func(op *ir.Operation) bool {
		if a, ok := op.Attr("value").(*ir.DenseAttr); ok {
			d = a
		}
		return true
	})
	if d == nil || len(d.Ints) != n {
		t.Fatalf("no dense attribute of %d elements", n)
	}
	for _, i := range []int{0, 1, 99, 100, 199, n - 1} {
		if got, want := d.Ints[i].Int64(), int64(i%200-100); got != want {
			t.Errorf("element %d = %d, want %d", i, got, want)
		}
	}
}

// The list token and the token-by-token grammar give the same results and
// errors (a comment inside the list makes the lexer fall back).
func TestDenseListAgreesWithGrammar(t *testing.T) {
	for _, lit := range []string{
		"[[1, -2], [0x7F, 3]]", "[[1, 2],\n [3, 4]]", "[[1, 2], [3]]", "[[1], 3]", "[1 2]", "[1, ]",
		"[[1, 2], [3, 300]]", "[[1.5, 2], [3, 4]]", "[[true, 1], [3, 4]]", "[]", "[[], []]", "[[[1, 2]], [[3, 4]]]",
	} {
		src := func(l string) string {
			return "otir.kernel @k() {\n  %c = otir.constant dense<" + l + "> : !otir.tile<2x2xi8, #private>\n  otir.return\n}\n"
		}
		// "[ //\n" cannot be a list token: the comment makes it tokens.
		slow := strings.Replace(lit, "[", "[ //\n", 1)
		_, err1 := ParseString("d.otir", src(lit), Options{})
		_, err2 := ParseString("d.otir", src(slow), Options{})
		msg := func(err error) string {
			if err == nil {
				return "ok"
			}
			s := err.Error()
			return s[strings.Index(s, "error:"):]
		}
		if msg(err1) != msg(err2) {
			t.Errorf("%q: list token gives %q, tokens give %q", lit, msg(err1), msg(err2))
		}
	}
}
