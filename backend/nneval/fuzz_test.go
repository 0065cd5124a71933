package nneval

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes/verify"
)

// FuzzEval: any text that parses and verifies as nn graphs evaluates, on
// inputs of its arguments' shapes and whatever payload it names (missing
// entries are errors), to outputs or a diagnostic; never a panic, and no
// value beyond the small bound the fuzzer sets.
func FuzzEval(f *testing.F) {
	f.Add(errGraph)
	quantized, _ := filepath.Glob(filepath.Join(quantizedDir, "*.mlir"))
	for _, name := range append([]string{"../../tests/nn/every-kind.mlir", "../../tests/nn/mlp.mlir", alkaidMLP}, quantized...) {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := parse.ParseString("f.mlir", src, parse.Options{})
		if err != nil || verify.Verify(m).HasErrors() {
			return
		}
		for _, op := range m.Body().Ops {
			if op.Name != "nn.graph" || len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
				continue
			}
			var ins []*tensor.Tensor
			ok := true
			for _, a := range op.Body(0).Args {
				tt, isT := a.Type.(*ir.TensorType)
				if !isT || tensor.NumElements(tt.Shape) > 1<<12 {
					ok = false
					break
				}
				x := tensor.New(tt.Shape)
				for i := range x.Data {
					x.Data[i] = float64(i%7) - 3
				}
				ins = append(ins, x)
			}
			if !ok {
				continue
			}
			res, err := Eval(op, ins, tensor.Payload{}, Options{MaxElements: 1 << 12, MaxWork: 1 << 22})
			if err != nil {
				if err.Error() == "" {
					t.Fatal("empty error message")
				}
				continue
			}
			for _, o := range res.Outputs {
				if int64(len(o.Data)) != tensor.NumElements(o.Shape) {
					t.Fatalf("output of shape %v holds %d values", o.Shape, len(o.Data))
				}
			}
		}
	})
}
