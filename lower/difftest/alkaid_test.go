package difftest

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// runAlkaid, the transcription of alkaid's interpreter that the
// differential tests trust, reproduces what alkaid's own interpreter printed
// for its conformance programs (../shared/conformance/alir), bit for bit.
func TestAlkaidEvaluatorConformance(t *testing.T) {
	for _, c := range []struct{ dir, model string }{
		{"alir-v2-mixed", "model.json.gz"},
		{"alkaid-cmvm64", "model-v2.json.gz"},
	} {
		t.Run(c.dir, func(t *testing.T) {
			dir := filepath.Join("..", "..", "..", "shared", "conformance", "alir", c.dir)
			if _, err := os.Stat(dir); err != nil {
				t.Skipf("lower/difftest: no conformance files beside the project: %v", err)
			}
			p, _, err := alir.ReadFile(filepath.Join(dir, c.model), alir.FormatAuto)
			if err != nil {
				t.Fatal(err)
			}
			read := func(name string) []float64 {
				v, _, _, err := alir.ReadRowsFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			in, want := read("inputs.txt"), read("expected.txt")
			n := len(in) / p.NumInputs()
			got, err := runAlkaid(p, in, n)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d outputs, want %d", len(got), len(want))
			}
			for k := range want {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
					t.Fatalf("sample %d output %d: %v, alkaid printed %v", k/p.NumOutputs(), k%p.NumOutputs(), got[k], want[k])
				}
			}
		})
	}
}
