package onnximport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes/verify"
)

// FuzzImportONNX: any bytes import as a verified nn graph or fail with an
// error, never a panic, within small bounds; an imported graph prints,
// parses back and verifies, and evaluates on its payload (or fails with a
// diagnostic). Seeded with the committed models and the error tests' files.
func FuzzImportONNX(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(inputs, "*.onnx"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add(convCase(intsAttrP("pads", 1, 1, 1, 1)).bytes(f))
	f.Add(poolCase("AveragePool", intsAttrP("kernel_shape", 2, 2)).bytes(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Import(data, "f.onnx", Options{MaxElements: 1 << 12, MaxTotalElements: 1 << 14})
		if err != nil {
			return
		}
		text := res.Module.String()
		m, err := parse.ParseString("f.mlir", text, parse.Options{})
		if err != nil {
			t.Fatalf("the imported graph does not parse back: %v\n%s", err, text)
		}
		if ds := verify.Verify(m); ds.HasErrors() {
			t.Fatalf("the imported graph does not verify once printed: %v\n%s", ds, text)
		}
		g := res.Module.Body().Ops[0]
		var ins []*nneval.Tensor
		for _, a := range g.Body(0).Args {
			ins = append(ins, nneval.New(a.Type.(*ir.TensorType).Shape))
		}
		p := nneval.Payload{}
		for k, a := range res.Payload.Arrays {
			p[k] = nneval.FromNPY(a)
		}
		if _, err := nneval.Eval(g, ins, p, nneval.Options{MaxElements: 1 << 12, MaxTotalElements: 1 << 16, MaxWork: 1 << 20}); err != nil &&
			!strings.Contains(err.Error(), "more than") {
			t.Fatalf("an imported graph fails to evaluate: %v\n%s", err, text)
		}
	})
}
