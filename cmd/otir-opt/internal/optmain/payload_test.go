package optmain

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
)

// test-payload reads the run's payload (--params) and removes its file, so
// that a second read of the file would fail.
func init() {
	passes.Register(passes.Info{Name: "test-payload", Summary: "reads the payload, then removes its file"},
		func(_ *passes.NoOptions, ctx *passes.Context) (passes.Pass, error) {
			return passes.PassFunc(func(*ir.Module) error {
				ps := passes.Use(ctx, tensor.NewPayloads)
				p, err := ps.Read("")
				if err != nil {
					return err
				}
				if len(p["w"].Data) != 1 {
					return os.ErrInvalid
				}
				os.Remove(ps.Default)
				return nil
			}), nil
		})
}

// --params is read once per run, by the first pass that needs it, and
// shared with every later pass (passes.Context), under --split-input-file
// too.
func TestParamsReadOnce(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	a := &npy.Array{DType: npy.Float64, Shape: []int{1}, Floats: []float64{3}}
	if err := npy.WriteNPZ(&b, &npy.NPZ{Names: []string{"w"}, Arrays: map[string]*npy.Array{"w": a}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.npz"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runOpt(t, dir, "const 1\n// -----\nconst 2\n", "--split-input-file", "--params", "p.npz", "--test-payload", "--test-payload")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "p.npz")); !os.IsNotExist(err) {
		t.Errorf("the test pass did not run: %v", err)
	}
}
