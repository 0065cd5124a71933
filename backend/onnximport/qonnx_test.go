package onnximport

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/internal/testenv"
)

// qonnxDir holds testdata/qonnx/gen.py's models: small QONNX models with
// the zoo's operator patterns, opsets and domains, and one per unsupported
// form, each with its NAME.want.json.
const qonnxDir = "testdata/qonnx"

// qonnxWant is a NAME.want.json: the error text, or the node kinds (counts;
// nn.const and nn.return aside), substrings of the printed graph and
// payload entries (shape and values) the import must give.
type qonnxWant struct {
	Error    string
	Kinds    map[string]int
	Contains []string
	Payload  map[string]struct {
		Shape []int
		Data  []float64
	}
}

// TestQONNXModels imports each model of testdata/qonnx and checks it
// against its NAME.want.json, and its evaluation against ref.py's outputs.
func TestQONNXModels(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(qonnxDir, "*.want.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no models in %s (run gen.py): %v", qonnxDir, err)
	}
	for _, wf := range files {
		name := strings.TrimSuffix(filepath.Base(wf), ".want.json")
		t.Run(name, func(t *testing.T) {
			var want qonnxWant
			b, err := os.ReadFile(wf)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(qonnxDir, name+".onnx"))
			if err != nil {
				t.Fatal(err)
			}
			res := importExpecting(t, data, name+".onnx", want.Error)
			if res == nil {
				return
			}
			text := res.Module.String()
			kinds := map[string]int{}
			for _, op := range res.Module.Body().Ops[0].Body(0).Ops {
				if op.Name != nn.OpConst && op.Name != nn.OpReturn {
					kinds[op.Name]++
				}
			}
			if !mapsEqual(kinds, want.Kinds) {
				t.Errorf("node kinds %v, want %v\n%s", kinds, want.Kinds, text)
			}
			checkContains(t, text, want.Contains)
			for key, e := range want.Payload {
				a, ok := res.Payload.Arrays[key]
				if !ok {
					t.Errorf("no payload entry %s (entries %v)", key, res.Payload.Names)
					continue
				}
				if !slices.Equal(a.Shape, e.Shape) || !slices.Equal(a.Floats, e.Data) {
					t.Errorf("payload %s = %v %v, want %v %v", key, a.Shape, a.Floats, e.Shape, e.Data)
				}
			}
			// The evaluator (QONNX's quantizers, issue 27's qeval) on
			// gen.py's input against ref.py's float64 reference.
			checkReference(t, res, qonnxDir, name)
		})
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestQONNXZoo imports the QONNX model zoo's five MLPs from the directory
// $OTIR_QONNX_ZOO (they are not in the repository: their licences) and
// checks the quantizers' count and the graph's signature.
func TestQONNXZoo(t *testing.T) {
	dir := testenv.Need(t, "OTIR_QONNX_ZOO", "OTIR_QONNX_ZOO does not name a directory holding the QONNX zoo's models (qkeras_jettagging.onnx, TFC_2W2A.onnx, TFC_1W2A.onnx, kwsmlp_w3a3.onnx, unsw_nb15-mlp-w2a2.onnx)")
	for _, c := range []struct {
		file       string
		quantizers map[string]int
		signature  string
	}{
		{"qkeras_jettagging.onnx", map[string]int{nn.OpQuant: 11}, "(%arg0: tensor<1x16xf64>) -> tensor<1x5xf64>"},
		{"TFC_2W2A.onnx", map[string]int{nn.OpQuant: 8}, "(%arg0: tensor<1x1x28x28xf64>) -> tensor<1x10xf64>"},
		{"TFC_1W2A.onnx", map[string]int{nn.OpQuant: 4, nn.OpBipolarQuant: 4}, "(%arg0: tensor<1x1x28x28xf64>) -> tensor<1x10xf64>"},
		{"kwsmlp_w3a3.onnx", map[string]int{nn.OpQuant: 8}, "(%arg0: tensor<1x1x10x49xf64>) -> tensor<1x12xf64>"},
		{"unsw_nb15-mlp-w2a2.onnx", map[string]int{nn.OpQuant: 7, nn.OpBipolarQuant: 1}, "(%arg0: tensor<1x600xf64>) -> tensor<1x1xf64>"},
	} {
		t.Run(c.file, func(t *testing.T) {
			res := importFile(t, filepath.Join(dir, c.file))
			got := map[string]int{}
			for _, op := range res.Module.Body().Ops[0].Body(0).Ops {
				if op.Name == nn.OpQuant || op.Name == nn.OpBipolarQuant || op.Name == nn.OpTrunc {
					got[op.Name]++
				}
			}
			if !mapsEqual(got, c.quantizers) {
				t.Errorf("quantizers %v, want %v", got, c.quantizers)
			}
			if text := res.Module.String(); !strings.Contains(text, c.signature) {
				t.Errorf("the graph's signature is not %s\n%s", c.signature, text)
			}
		})
	}
}
