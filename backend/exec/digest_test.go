package exec

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/otir-dev/otir/internal/fuzzbytes"
	"github.com/otir-dev/otir/internal/testenv"
)

// TestRunDigest writes, for many random kernels of buildFuzzKernel (every
// element type, atomics, DMA, races), the outcome of each at three step
// limits with CheckRaces: the error, the step count, the races and the final
// arguments. It runs only with OTIR_EXEC_DIGEST=file (OTIR_EXEC_DIGEST_N
// kernels, default 4000), so that two builds of the executor can be compared
// with cmp: a change meant to be only faster must leave the file unchanged.
func TestRunDigest(t *testing.T) {
	path := testenv.Need(t, "OTIR_EXEC_DIGEST", "set OTIR_EXEC_DIGEST=file to write the digest")
	n := testenv.Int(t, "OTIR_EXEC_DIGEST_N", 4000)
	var out strings.Builder
	rng := rand.New(rand.NewPCG(31, 4))
	for i := range n {
		data := make([]byte, 16+rng.IntN(48))
		for j := range data {
			data[j] = byte(rng.IntN(256))
		}
		for _, limit := range []int64{10000, 200, 40} {
			m, args := buildFuzzKernel(t, fuzzbytes.New(data))
			res, err := Run(m, "k", args, Options{MaxSteps: limit, CheckRaces: true, Seed: uint64(i)})
			fmt.Fprintf(&out, "kernel %d limit %d: ", i, limit)
			WriteOutcome(&out, res, err)
		}
	}
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
