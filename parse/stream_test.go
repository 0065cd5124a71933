package parse

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"otir/ir"
)

// streamed parses src streaming every body of at least minBytes, without
// falling back to a parse of the whole file: it fails if streaming fails.
func streamed(t *testing.T, src string, workers, minBytes int) string {
	t.Helper()
	sk := skeletonOf(src, 1, minBytes)
	if sk == nil {
		t.Fatalf("no body of %d bytes in\n%s", minBytes, src)
	}
	m, err := parseText("test.otir", src, Options{Workers: workers}, sk)
	if err != nil {
		t.Fatalf("streamed parse (workers %d, chunks of %d bytes) failed: %v\n%s", workers, minBytes, err, src)
	}
	return printed(t, m, true)
}

// streamCorpus is valid OTIR with bodies of every shape: the round-trip
// cases, the golden tests without expected errors, a chain, and a chain with
// a loop around it and a loop inside it.
func streamCorpus(t *testing.T) []string {
	var srcs []string
	for _, c := range roundTripCases {
		srcs = append(srcs, c.src)
	}
	files, _ := filepath.Glob("../tests/*/*.otir")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range strings.Split(string(b), "// -----") {
			if strings.Contains(part, "expected-") || strings.Contains(part, "XFAIL") {
				continue
			}
			if _, err := Parse("test.otir", []byte(part), Options{noStream: true}); err == nil {
				srcs = append(srcs, part)
			}
		}
	}
	chain := string(GenerateChain(300))
	nested := strings.Replace(chain, "    %x = otir.load", "    %c0 = otir.constant 0 : index\n    scf.for %i = %c0 to %c0 step %c0 {\n    %x = otir.load", 1)
	nested = strings.Replace(nested, "    otir.return", "    scf.for %j = %c0 to %c0 step %c0 {\n      otir.barrier\n    }\n    }\n    otir.return", 1)
	return append(srcs, chain, nested)
}

// TestStreamAgrees checks that streaming bodies in chunks, down to one
// operation per chunk, gives the IR of a parse without streaming, and that
// it succeeds wherever that parse does.
func TestStreamAgrees(t *testing.T) {
	srcs := streamCorpus(t)
	if len(srcs) < 50 {
		t.Fatalf("only %d sources in the corpus", len(srcs))
	}
	bodies := 0
	for _, src := range srcs {
		want := printed(t, mustParse(t, src, Options{Workers: 1, noStream: true}), true)
		if skeletonOf(src, 1, 1) == nil {
			continue // no region body
		}
		bodies++
		for _, c := range []struct{ workers, minBytes int }{{1, 1}, {2, 1}, {3, 40}, {2, 300}} {
			if skeletonOf(src, 1, c.minBytes) == nil {
				continue
			}
			if got := streamed(t, src, c.workers, c.minBytes); got != want {
				t.Fatalf("streamed parse %+v differs:\n--- streamed\n%s\n--- whole\n%s", c, got, want)
			}
		}
	}
	if bodies < len(srcs)/2 {
		t.Fatalf("only %d of %d sources have a body to stream", bodies, len(srcs))
	}
	t.Logf("%d sources, %d streamed", len(srcs), bodies)
}

// TestStreamErrorsAreWholeFile checks that an error inside a streamed body
// is reported as a parse of the whole file reports it, even when a chunk
// alone would parse (a bare scf.yield followed by a result name).
func TestStreamErrorsAreWholeFile(t *testing.T) {
	src := "otir.kernel @k() {\n" + strings.Repeat("  otir.barrier\n", 6) + "  scf.yield\n  %x = otir.constant 1 : i8\n  otir.return\n}\n"
	want := "y.otir:9:6: error: expected ':'"
	for _, opts := range []Options{{Workers: 1, MinChunkBytes: 1}, {Workers: 2, MinChunkBytes: 20}} {
		if _, err := Parse("y.otir", []byte(src), opts); err == nil || err.Error() != want {
			t.Fatalf("%+v: got %v, want %s", opts, err, want)
		}
		sk := skeletonOf(src, 1, opts.MinChunkBytes)
		if _, err := parseText("y.otir", src, opts, sk); err == nil {
			t.Fatalf("%+v: the streamed parse accepted a bare scf.yield before a result", opts)
		}
	}
}

// TestStreamNesting checks that brackets nested too deep inside a streamed
// body are an error, as in a parse of the whole file: the chunks' lexers
// start at the body's nesting.
func TestStreamNesting(t *testing.T) {
	deep := func(n int) string {
		return "\"builtin.module\"() ({\n  %x = \"otir.constant\"() {value = " + strings.Repeat("[", n) + strings.Repeat("]", n) +
			"} : () -> i8\n  otir.barrier\n}) : () -> ()\n"
	}
	for _, n := range []int{maxNesting - 2, maxNesting - 1, maxNesting} {
		src := deep(n)
		_, want := Parse("d.otir", []byte(src), Options{noStream: true})
		for _, opts := range []Options{{Workers: 1, MinChunkBytes: 1}, {Workers: 2, MinChunkBytes: 30}} {
			_, got := Parse("d.otir", []byte(src), opts)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("nesting %d, %+v: got %v, want %v", n, opts, got, want)
			}
		}
		if n == maxNesting && (want == nil || !strings.Contains(want.Error(), nestingError)) {
			t.Fatalf("nesting %d: got %v", n, want)
		}
	}
}

// TestStreamFreesTokens checks that streaming a large body does not keep its
// tokens: a 20,000-operation chain allocates at most 3/4 of what a parse
// without streaming does (about 55% when this was written).
func TestStreamFreesTokens(t *testing.T) {
	src := GenerateChain(20000)
	alloc := func(opts Options) float64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := Parse("chain.otir", src, opts); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc - before.TotalAlloc)
	}
	whole, stream := alloc(Options{Workers: 1, noStream: true}), alloc(Options{Workers: 1})
	if stream > 0.75*whole {
		t.Fatalf("streamed parse allocates %.0f bytes, the whole-file parse %.0f", stream, whole)
	}
	t.Logf("streamed %.1f MB, whole %.1f MB", stream/1e6, whole/1e6)
}

// BenchmarkSkeleton100k measures the byte pass that finds the large bodies
// of a 100,000-operation kernel.
func BenchmarkSkeleton100k(b *testing.B) {
	src := string(GenerateChain(100000))
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		if skeletonOf(src, 1, defaultMinChunkBytes) == nil {
			b.Fatal("no body")
		}
	}
}

// TestNameTableTruncate checks that names leave the table latest first and
// that the names left are still found, through growth and collisions.
func TestNameTableTruncate(t *testing.T) {
	tab := newNameTable(1)
	vals := make([]ir.Value, 3000)
	name := func(i int) string { return "%v" + strconv.Itoa(i) }
	marks := []int{}
	for i := range vals {
		if i%100 == 0 {
			marks = append(marks, len(tab.keys))
		}
		if prev := tab.insert(name(i), &vals[i]); prev != nil {
			t.Fatalf("%s already bound", name(i))
		}
	}
	if prev := tab.insert(name(7), &vals[8]); prev != &vals[7] {
		t.Fatalf("redefinition not found: %v", prev)
	}
	for len(marks) > 0 {
		n := marks[len(marks)-1]
		marks = marks[:len(marks)-1]
		tab.truncate(n)
		for i := range vals {
			got := tab.lookup(name(i))
			if want := i < n; (got != nil) != want || want && got != &vals[i] {
				t.Fatalf("after truncate(%d): lookup(%s) = %v", n, name(i), got)
			}
		}
	}
}
