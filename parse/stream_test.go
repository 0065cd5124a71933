package parse

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
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

// oneLine joins the lines of src's bodies: each line that neither ends
// with '{' nor starts with '}' or a block label goes on the line before,
// unless that one ends with '{'. Comment lines are dropped; ok is false for
// a source with other comments, which would swallow what follows them.
func oneLine(src string) (string, bool) {
	var lines []string
	for _, l := range strings.Split(src, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			lines = append(lines, l)
		}
	}
	if strings.Contains(strings.Join(lines, "\n"), "//") {
		return "", false
	}
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			prev, cur := strings.TrimSpace(lines[i-1]), strings.TrimSpace(l)
			if strings.HasSuffix(prev, "{") || strings.HasPrefix(cur, "}") || strings.HasPrefix(cur, "^") || cur == "" {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
				l = cur
			}
		}
		b.WriteString(l)
	}
	return b.String(), true
}

// TestStreamOneLine checks bodies written on one line, which the skeleton
// cuts inside the line (before an operation's results): streaming them in
// chunks of every size gives the IR of a parse without streaming, and
// diagnostics keep their positions.
func TestStreamOneLine(t *testing.T) {
	var srcs []string
	for _, src := range streamCorpus(t) {
		one, ok := oneLine(src)
		if !ok {
			continue
		}
		if _, err := Parse("one.otir", []byte(one), Options{noStream: true}); err == nil {
			srcs = append(srcs, one)
		}
	}
	chain := string(GenerateChainOneLine(300))
	srcs = append(srcs, chain)
	if len(srcs) < 50 {
		t.Fatalf("only %d one-line sources", len(srcs))
	}
	midCuts := 0
	for _, src := range srcs {
		want := printed(t, mustParse(t, src, Options{Workers: 1, noStream: true}), true)
		for _, c := range []struct{ workers, minBytes int }{{1, 1}, {2, 1}, {3, 40}, {2, 300}} {
			sk := skeletonOf(src, 1, c.minBytes)
			if sk == nil {
				continue
			}
			for _, cp := range sk.cuts {
				if cp.off > cp.lineStart && strings.TrimSpace(src[cp.lineStart:cp.off]) != "" {
					midCuts++
				}
			}
			if got := streamed(t, src, c.workers, c.minBytes); got != want {
				t.Fatalf("streamed parse %+v differs:\n--- streamed\n%s\n--- whole\n%s", c, got, want)
			}
		}
	}
	if midCuts < 100 {
		t.Fatalf("only %d cuts inside lines", midCuts)
	}
	// An error on the line (at the stray comma) is where a parse of the whole
	// file puts it.
	bad := strings.Replace(chain, "%v7 = otir.sub %x, %v6", "%v7 = otir.sub %x, %v6 ,", 1)
	_, want := Parse("one.otir", []byte(bad), Options{noStream: true})
	col := strings.Index(bad, "%v6 ,") + len("%v6 ") - strings.LastIndexByte(bad[:strings.Index(bad, "%v6 ,")], '\n')
	if want == nil || !strings.HasPrefix(want.Error(), fmt.Sprintf("one.otir:3:%d: error: ", col)) {
		t.Fatalf("whole parse: %v, want an error at 3:%d", want, col)
	}
	for _, opts := range []Options{{Workers: 1, MinChunkBytes: 1}, {Workers: 2, MinChunkBytes: 100}} {
		if _, got := Parse("one.otir", []byte(bad), opts); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%+v: got %v, want %v", opts, got, want)
		}
	}
	t.Logf("%d sources, %d cuts inside lines", len(srcs), midCuts)
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

// TestSkeleton checks which bodies the skeleton streams and where it cuts
// them (a body's first operation starts its first chunk).
func TestSkeleton(t *testing.T) {
	cases := []struct {
		name, src string
		spans     []string   // the text of each span, trimmed
		cuts      [][]string // per span, the text of each cut's line, trimmed
	}{
		{"kernel body, cut per line",
			"otir.kernel @k() {\n  %a = x\n  %b = y\n}\n",
			[]string{"%a = x\n  %b = y"}, [][]string{{"%b = y"}}},
		{"braces in strings and comments do not count",
			"m {\n  %a = \"}\" // }\n  %b = \"{\\\"}\"\n}\n",
			[]string{"%a = \"}\" // }\n  %b = \"{\\\"}\""}, [][]string{{"%b = \"{\\\"}\""}}},
		{"an attribute dictionary is not a body",
			"op {a = 1, b = 2} {\n  %x = y\n}\n",
			[]string{"%x = y"}, [][]string{nil}},
		{"a block header is skipped",
			"\"k\"() ({\n^bb0(%arg0: i8):\n  %x = y\n  %z = w\n}) : () -> ()\n",
			[]string{"%x = y\n  %z = w"}, [][]string{{"%z = w"}}},
		{"nested bodies, cuts at each depth",
			"m {\n  k {\n    %a = x\n    %b = y\n  }\n  %c = z\n}\n",
			[]string{"k {\n    %a = x\n    %b = y\n  }\n  %c = z", "%a = x\n    %b = y"}, [][]string{{"%c = z"}, {"%b = y"}}},
		{"closing braces, labels and comments do not start operations",
			"m {\n  %a = x\n  // c\n  ^bb1:\n  k {\n  }\n  %b = y\n}\n",
			[]string{"%a = x\n  // c\n  ^bb1:\n  k {\n  }\n  %b = y"}, [][]string{{"k {", "%b = y"}}},
		{"the lines of a multi-line list do not start operations",
			"m {\n  %a = c dense<[\n    [1, 2],\n    3, -4,\n    true, false // t\n  ]>\n  %b = y\n}\n",
			[]string{"%a = c dense<[\n    [1, 2],\n    3, -4,\n    true, false // t\n  ]>\n  %b = y"}, [][]string{{"%b = y"}}},
		{"a long line is cut before results, not before a second result, a binding or scf.for's variable",
			"m {\n  %a = x %b, %c = y(%e = f, %g = h) scf.for %i = z %d:2 = w\n  %j = v\n}\n",
			[]string{"%a = x %b, %c = y(%e = f, %g = h) scf.for %i = z %d:2 = w\n  %j = v"}, [][]string{{"%d:2 = w", "%j = v"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sk := skeletonOf(c.src, 1, 1)
			if sk == nil {
				t.Fatal("no skeleton")
			}
			var spans []string
			var cuts [][]string
			for k := range sk.spans {
				sp := &sk.spans[k]
				spans = append(spans, strings.TrimSpace(c.src[sp.start:sp.end]))
				if line := strings.Count(c.src[:sp.start], "\n") + 1; sp.line != line || strings.TrimSpace(c.src[sp.lineStart:sp.start]) != "" {
					t.Errorf("span at line %d (line start %d), want line %d", sp.line, sp.lineStart, line)
				}
				var spanCuts []string
				for _, cp := range sk.cutsOf(sp) {
					end := strings.IndexByte(c.src[cp.off:], '\n')
					spanCuts = append(spanCuts, strings.TrimSpace(c.src[cp.off:cp.off+end]))
					if line := strings.Count(c.src[:cp.off], "\n") + 1; cp.line != line {
						t.Errorf("cut %q at line %d, want %d", spanCuts[len(spanCuts)-1], cp.line, line)
					}
				}
				cuts = append(cuts, spanCuts)
			}
			if fmt.Sprintf("%q", spans) != fmt.Sprintf("%q", c.spans) || fmt.Sprintf("%q", cuts) != fmt.Sprintf("%q", c.cuts) {
				t.Errorf("spans %q cuts %q, want %q and %q", spans, cuts, c.spans, c.cuts)
			}
		})
	}
}

// TestStreamCutInsideOperation checks a cut that falls inside an operation
// broken over lines: its chunk fails, the body is parsed in one piece, and
// the result is still the whole-file parse's.
func TestStreamCutInsideOperation(t *testing.T) {
	src := "\"builtin.module\"() ({\n  %a = \"otir.constant\"() {value = 1 : i8} : () -> i8\n" +
		"  %b = \"otir.add\"(%a,\n    %a) : (i8, i8) -> i8\n  %c = \"otir.add\"(%b, %b)\n    : (i8, i8) -> i8\n  otir.barrier\n}) : () -> ()\n"
	want := printed(t, mustParse(t, src, Options{noStream: true}), true)
	sk := skeletonOf(src, 1, 1)
	cutInside := false
	for _, c := range sk.cuts {
		if strings.HasPrefix(src[c.off:], "%a)") || strings.HasPrefix(src[c.off:], ": (i8") {
			cutInside = true
		}
	}
	if !cutInside {
		t.Fatalf("no cut inside an operation: %+v", sk.cuts)
	}
	if got := streamed(t, src, 2, 1); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestInputLimit checks the diagnostic for an input larger than the AST's
// int32 offsets allow.
func TestInputLimit(t *testing.T) {
	old := maxInput
	maxInput = 10
	defer func() { maxInput = old }()
	_, err := Parse("big.otir", []byte("module {\n}\n"), Options{})
	if err == nil || err.Error() != "big.otir:1:1: error: input of 11 bytes is larger than the parser's limit of 10 bytes" {
		t.Fatalf("got %v", err)
	}
}
