package parse

import (
	"io"
	"testing"

	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes/verify"
)

func benchParse(b *testing.B, n int, print bool) {
	src := GenerateChain(n)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := Parse("chain.otir", src, Options{})
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

// BenchmarkParse100k parses a 100,000-operation kernel.
func BenchmarkParse100k(b *testing.B) { benchParse(b, 100000, false) }

// BenchmarkParsePrint100k parses, verifies and prints a 100,000-operation kernel.
func BenchmarkParsePrint100k(b *testing.B) { benchParse(b, 100000, true) }

// BenchmarkParsePrint1M is BenchmarkParsePrint100k with 1,000,000 operations,
// to check that the cost grows linearly.
func BenchmarkParsePrint1M(b *testing.B) { benchParse(b, 1000000, true) }

// BenchmarkParse1M parses a 1,000,000-operation kernel.
func BenchmarkParse1M(b *testing.B) { benchParse(b, 1000000, false) }
