package tensor

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sync"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/internal/outfile"
)

// FromNPY is the tensor of an array of any numeric dtype (as float64). A
// float array's values are the tensor's, not copied.
func FromNPY(a *npy.Array) *Tensor {
	data := a.Floats
	if a.DType.Kind != 'f' {
		data = a.Float64s()
	}
	t := &Tensor{Shape: make([]int64, len(a.Shape)), Data: data}
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
	return PayloadOf(z), nil
}

// PayloadOf is the payload of an .npz archive's arrays, by key.
func PayloadOf(z *npy.NPZ) Payload {
	p := Payload{}
	for k, a := range z.Arrays {
		p[k] = FromNPY(a)
	}
	return p
}

// WritePayloadFile writes p as an .npz archive of float64 arrays, by key
// in sorted order (what ReadPayloadFile reads back), replacing path only
// when it is written completely (outfile.Write).
func WritePayloadFile(path string, p Payload) error {
	z := &npy.NPZ{Names: slices.Sorted(maps.Keys(p)), Arrays: map[string]*npy.Array{}}
	for k, v := range p {
		z.Arrays[k] = v.NPY()
	}
	return outfile.Write(path, func(w io.Writer) error { return npy.WriteNPZ(w, z) })
}

// Payloads reads payload files for the passes of one run, each file once:
// nn-absorb-quant, nn-quantize and nn-to-otir read the same payload, given
// by their params option or, when it names none, by Default (otir-opt
// --params FILE). No file at all is an empty payload (a node that needs
// parameters then names the missing key). The payloads it returns are
// shared: their readers do not change them.
type Payloads struct {
	// Default is the file of a pass that names none ("": none).
	Default string

	mu   sync.Mutex
	read map[string]payloadRead
}

type payloadRead struct {
	p   Payload
	err error
}

// NewPayloads is a Payloads without a default file.
func NewPayloads() *Payloads { return &Payloads{} }

// File is the file Read(path) reads: path, or Default ("": none).
func (ps *Payloads) File(path string) string {
	if path == "" {
		return ps.Default
	}
	return path
}

// Read returns the payload of path ("": Default), reading the file the
// first time it is asked for.
func (ps *Payloads) Read(path string) (Payload, error) {
	path = ps.File(path)
	if path == "" {
		return Payload{}, nil
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if r, ok := ps.read[path]; ok {
		return r.p, r.err
	}
	p, err := ReadPayloadFile(path)
	if err != nil {
		err = fmt.Errorf("reading the payload %s: %v", path, err)
	}
	if ps.read == nil {
		ps.read = map[string]payloadRead{}
	}
	ps.read[path] = payloadRead{p, err}
	return p, err
}

// MaxBytes is the memory budget of nn values: the most a tensor file may
// take to read, and the evaluator's default budget (nneval.DefaultMaxBytes).
const MaxBytes = 2 << 30

// ReadTensorFile reads an .npy file, refusing after its header one that
// would take more than MaxBytes of memory to read.
func ReadTensorFile(path string) (*Tensor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := npy.ReadArrayLimit(bufio.NewReader(f), MaxBytes)
	if err != nil {
		return nil, err
	}
	return FromNPY(a), nil
}

// WriteTensorFile writes t as a float64 .npy file, replacing path only
// when it is written completely (outfile.Write).
func WriteTensorFile(path string, t *Tensor) error {
	return outfile.Write(path, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if err := npy.WriteArray(bw, t.NPY()); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// MaxBatch bounds the samples of a batch (Batch, SplitBatch).
const MaxBatch = 1 << 20

// Batch cuts t into samples of the given shape: t itself, one sample and
// batched false, when it has that shape; or its slices along a leading
// batch dimension ([N, ...shape], N ≥ 0), batched true. The samples share
// t's data.
func Batch(t *Tensor, shape []int64) (samples []*Tensor, batched bool, err error) {
	if slices.Equal(t.Shape, shape) {
		return []*Tensor{t}, false, nil
	}
	if len(t.Shape) != len(shape)+1 || !slices.Equal(t.Shape[1:], shape) {
		return nil, false, fmt.Errorf("shape %s is neither the argument's %s nor a batch of it %s", ShapeText(t.Shape), ShapeText(shape), batchText(shape))
	}
	n := t.Shape[0]
	if n > MaxBatch {
		return nil, false, fmt.Errorf("%d samples (at most %d)", n, MaxBatch)
	}
	size := NumElements(shape)
	samples = make([]*Tensor, n)
	for i := range n {
		samples[i] = &Tensor{Shape: shape, Data: t.Data[i*size : (i+1)*size]}
	}
	return samples, true, nil
}

// batchText is the shape of a batch of shape: [N, 1, 16].
func batchText(shape []int64) string {
	if len(shape) == 0 {
		return "[N]"
	}
	return "[N, " + ShapeText(shape)[1:]
}

// SplitBatch is Batch for what needs at least one sample: an empty batch
// (N = 0) is an error, since calibration or a comparison on no samples
// would report ranges or errors of nothing.
func SplitBatch(t *Tensor, shape []int64) ([]*Tensor, error) {
	samples, _, err := Batch(t, shape)
	if err == nil && len(samples) == 0 {
		err = fmt.Errorf("shape %s is a batch of no samples", ShapeText(t.Shape))
	}
	return samples, err
}
