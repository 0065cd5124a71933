package difftest

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/internal/testenv"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/lower/daisopt"
	"github.com/otir-dev/otir/lower/tiles"
)

// TestReferenceTools is issue 12's experiment, kept: generated kernels
// (difftest.Generate(7000+N)) lowered with lower-tiles and dais-optimize,
// written as ALIR v2 JSON, ALIR v2 bytecode, DAIS v1, ALIR v4 JSON and ALIR
// v4 bytecode, and after dais-fuse-sums as ALIR v4 JSON and bytecode (with
// sums) and v2 JSON (sums expanded again), some with lookup tables, and run by the original interpreters (alkaid's spec 2 and
// spec 4 interpreters, da4ml's DAIS v1 interpreter) on random input rows; every output must equal otir's
// interpreter's bit for bit. It needs the binaries that
// ../shared/reference-tools/build.sh builds:
//
//	OTIR_REFERENCE_BIN=/path/to/out/bin go test ./lower/difftest -run ReferenceTools -v
func TestReferenceTools(t *testing.T) {
	dir := testenv.Need(t, "OTIR_REFERENCE_BIN", "lower/difftest: set OTIR_REFERENCE_BIN to the reference-tools bin folder to run lowered kernels in alkaid and da4ml")
	n := testenv.Int(t, "OTIR_DIFFTEST_KERNELS", 300)
	tmp := t.TempDir()
	ran := map[string]int{}
	for k := range n {
		src := Generate(7000 + uint64(k))
		m := prepare(t, src)
		prog, err := tiles.LowerKernel(otir.Kernels(m)[0], tiles.Options{})
		if err != nil {
			t.Fatalf("k%03d: %v", k, err)
		}
		if _, err := daisopt.Optimize(prog, true); err != nil {
			t.Fatalf("k%03d: %v", k, err)
		}
		p, err := dais.ToALIR(prog)
		if err != nil {
			t.Fatal(err)
		}
		if p.NumInputs() == 0 {
			continue // rows of no numbers: the original drivers read no sample
		}
		r := rand.New(rand.NewPCG(uint64(k), 12))
		const rows = 64
		in := make([]float64, rows*p.NumInputs())
		for s := range rows {
			for j := range p.NumInputs() {
				in[s*p.NumInputs()+j] = randomInput(r, p, j)
			}
		}
		want, err := alir.RunExact(p, in, rows)
		if err != nil {
			t.Fatalf("k%03d: %v", k, err)
		}
		var text bytes.Buffer
		if err := alir.WriteRows(&text, in, p.NumInputs()); err != nil {
			t.Fatal(err)
		}
		unsigned64 := false
		for _, op := range p.Ops {
			if tt, _ := op.QInt.KIF(); !tt.Signed && tt.Width() == 64 {
				unsigned64 = true // alkaid's int64 reads these as negative
			}
		}
		// The program after dais-fuse-sums (spec 4 sums), in spec 4 and
		// in spec 2 (the sums expanded again).
		if _, err := daisopt.FuseSums(prog, 3, true); err != nil {
			t.Fatalf("k%03d: %v", k, err)
		}
		fused, err := dais.ToALIR(prog)
		if err != nil {
			t.Fatal(err)
		}
		if fused.NeedsV4() {
			ran["with-sums"]++
		}
		if len(p.Tables) > 0 {
			ran["with-lookups"]++
		}
		for _, c := range []struct {
			name, bin string
			f         alir.Format
			fused     bool
		}{
			{"json", "alir_v2_run", alir.FormatJSON, false},
			{"bytecode", "alir_v2_run", alir.FormatBytecode, false},
			{"dais-v1", "dais_v1_run", alir.FormatDAIS, false},
			{"v4-json", "alir_v4_run", alir.FormatJSONV4, false},
			{"v4-bytecode", "alir_v4_run", alir.FormatBytecodeV4, false},
			{"fused-v4-json", "alir_v4_run", alir.FormatJSONV4, true},
			{"fused-v4-bytecode", "alir_v4_run", alir.FormatBytecodeV4, true},
			{"fused-json", "alir_v2_run", alir.FormatJSON, true},
		} {
			p := p
			if c.fused {
				p = fused
			}
			if unsigned64 && (c.bin == "alir_v2_run" || c.bin == "alir_v4_run") {
				continue
			}
			data, err := alir.Encode(p, c.f)
			if err != nil {
				t.Fatalf("k%03d: %s: %v", k, c.name, err)
			}
			file := filepath.Join(tmp, fmt.Sprintf("k%03d.%s", k, c.name))
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(filepath.Join(dir, c.bin), file, "-")
			cmd.Stdin = bytes.NewReader(text.Bytes())
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("k%03d: %s: %v: %s", k, c.bin, err, stderr.String())
			}
			got, _, _, err := alir.ReadRows(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("k%03d as %s: %s printed %d values, want %d (%d inputs, %d outputs): %q", k, c.name, c.bin, len(got), len(want), p.NumInputs(), p.NumOutputs(), stderr.String())
			}
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(got[i] == 0 && want[i] == 0) {
					t.Fatalf("k%03d as %s: sample %d output %d: %s %v, otir %v\n%s", k, c.name, i/p.NumOutputs(), i%p.NumOutputs(), c.bin, got[i], want[i], src)
				}
			}
			ran[c.name]++
		}
	}
	t.Logf("%d kernels; programs run identically in the original interpreters: %v", n, ran)
}

// randomInput returns a value for input j of p: an integer in the range of
// its input op's type, often an extreme.
func randomInput(r *rand.Rand, p *alir.Program, j int) float64 {
	for _, op := range p.Ops {
		if op.Opcode == alir.OpInput && int(op.ID0) == j {
			q := op.QInt
			switch r.IntN(4) {
			case 0:
				return q.Min
			case 1:
				return q.Max
			}
			steps := (q.Max - q.Min) / q.Step
			return q.Min + math.Floor(r.Float64()*(steps+1))*q.Step
		}
	}
	return 0
}
