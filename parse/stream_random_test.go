package parse_test

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/difftest"
	"github.com/otir-dev/otir/parse"
)

// TestStreamRandomKernels parses the differential test's random kernels
// with every body streamed in chunks of one line and more, and checks the
// IR against a parse without streaming (bodies below 1 GiB are never
// streamed).
func TestStreamRandomKernels(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	print := func(src string, opts parse.Options) string {
		m, err := parse.ParseString("r.otir", src, opts)
		if err != nil {
			return "error: " + err.Error()
		}
		var sb strings.Builder
		if err := ir.Print(&sb, m, ir.PrintOptions{Generic: true}); err != nil {
			t.Fatal(err)
		}
		return sb.String()
	}
	for seed := uint64(0); seed < uint64(n); seed++ {
		src := difftest.Generate(seed)
		want := print(src, parse.Options{Workers: 1, MinChunkBytes: 1 << 30})
		if strings.HasPrefix(want, "error") {
			t.Fatalf("seed %d: %s", seed, want)
		}
		for _, opts := range []parse.Options{{Workers: 2, MinChunkBytes: 1}, {Workers: 3, MinChunkBytes: 200}} {
			if got := print(src, opts); got != want {
				t.Fatalf("seed %d, %+v: streamed parse differs:\n--- got\n%s\n--- want\n%s", seed, opts, got, want)
			}
		}
	}
}
