package parse

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes/verify"
)

// benchParse parses a generated chain of n operations (see benchSource).
func benchParse(b *testing.B, n int, print bool) { benchSource(b, GenerateChain(n), print) }

// BenchmarkParse100k parses a 100,000-operation kernel.
func BenchmarkParse100k(b *testing.B) { benchParse(b, 100000, false) }

// BenchmarkParsePrint100k parses, verifies and prints a 100,000-operation kernel.
func BenchmarkParsePrint100k(b *testing.B) { benchParse(b, 100000, true) }

// BenchmarkParsePrint1M is BenchmarkParsePrint100k with 1,000,000 operations,
// to check that the cost grows linearly.
func BenchmarkParsePrint1M(b *testing.B) { benchParse(b, 1000000, true) }

// BenchmarkParse1M parses a 1,000,000-operation kernel.
func BenchmarkParse1M(b *testing.B) { benchParse(b, 1000000, false) }

// benchSource parses src b.N times; with print, it verifies and prints the
// module too.
func benchSource(b *testing.B, src []byte, print bool) {
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := Parse("bench.otir", src, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if print {
			if errs := verify.Verify(m); errs.HasErrors() {
				b.Fatal(errs)
			}
			if err := ir.Print(io.Discard, m, ir.PrintOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseOneLine parses a kernel whose body is one line of about
// 1.33M operations (issue 15's parser corner): the line cannot be cut at
// line starts.
func BenchmarkParseOneLine(b *testing.B) { benchSource(b, GenerateChainOneLine(1330000), false) }

// BenchmarkParsePrintOneLine parses, verifies and prints that kernel.
func BenchmarkParsePrintOneLine(b *testing.B) { benchSource(b, GenerateChainOneLine(1330000), true) }

// BenchmarkParseKernels100k parses 100,000 empty kernels, one a line.
func BenchmarkParseKernels100k(b *testing.B) { benchSource(b, GenerateEmptyKernels(100000), false) }

// BenchmarkParsePrintKernels100k parses, verifies and prints them.
func BenchmarkParsePrintKernels100k(b *testing.B) {
	benchSource(b, GenerateEmptyKernels(100000), true)
}

// BenchmarkParseGenericKernels100k parses 100,000 empty kernels in the
// generic form, three lines each.
func BenchmarkParseGenericKernels100k(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&sb, "\"otir.kernel\"() ({\n  \"otir.return\"() : () -> ()\n}) {function_type = () -> (), sym_name = \"k%d\"} : () -> ()\n", i)
	}
	benchSource(b, []byte(sb.String()), false)
}

// commaList returns head, n items joined by ", ", then tail.
func commaList(head, tail string, n int, item func(b *strings.Builder, i int)) []byte {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		item(&b, i)
	}
	b.WriteString(tail)
	return []byte(b.String())
}

// wideSignature returns a kernel with n f32 arguments on one line.
func wideSignature(n int) []byte {
	return commaList("otir.kernel @wide(", ") {\n  otir.return\n}\n", n,
		func(b *strings.Builder, i int) { fmt.Fprintf(b, "%%a%d: f32", i) })
}

// BenchmarkParseWideSignature parses, verifies and prints a kernel with
// 100,000 arguments (issue 26: it took 66 s, quadratic in the argument count).
func BenchmarkParseWideSignature(b *testing.B) { benchSource(b, wideSignature(wideArgs), true) }

var wideArgs = 100000

// manyAttributes returns a kernel with n attributes.
func manyAttributes(n int) []byte {
	return commaList("otir.kernel @many() attributes {", "} {\n  otir.return\n}\n", n,
		func(b *strings.Builder, i int) { fmt.Fprintf(b, "a%d = %d", i, i) })
}

// BenchmarkParseManyAttributes parses, verifies and prints a kernel with
// 100,000 attributes (issue 26: quadratic, over a minute).
func BenchmarkParseManyAttributes(b *testing.B) { benchSource(b, manyAttributes(manyAttrs), true) }

var manyAttrs = 100000
