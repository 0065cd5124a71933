package difftest

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/internal/testenv"
	"github.com/otir-dev/otir/lower/tiles"
)

// kernels is the number of generated kernels TestGenerated checks:
// OTIR_DIFFTEST_KERNELS, else 500 (200 with -short).
func kernels(t *testing.T) int {
	if testing.Short() {
		return testenv.Int(t, "OTIR_DIFFTEST_KERNELS", 200)
	}
	return testenv.Int(t, "OTIR_DIFFTEST_KERNELS", 500)
}

// TestGenerated checks random kernels: the executor and the ALIR
// interpreter must agree on every one. A disagreement prints the kernel,
// to be added to testdata/ (TestRegressions runs those).
func TestGenerated(t *testing.T) {
	n := kernels(t)
	ops, lowered := 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		src := Generate(seed)
		m := prepare(t, src)
		// Every other kernel bounds its constant-matrix products to the
		// minimal adder tree: other graphs, other shared subexpressions.
		opts := tiles.Options{}
		if seed%2 == 0 {
			opts.MaxAdderDepth = -1
		}
		r, err := Check(m, otir.Kernels(m)[0], opts, 16, seed)
		var mm *Mismatch
		if errors.As(err, &mm) || err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		ops += r.Ops
		lowered++
	}
	t.Logf("%d kernels, %d ALIR operations", lowered, ops)
}

// The generator is deterministic and, over the seeds the test runs, uses
// every feature it claims.
func TestGeneratorCoverage(t *testing.T) {
	if Generate(5) != Generate(5) {
		t.Fatal("Generate is not deterministic")
	}
	features := []string{`"hls"`, `"cpp"`, "grid = [3]", "otir.dma_copy_async", "otir.wait", "otir.alloc", "scf.for", "scf.if",
		"otir.select", "otir.cmp", "otir.matmul", "otir.atomic_rmw", "otir.insert_slice", "otir.transpose", "otir.div_s", "otir.rem_u",
		"otir.shr_s", "otir.cast", "otir.abs", "otir.neg %v", "otir.reduce kind(add)", "otir.reduce kind(max)", "otir.reduce kind(min)", "axis(1)", "otir.lookup %v", "otir.lookup %s,", "%s: ", "!otir.tile<4xi1, #private>) -> !otir.token"}
	seen := map[string]int{}
	for seed := uint64(1); seed <= 300; seed++ {
		src := Generate(seed)
		for _, f := range features {
			if strings.Contains(src, f) {
				seen[f]++
			}
		}
	}
	for _, f := range features {
		if seen[f] == 0 {
			t.Errorf("no generated kernel contains %q", f)
		}
	}
}

// The generator divides by constants of both signs, powers of two or not,
// one per tile or one per element (div_s/rem_s round toward zero, so the
// signs of the dividend and the divisor both matter).
func TestGeneratorDivisors(t *testing.T) {
	constRe := regexp.MustCompile(`(%v\d+) = otir.constant dense<(.*)> : !otir.tile<`)
	divRe := regexp.MustCompile(`= otir.(div_s|rem_s) %v\d+, (%v\d+) :`)
	seen := map[string]int{}
	for seed := uint64(1); seed <= 1000; seed++ {
		lits := map[string]string{}
		for _, line := range strings.Split(Generate(seed), "\n") {
			if m := constRe.FindStringSubmatch(line); m != nil {
				lits[m[1]] = m[2]
			}
			m := divRe.FindStringSubmatch(line)
			if m == nil || lits[m[2]] == "" {
				continue
			}
			lit := lits[m[2]]
			if strings.HasPrefix(lit, "[") {
				seen[m[1]+" per element"]++
			}
			for _, f := range strings.FieldsFunc(lit, func(r rune) bool { return r == '[' || r == ']' || r == ',' || r == ' ' }) {
				k, err := strconv.ParseInt(f, 10, 64)
				if err != nil {
					t.Fatalf("seed %d: divisor %q: %v", seed, f, err)
				}
				sign := "positive"
				if k < 0 {
					sign = "negative"
				}
				kind := "power of two"
				if a := max(k, -k); a&(a-1) != 0 {
					kind = "other"
				}
				seen[m[1]+" "+sign+" "+kind]++
			}
		}
	}
	for _, op := range []string{"div_s", "rem_s"} {
		for _, f := range []string{"per element", "positive power of two", "negative power of two", "positive other", "negative other"} {
			if seen[op+" "+f] == 0 {
				t.Errorf("no generated %s by a %s divisor (seen: %v)", op, f, seen)
			}
		}
	}
}

// Some matmul kernels end with clampEpilogue: the min or max of a narrowed
// product and p = (n + c) - n, then its abs or neg (2-D tiles: only matmul
// kernels have them).
func TestGeneratorClampEpilogue(t *testing.T) {
	re := regexp.MustCompile(`otir\.(min|max) %v\d+, %v\d+ : !otir\.tile<\d+x\d+xi16, #private>\n.*otir\.(abs|neg) `)
	seen := map[string]int{}
	for seed := uint64(1); seed <= 300; seed++ {
		for _, m := range re.FindAllStringSubmatch(Generate(seed), -1) {
			seen[m[1]+" "+m[2]]++
		}
	}
	for _, f := range []string{"min abs", "min neg", "max abs", "max neg"} {
		if seen[f] == 0 {
			t.Errorf("no generated matmul kernel ends with %s (seen: %v)", f, seen)
		}
	}
}
