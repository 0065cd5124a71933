package cmvmbench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/otir-dev/otir/internal/testenv"
	"github.com/otir-dev/otir/lower/cmvm"
)

// The default test lowers two small matrices and checks the programs; the
// comparison itself runs only when asked:
//
//	OTIR_CMVM_COMPARE=SETS OTIR_REFERENCE_BIN=/work/ref/bin go test ./bench/cmvm -run Compare -v -timeout 0
//
// SETS is a comma-separated list of
//
//	t2       10 Table 2 matrices 16x16 (uniform 129..255), seeds 0..9,
//	         default and minimal depth, otir, da4ml and alkaid
//	int8-64  3 int8 64x64 matrices (seeds 0..2), default depth
//	sweep    int8 matrices 8..256 square, rectangular, and 1024x64, seed 0
//	RxC      one int8 matrix of R inputs and C outputs (seed 0)
//
// Without OTIR_REFERENCE_BIN only otir runs. OTIR_REFERENCE_TIMEOUT (a Go
// duration, default 120s) stops a reference solver that takes longer; the
// table then says "-". OTIR_CMVM_SEEDS overrides the number of matrices of
// t2 and int8-64.
func TestOtirSmall(t *testing.T) {
	for _, c := range []struct {
		kind       Kind
		rows, cols int
	}{{Table2, 8, 8}, {Int8, 12, 5}} {
		for _, d := range []int{0, cmvm.DepthMinimal} {
			r, err := Otir(Matrix(c.kind, c.rows, c.cols, 3), d)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Exact || r.Adders == 0 || r.Depth == 0 {
				t.Fatalf("%s %dx%d depth %d: %+v", c.kind, c.rows, c.cols, d, r)
			}
		}
	}
}

type tool struct {
	name string
	bin  string // "" for otir
}

type caseSpec struct {
	kind       Kind
	rows, cols int
	seeds      int
	depths     []int // 0 default, -1 minimal
}

func TestCompare(t *testing.T) {
	sets := testenv.Need(t, "OTIR_CMVM_COMPARE", "set OTIR_CMVM_COMPARE (see the comment above TestOtirSmall)")
	tools := []tool{{"otir", ""}}
	if dir := os.Getenv("OTIR_REFERENCE_BIN"); dir != "" {
		tools = append(tools, tool{"da4ml", filepath.Join(dir, "cmvm_cli")}, tool{"alkaid", filepath.Join(dir, "cmvm_cli_alkaid")})
	}
	timeout := 120 * time.Second
	if s := os.Getenv("OTIR_REFERENCE_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		timeout = d
	}
	seeds := func(def int) int { return testenv.Int(t, "OTIR_CMVM_SEEDS", def) }
	var cases []caseSpec
	for _, s := range strings.Split(sets, ",") {
		switch s {
		case "t2":
			cases = append(cases, caseSpec{Table2, 16, 16, seeds(10), []int{0, -1}})
		case "int8-64":
			cases = append(cases, caseSpec{Int8, 64, 64, seeds(3), []int{0}})
		case "sweep":
			for _, sz := range [][2]int{{8, 8}, {16, 16}, {32, 32}, {64, 64}, {128, 128}, {256, 256},
				{16, 64}, {64, 16}, {32, 128}, {128, 32}, {64, 256}, {256, 64}, {1024, 64}} {
				cases = append(cases, caseSpec{Int8, sz[0], sz[1], 1, []int{0}})
			}
		default:
			var r, c int
			if _, err := fmt.Sscanf(s, "%dx%d", &r, &c); err != nil {
				t.Fatalf("unknown set %q", s)
			}
			cases = append(cases, caseSpec{Int8, r, c, seeds(1), []int{0}})
		}
	}
	dir := t.TempDir()
	type sum struct {
		n                 int
		adders, negs, dep float64
		time              time.Duration
		missed            int
	}
	for _, c := range cases {
		for _, d := range c.depths {
			sums := make([]sum, len(tools))
			for s := range c.seeds {
				w := Matrix(c.kind, c.rows, c.cols, uint64(s))
				for ti, tl := range tools {
					var r Result
					var err error
					ok := true
					if tl.bin == "" {
						r, err = Otir(w, d)
					} else {
						r, ok, err = Reference(tl.bin, dir, w, map[int]int{0: -1, -1: 0}[d], timeout)
					}
					if err != nil {
						t.Fatalf("%s %s %dx%d seed %d: %v", tl.name, c.kind, c.rows, c.cols, s, err)
					}
					if !ok {
						sums[ti].missed++
						t.Logf("%-6s %-4s %4dx%-4d depth %2d seed %d: no result within %v", tl.name, c.kind, c.rows, c.cols, d, s, timeout)
						continue
					}
					if !r.Exact {
						t.Fatalf("%s: not exact", tl.name)
					}
					t.Logf("%-6s %-4s %4dx%-4d depth %2d seed %d: %6d adders (%d neg) depth %2d  %9.1f ms  (pipeline %.1f ms)",
						tl.name, c.kind, c.rows, c.cols, d, s, r.Adders, r.Negs, r.Depth, ms(r.Time), ms(r.Pipeline))
					u := &sums[ti]
					u.n++
					u.adders += float64(r.Adders)
					u.negs += float64(r.Negs)
					u.dep += float64(r.Depth)
					u.time += r.Time
				}
			}
			for ti, tl := range tools {
				u := sums[ti]
				if u.n == 0 {
					t.Logf("SUMMARY %-6s %-4s %4dx%-4d depth %2d: -", tl.name, c.kind, c.rows, c.cols, d)
					continue
				}
				n := float64(u.n)
				t.Logf("SUMMARY %-6s %-4s %4dx%-4d depth %2d: %d matrices: %.1f adders (%.1f neg), %.3f per weight, depth %.1f, %.1f ms (missed %d)",
					tl.name, c.kind, c.rows, c.cols, d, u.n, u.adders/n, u.negs/n, u.adders/n/float64(c.rows*c.cols), u.dep/n, ms(u.time)/n, u.missed)
			}
		}
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
