package ir_test

import (
	"io"
	"testing"

	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
)

// BenchmarkPrintChain100k prints a kernel of 100,000 operations in one block
// (parsed once, outside the timer) to io.Discard. It loops on b.N rather
// than b.Loop: with b.Loop the first -cpu setting is measured in the
// testing package's first call, before it has set GOMAXPROCS.
func BenchmarkPrintChain100k(b *testing.B) {
	m, err := parse.Parse("chain100k.otir", parse.GenerateChain(100000), parse.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := ir.Print(io.Discard, m, ir.PrintOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
