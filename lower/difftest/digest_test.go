package difftest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/exec"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/internal/testenv"
	"github.com/otir-dev/otir/ir"
)

// TestExecDigest writes, for the generated kernels (larger tiles and
// broadcasts than the executor's own fuzz kernels), the executor's outcome at
// three step limits with CheckRaces: the error, steps, races and final
// arguments. It runs only with OTIR_EXEC_DIGEST=file (as many kernels as
// TestGenerated), so that two builds of the executor can be compared with
// cmp.
func TestExecDigest(t *testing.T) {
	path := testenv.Need(t, "OTIR_EXEC_DIGEST", "set OTIR_EXEC_DIGEST=file to write the digest")
	var out strings.Builder
	for seed := uint64(1); seed <= uint64(kernels(t)); seed++ {
		m := prepare(t, Generate(seed))
		k := otir.Kernels(m)[0]
		rng := rand.New(rand.NewPCG(seed, 7))
		params := exec.Params(k)
		args := make([]*exec.Buffer, len(params))
		for i, p := range params {
			var err error
			if args[i], err = randomBuffer(rng, p.Type); err != nil {
				t.Fatal(err)
			}
		}
		for _, limit := range []int64{0, 2000, 100} {
			res, err := exec.Run(m, ir.KernelName(k), args, exec.Options{MaxSteps: limit, CheckRaces: true, Seed: seed})
			fmt.Fprintf(&out, "kernel %d limit %d: ", seed, limit)
			exec.WriteOutcome(&out, res, err)
		}
	}
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
