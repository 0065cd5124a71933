package dais

import (
	"fmt"

	"github.com/otir-dev/otir/ir"
)

// Attribute helpers shared by the conversions and the verifier.

func i64(v int64) *ir.IntAttr { return ir.I64(v) }

func f64(v float64) *ir.FloatAttr { return &ir.FloatAttr{Value: v, Type: ir.Float(ir.F64)} }

// intAttr reads an integer attribute that fits an int64.
func intAttr(op *ir.Operation, name string) (int64, error) {
	a := op.Attr(name)
	if a == nil {
		return 0, fmt.Errorf("requires attribute '%s'", name)
	}
	ia, ok := a.(*ir.IntAttr)
	if !ok || ia.Value == nil {
		return 0, fmt.Errorf("attribute '%s' must be an integer", name)
	}
	v, ok := ia.Int64()
	if !ok {
		return 0, fmt.Errorf("attribute '%s' does not fit 64 bits", name)
	}
	return v, nil
}

// int32Attr reads an integer attribute that fits an int32.
func int32Attr(op *ir.Operation, name string) (int32, error) {
	v, err := intAttr(op, name)
	if err != nil {
		return 0, err
	}
	if v != int64(int32(v)) {
		return 0, fmt.Errorf("attribute '%s' (%d) does not fit 32 bits", name, v)
	}
	return int32(v), nil
}

// floatAttr reads an optional float (or integer) attribute; absent is 0.
func floatAttr(op *ir.Operation, name string) (float64, error) {
	switch a := op.Attr(name).(type) {
	case nil:
		return 0, nil
	case *ir.FloatAttr:
		return a.Value, nil
	case *ir.IntAttr:
		if v, ok := a.Int64(); ok {
			return float64(v), nil
		}
	}
	return 0, fmt.Errorf("attribute '%s' must be a number", name)
}

// i64Array reads an array<i64> attribute.
func i64Array(op *ir.Operation, name string) ([]int64, error) {
	a, ok := op.Attr(name).(*ir.DenseI64Attr)
	if !ok || a == nil {
		return nil, fmt.Errorf("requires array<i64> attribute '%s'", name)
	}
	return a.Values, nil
}

// kindAttr reads a string attribute naming one of kinds and returns its index.
func kindAttr(op *ir.Operation, kinds []string) (int, error) {
	s, ok := op.StringAttr("kind")
	if !ok {
		return 0, fmt.Errorf("requires string attribute 'kind' (one of %q)", kinds)
	}
	for i, k := range kinds {
		if k == s {
			return i, nil
		}
	}
	return 0, fmt.Errorf("attribute 'kind' must be one of %q, got %q", kinds, s)
}
