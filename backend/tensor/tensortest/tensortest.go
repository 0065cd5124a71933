// Package tensortest holds the tests' helpers for tensor files.
package tensortest

import (
	"testing"

	"github.com/otir-dev/otir/backend/tensor"
)

// Read reads an .npy file (tensor.ReadTensorFile) and fails the test when
// it cannot.
func Read(t testing.TB, path string) *tensor.Tensor {
	t.Helper()
	x, err := tensor.ReadTensorFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// Write writes x as a float64 .npy file (tensor.WriteTensorFile) and fails
// the test when it cannot.
func Write(t testing.TB, path string, x *tensor.Tensor) {
	t.Helper()
	if err := tensor.WriteTensorFile(path, x); err != nil {
		t.Fatal(err)
	}
}
