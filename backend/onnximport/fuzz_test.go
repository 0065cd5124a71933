package onnximport

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/otir-dev/otir/backend/nneval"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/internal/fuzzbytes"
	"github.com/otir-dev/otir/internal/onnxpb"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/passes/verify"
)

// FuzzImportONNX: any bytes import as a verified nn graph or fail with an
// error, never a panic, within small bounds; an imported graph prints,
// parses back and verifies, and evaluates on its payload (or fails with a
// diagnostic). Seeded with the committed models (tests/onnx's and
// tests/nn/Inputs/onnx-float's) and the error tests' files.
func FuzzImportONNX(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(inputs, "*.onnx"))
	floatFiles, _ := filepath.Glob(filepath.Join(floatInputs, "*.onnx"))
	for _, name := range append(files, floatFiles...) {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add(convCase(intsAttrP("pads", 1, 1, 1, 1)).bytes(f))
	qonnxFiles, _ := filepath.Glob(filepath.Join(qonnxDir, "*.onnx"))
	for _, name := range qonnxFiles {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add(poolCase("AveragePool", intsAttrP("kernel_shape", 2, 2)).bytes(f))
	for _, c := range hostileAttributes {
		f.Add(c.model.bytes(f))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Import(data, "f.onnx", Options{MaxElements: 1 << 12, MaxTotalElements: 1 << 14})
		if err != nil {
			return
		}
		evalImported(t, res)
	})
}

// evalImported checks an imported graph: it prints, parses back and
// verifies, and evaluates on zero inputs and its payload within small
// bounds (or stops at a bound).
func evalImported(t *testing.T, res *Result) {
	t.Helper()
	{
		text := res.Module.String()
		m, err := parse.ParseString("f.mlir", text, parse.Options{})
		if err != nil {
			t.Fatalf("the imported graph does not parse back: %v\n%s", err, text)
		}
		if ds := verify.Verify(m); ds.HasErrors() {
			t.Fatalf("the imported graph does not verify once printed: %v\n%s", ds, text)
		}
		g := res.Module.Body().Ops[0]
		var ins []*tensor.Tensor
		for _, a := range g.Body(0).Args {
			ins = append(ins, tensor.New(a.Type.(*ir.TensorType).Shape))
		}
		p := tensor.PayloadOf(res.Payload)
		if _, err := nneval.Eval(g, ins, p, nneval.Options{MaxElements: 1 << 12, MaxTotalElements: 1 << 16, MaxWork: 1 << 20}); err != nil &&
			!strings.Contains(err.Error(), "more than") {
			t.Fatalf("an imported graph fails to evaluate: %v\n%s", err, text)
		}
	}
}

// FuzzImportONNXNodes builds models out of the supported operators from
// the fuzzer's bytes (operators, inputs among the values defined so far or
// absent, attributes of the names each operator reads with values of any
// kind, small integer and float constants), so that every translation
// meets odd inputs; the import must succeed with a graph that verifies and
// evaluates, or fail with an error.
func FuzzImportONNXNodes(f *testing.F) {
	f.Add([]byte{2, 3, 4, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte("\x04\x01\x02\x06\x06 Conv Pad MaxPool Gemm MatMul Reshape Slice"))
	f.Add([]byte("\x02\x01\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x03\x05\x01\x02\x03\x04"))
	ops, qops := Operators(), QONNXOperators()
	f.Fuzz(func(t *testing.T, data []byte) {
		r := fuzzbytes.New(data)
		rank := r.Pick(4) + 1
		dims := make([]int64, rank)
		for i := range dims {
			dims[i] = int64(r.Pick(4) + 1)
		}
		m := testModel{inputs: []*onnxpb.ValueInfoProto{tensorInfo("x", dims...)}}
		names := []string{"x"}
		for i := range 3 {
			name := fmt.Sprintf("k%d", i)
			n := r.Pick(5)
			if r.Pick(2) == 0 {
				vs := make([]int64, n)
				for j := range vs {
					vs[j] = int64(r.Pick(9)) - 3
				}
				m.inits = append(m.inits, int64s(name, vs...))
			} else {
				shape := []int64{}
				if n > 0 {
					shape = []int64{int64(n)}
				}
				vs := make([]float64, max(n, 1))
				for j := range vs {
					vs[j] = float64(r.Next()-128) / 16
				}
				m.inits = append(m.inits, doubles(name, shape, vs...))
			}
			names = append(names, name)
		}
		// fuzzNode appends a node of op (of table, in domain) with inputs
		// and attributes from the bytes.
		fuzzNode := func(i int, op, domain string, table map[string]operator, maxIn int) {
			var in []string
			for range r.Pick(maxIn) {
				if k := r.Pick(len(names) + 1); k < len(names) {
					in = append(in, names[k])
				} else {
					in = append(in, "")
				}
			}
			var attrs []*onnxpb.AttributeProto
			for _, a := range slices.Sorted(maps.Keys(table[op].attrs)) {
				switch r.Pick(6) {
				case 1:
					attrs = append(attrs, intAttrP(a, int64(r.Pick(7))-2))
				case 2:
					attrs = append(attrs, intsAttrP(a, int64(r.Pick(4)), int64(r.Pick(4)), int64(r.Pick(3)), int64(r.Pick(3))))
				case 3:
					attrs = append(attrs, intsAttrP(a, int64(r.Pick(4))+1, int64(r.Pick(4))+1))
				case 4:
					attrs = append(attrs, &onnxpb.AttributeProto{Name: proto.String(a), Type: onnxpb.AttributeProto_FLOAT.Enum(), F: proto.Float32(float32(r.Next()) / 64)})
				case 5:
					attrs = append(attrs, stringAttrP(a, []string{"NOTSET", "VALID", "constant", "reflect"}[r.Pick(4)]))
				}
			}
			out := fmt.Sprintf("v%d", i)
			n := node(op, fmt.Sprintf("%s_%d", op, i), in, []string{out}, attrs...)
			n.Domain = proto.String(domain)
			m.nodes = append(m.nodes, n)
			names = append(names, out)
		}
		count := r.Pick(6) + 1
		for i := range count {
			fuzzNode(i, ops[r.Pick(len(ops))], "", operators, 4)
		}
		// The bytes after the nodes (zeros in the older corpus) add a QONNX
		// quantizer and choose the opset.
		if q := r.Pick(len(qops) + 1); q > 0 {
			fuzzNode(count, qops[q-1], "qonnx.custom_op.general", qonnxOperators, 7)
		}
		m.opset = []int64{13, 9, 10, 11, 12, 14, 15, 16, 17}[r.Pick(9)]
		// Later bytes (zeros in the older corpus) choose an opset before 9
		// and QONNX's channels-last domain for the nodes it holds.
		if r.Pick(4) == 3 {
			m.opset = int64(6 + r.Pick(3))
		}
		if r.Pick(2) == 1 {
			for _, n := range m.nodes {
				if slices.Contains(channelsLastOperators, n.GetOpType()) {
					n.Domain = proto.String(ChannelsLastDomain)
				}
			}
		}
		m.outputs = []*onnxpb.ValueInfoProto{{Name: proto.String(names[len(names)-1]),
			Type: &onnxpb.TypeProto{Value: &onnxpb.TypeProto_TensorType{TensorType: &onnxpb.TypeProto_Tensor{ElemType: proto.Int32(int32(onnxpb.TensorProto_DOUBLE))}}}}}
		res, err := Import(m.bytes(t), "f.onnx", Options{MaxElements: 1 << 12, MaxTotalElements: 1 << 14})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "node '") && !strings.HasPrefix(err.Error(), "graph output") {
				t.Fatalf("an error that names no node: %v", err)
			}
			return
		}
		evalImported(t, res)
	})
}
