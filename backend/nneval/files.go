package nneval

import (
	"bufio"
	"os"

	"github.com/otir-dev/otir/backend/npy"
)

// FromNPY is the tensor of an array of any numeric dtype (as float64).
func FromNPY(a *npy.Array) *Tensor {
	t := &Tensor{Shape: make([]int64, len(a.Shape)), Data: a.Float64s()}
	for i, d := range a.Shape {
		t.Shape[i] = int64(d)
	}
	return t
}

// NPY is the float64 array of a tensor.
func (t *Tensor) NPY() *npy.Array {
	a := &npy.Array{DType: npy.Float64, Shape: make([]int, len(t.Shape)), Floats: t.Data}
	for i, d := range t.Shape {
		a.Shape[i] = int(d)
	}
	return a
}

// ReadPayloadFile reads a payload: an .npz archive (numpy.savez of a
// state_dict), its arrays by key.
func ReadPayloadFile(path string) (Payload, error) {
	z, err := npy.ReadNPZFile(path)
	if err != nil {
		return nil, err
	}
	p := Payload{}
	for k, a := range z.Arrays {
		p[k] = FromNPY(a)
	}
	return p, nil
}

// ReadTensorFile reads an .npy file.
func ReadTensorFile(path string) (*Tensor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := npy.ReadArray(bufio.NewReader(f))
	if err != nil {
		return nil, err
	}
	return FromNPY(a), nil
}

// WriteTensorFile writes t as a float64 .npy file.
func WriteTensorFile(path string, t *Tensor) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	err = npy.WriteArray(bw, t.NPY())
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
