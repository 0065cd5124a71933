package nneval

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/backend/tensor"
)

// evalText parses a graph and evaluates it on inputs, returning the error,
// how long it took and how many bytes it allocated.
func evalText(t *testing.T, src string, ins []*tensor.Tensor, p tensor.Payload, opts Options) (error, time.Duration, uint64) {
	t.Helper()
	g := parseGraph(t, "b.mlir", src)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := Eval(g, ins, p, opts)
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	return err, d, after.TotalAlloc - before.TotalAlloc
}

// TestDefaultBudgets: with the default options, a graph that would blow
// the memory budget (one value of 2 GiB beside its input) or the work
// budget (a 9.7e9 multiply-accumulate convolution) fails at the node,
// within a second and before allocating its result.
func TestDefaultBudgets(t *testing.T) {
	for _, c := range []struct {
		name, src string
		ins       []*tensor.Tensor
		want      string
	}{
		{"2 GiB value", `nn.graph @g(%x: tensor<1xf64>) -> tensor<16384x16384xf64> {
  %a = nn.broadcast_to %x : (tensor<1xf64>) -> tensor<16384x16384xf64>
  nn.return %a : tensor<16384x16384xf64>
}
`, []*tensor.Tensor{tensor.New([]int64{1})}, "b.mlir:2:3: error: 'nn.broadcast_to' op %a: evaluating it takes 2147483648 bytes (result 'tensor<16384x16384xf64>'), 2147483656 with the graph's values up to it, more than the memory budget of 2147483648 bytes"},
		{"9.7e9-MAC convolution", `nn.graph @g(%x: tensor<1x512x64x64xf64>) -> tensor<1x512x64x64xf64> {
  %c = nn.conv2d %x {kernel = [3, 3], params = "conv", stride = 1, padding = 1} : (tensor<1x512x64x64xf64>) -> tensor<1x512x64x64xf64>
  nn.return %c : tensor<1x512x64x64xf64>
}
`, []*tensor.Tensor{tensor.New([]int64{1, 512, 64, 64})}, "b.mlir:2:3: error: 'nn.conv2d' op %c: the graph's nodes up to this one take more than 4294967296 multiply-accumulates"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err, d, alloc := evalText(t, c.src, c.ins, nil, Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if d > time.Second || alloc > 1<<20 {
				t.Errorf("failed after %v and %d bytes allocated, not before the node's work", d, alloc)
			}
		})
	}
}

// TestMemoryBudget: the inputs, the payload, every kept value and a
// quantized node's temporaries count; the node that would cross the budget
// is named before it allocates.
func TestMemoryBudget(t *testing.T) {
	float := `nn.graph @g(%x: tensor<4x8xf64>) -> tensor<8x4xf64> {
  %t = nn.permute %x {perm = [1, 0]} : (tensor<4x8xf64>) -> tensor<8x4xf64>
  %r = nn.relu %t : (tensor<8x4xf64>) -> tensor<8x4xf64>
  nn.return %r : tensor<8x4xf64>
}
`
	quantized := `nn.graph @g(%x: tensor<4x8x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x8x!quant.uniform<i8:f64, 0.0625>> {
  %r = nn.relu %x : (tensor<4x8x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x8x!quant.uniform<i8:f64, 0.0625>>
  nn.return %r : tensor<4x8x!quant.uniform<i8:f64, 0.0625>>
}
`
	x := tensor.New([]int64{4, 8})
	// Float: x 256 bytes, %t 256, %r 256. Quantized: x 256 + its exact
	// value 256; %r keeps 512 and needs 2·256 + 4·256 of temporaries.
	for _, c := range []struct {
		src  string
		p    tensor.Payload
		max  int64
		want string
	}{
		{float, nil, 768, ""},
		{float, nil, 767, "b.mlir:3:3: error: 'nn.relu' op %r: evaluating it takes 256 bytes (result 'tensor<8x4xf64>'), 768 with the graph's values up to it, more than the memory budget of 767 bytes"},
		{float, nil, 511, "'nn.permute' op %t"},
		{float, nil, 255, "b.mlir:1:1: error: 'nn.graph' op graph @g: the inputs and the payload take 256 bytes, more than the memory budget of 255 bytes"},
		{float, tensor.Payload{"unused": tensor.New([]int64{64})}, 1000, "'nn.permute' op %t"},
		{quantized, nil, 2560, ""},
		{quantized, nil, 2559, "b.mlir:2:3: error: 'nn.relu' op %r: evaluating it takes 2048 bytes"},
	} {
		err, _, _ := evalText(t, c.src, []*tensor.Tensor{x}, c.p, Options{MaxBytes: c.max})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("budget %d: got %v, want %q", c.max, err, c.want)
		}
	}
}

// TestInputFileBudget: an input .npy whose shape would take more than the
// memory budget to read is refused after its header, without reading its
// data.
func TestInputFileBudget(t *testing.T) {
	var hdr bytes.Buffer
	if err := npy.WriteArray(&hdr, &npy.Array{DType: npy.Float64, Shape: []int{0, 0}}); err != nil {
		t.Fatal(err)
	}
	head := strings.Replace(hdr.String(), "(0, 0)", "(16384, 16384)", 1)
	head = strings.Replace(head, strings.Repeat(" ", len(head)-hdr.Len())+"\n", "\n", 1)
	path := filepath.Join(t.TempDir(), "x.npy")
	if err := os.WriteFile(path, []byte(head), 0o666); err != nil {
		t.Fatal(err)
	}
	_, err := tensor.ReadTensorFile(path)
	want := "npy: shape (16384, 16384) of float64 needs 4294967296 bytes, which exceeds the memory limit of 2147483648 bytes"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}
