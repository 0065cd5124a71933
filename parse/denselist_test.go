package parse

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
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
// errors, with and without comments, and nested deeper than 64.
func TestDenseListAgreesWithGrammar(t *testing.T) {
	deep := func(d int, inner string) string {
		return strings.Repeat("[", d) + inner + strings.Repeat("]", d)
	}
	type lit struct{ text, typ string }
	t2 := "!otir.tile<2x2xi8, #private>"
	lits := []lit{}
	for _, l := range []string{
		"[[1, -2], [0x7F, 3]]", "[[1, 2],\n [3, 4]]", "[[1, 2], [3]]", "[[1], 3]", "[1 2]", "[1, ]",
		"[[1, 2], [3, 300]]", "[[1.5, 2], [3, 4]]", "[[true, 1], [3, 4]]", "[]", "[[], []]", "[[[1, 2]], [[3, 4]]]",
		"[[1, 2], [3, 4]", "[[1, 2], [3, 4]]]", "[[1, 2], [3, [4]]]", "[[1, 2], [[3], 4]]",
		// Comments anywhere a blank may be.
		"[ // a\n[1, 2], // b ]]\n [3, 4]// c\n]", "[[1// x\n, 2], [3, 4]]", "[[1, 2], [3, //\n]]",
		"[[1, 2], // [5, 6]\n [3, 300]]", "[[1, 2], [3 // four\n 4]]", "[[1, 2],\n// only a comment\n[true, false]]",
	} {
		lits = append(lits, lit{l, t2})
	}
	// Deeper than 64 (the list token's old limit), at and past 4096.
	shape := func(d int, last string) string {
		return "!otir.tile<" + strings.Repeat("1x", d-1) + last + "xi8, #private>"
	}
	lits = append(lits,
		lit{deep(100, "1, 2"), shape(100, "2")},
		lit{deep(100, "1, // c\n 2"), shape(100, "2")},
		lit{"[" + deep(99, "1") + ", " + deep(99, "2") + "]", "!otir.tile<2x" + strings.Repeat("1x", 98) + "1xi8, #private>"},
		lit{"[" + deep(99, "1") + ", " + deep(98, "2") + "]", "!otir.tile<2x" + strings.Repeat("1x", 98) + "1xi8, #private>"},
		lit{"[" + deep(99, "1") + ", " + deep(99, "1, 2") + "]", "!otir.tile<2x" + strings.Repeat("1x", 98) + "1xi8, #private>"},
		lit{deep(100, "1, 2"), shape(99, "2")},
		lit{deep(4000, "7"), shape(4000, "1")},
		lit{deep(5000, "7"), shape(5000, "1")},
	)
	src := func(l lit) string {
		return "otir.kernel @k() {\n  %c = otir.constant dense<" + l.text + "> : " + l.typ + "\n  otir.return\n}\n"
	}
	msg := func(err error) string {
		if err == nil {
			return "ok"
		}
		s := err.Error()
		return s[strings.Index(s, "error:"):]
	}
	defer func() { denseListToken = true }()
	for _, l := range lits {
		denseListToken = true
		_, err1 := ParseString("d.otir", src(l), Options{})
		denseListToken = false
		_, err2 := ParseString("d.otir", src(l), Options{})
		if msg(err1) != msg(err2) {
			t.Errorf("%.80q: list token gives %q, tokens give %q", l.text, msg(err1), msg(err2))
		}
	}
}

// denseListSource is a constant of n i8 elements with a comment between
// each two, in rows of 10 (nested 3 deep: [[[...], ...]]), or nested depth
// deep around rows of 2 when depth > 0.
func denseListSource(n, depth int) string {
	var sb strings.Builder
	sb.WriteString("otir.kernel @k() {\n  %c = otir.constant dense<")
	if depth > 0 {
		sb.WriteString("[")
		for i := 0; i < n/2; i++ {
			if i > 0 {
				sb.WriteString(", // pair\n")
			}
			sb.WriteString(strings.Repeat("[", depth) + "1, -2" + strings.Repeat("]", depth))
		}
		sb.WriteString("]> : !otir.tile<" + strconv.Itoa(n/2) + "x" + strings.Repeat("1x", depth-1) + "2xi8, #private>\n  otir.return\n}\n")
		return sb.String()
	}
	sb.WriteString("[[")
	for i := 0; i < n; i++ {
		switch {
		case i == 0:
			sb.WriteString("[")
		case i%10 == 0:
			sb.WriteString("], // row " + strconv.Itoa(i/10) + "\n [")
		default:
			sb.WriteString(", /* no */ // element\n"[:2] + "// e\n")
		}
		sb.WriteString(strconv.Itoa(i%200 - 100))
	}
	sb.WriteString("]]]> : !otir.tile<1x" + strconv.Itoa(n/10) + "x10xi8, #private>\n  otir.return\n}\n")
	return sb.String()
}

// parseAllocs parses src and returns the bytes it allocated.
func parseAllocs(t *testing.T, src string) uint64 {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := ParseString("d.otir", src, Options{}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Dense lists with comments, and nested deeper than 64, are one token
// parsed in linear time: the bytes allocated grow in proportion to the
// elements (the token-by-token grammar allocates some 3 KB per element, and
// the old quadratic shapes grew with the depth), and stay small per element.
// Not timed: allocation counts do not depend on the machine.
func TestDenseListLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("parses 1M elements")
	}
	for _, c := range []struct {
		name  string
		depth int
	}{{"comments", 0}, {"nested 200 deep", 200}} {
		t.Run(c.name, func(t *testing.T) {
			small, large := 100_000, 1_000_000
			if c.depth > 0 {
				small, large = 20_000, 200_000 // 200 brackets per element pair
			}
			srcS, srcL := denseListSource(small, c.depth), denseListSource(large, c.depth)
			// One token: the list is not scanned token by token.
			sc := newScanner(srcL, 0)
			for {
				tok, err := sc.Next()
				if err != nil {
					t.Fatal(err)
				}
				if tok.Type == tokDenseList || tok.EOF() {
					if tok.Type != tokDenseList {
						t.Fatal("the list is not one token")
					}
					break
				}
			}
			a, b := parseAllocs(t, srcS), parseAllocs(t, srcL)
			ratio := float64(b) / float64(a)
			perElem := float64(b) / float64(large)
			perByte := float64(b) / float64(len(srcL))
			t.Logf("%d elements: %d bytes; %d: %d bytes (x%.2f, %.0f B/element, %.2f B/source byte)", small, a, large, b, ratio, perElem, perByte)
			if ratio > 12 {
				t.Errorf("10 times the elements allocate %.1f times the bytes: not linear", ratio)
			}
			if perElem > 200 {
				t.Errorf("%.0f bytes per element: the list is not parsed as one token", perElem)
			}
		})
	}
}

// A multi-line dense list that crosses a cut of the parallel scan is still
// one token (the source is then scanned whole).
func TestDenseListAcrossScanPieces(t *testing.T) {
	defer func(n int) { minScanPiece = n }(minScanPiece)
	minScanPiece = 64
	src := denseListSource(1000, 0) // about 10 KB, a comment and a newline per element
	toks, err := scanTokens(src, 0, 8)
	if err != nil {
		t.Fatal(err)
	}
	lists := 0
	for _, tok := range toks {
		if tok.Type == tokDenseList {
			lists++
		}
	}
	if lists != 1 {
		t.Fatalf("%d list tokens, want 1", lists)
	}
}
