// Package qonnx implements nn-absorb-quant, the first step of
// nn-to-circuit: a float nn graph holding QONNX quantizers (nn.quant,
// nn.bipolar_quant, nn.trunc) becomes a quantized graph of integer nodes
// that computes exactly what the float graph computes, with no
// calibration: FINN's streamlining done in exact rational arithmetic
// (docs/nn-to-circuit.md, "QONNX graphs: absorbing quantizers").
package qonnx

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/otir-dev/otir/backend/tensor"
	"github.com/otir-dev/otir/dialect/nn"
	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
)

// Options are nn-absorb-quant's options.
type Options struct {
	// Input is the circuit's input type (input-type=fixed<W,I>); nil: each
	// input must be quantized by the graph's own nn.quant.
	Input *quant.UniformType
	// DropFinalSoftmax ends the circuit before a final nn.softmax.
	DropFinalSoftmax bool
	// SoftmaxBits is the fraction bits of a softmax lowered to lookup
	// tables (softmax.go).
	SoftmaxBits int
	// Tail is the file that receives a float tail the circuit cannot hold
	// exactly (empty: such a tail is an error).
	Tail string
}

// PassOptions are nn-absorb-quant's options: the payload file and the
// absorption's options.
type PassOptions struct {
	// Params is the payload .npz ("": the run's, otir-opt --params).
	Params string
	Options
}

// Declare declares the options.
func (o *PassOptions) Declare(d *passes.Decl) {
	DeclareParams(d, &o.Params, "the payload: an .npz of the graph's parameters")
	passes.Var(d, &o.Input, "input-type", nil, "the circuit's input type, fixed<W,I> or ufixed<W,I> (ap_fixed: W bits, I integer bits; the input is floored and wrapped); default: the code of the nn.quant that reads each input",
		func(s string) (*quant.UniformType, error) {
			if s == "" {
				return nil, nil
			}
			return ParseInputType(s)
		}, formatInputType)
	d.String(&o.Tail, "tail", "", "a file: where the outputs have no exact fixed-point form (a division, more than 62 bits), end the circuit before their float tail of affine nodes and write the tail there as a float nn.graph @NAME_tail for otir-run")
	d.Bool(&o.DropFinalSoftmax, "drop-final-softmax", false, "true: end the circuit before a final nn.softmax (the argmax is unchanged); false: a softmax becomes lookup tables of exp and inv (softmax-bits)")
	DeclareSoftmaxBits(d, &o.SoftmaxBits)
}

// DeclareParams declares params, the payload file of the nn passes
// (nn-absorb-quant, nn-quantize, nn-to-otir): empty, the payload the
// driver provides (passes.Context, otir-opt --params FILE).
func DeclareParams(d *passes.Decl, p *string, help string) {
	d.File(p, "params", help+" (default: otir-opt --params FILE)")
}

// ReadParams is the payload of a params option in the run's context, each
// file read once for all the passes of the run (tensor.Payloads).
func ReadParams(ctx *passes.Context, params string) (tensor.Payload, error) {
	return passes.Use(ctx, tensor.NewPayloads).Read(params)
}

var fixedRE = regexp.MustCompile(`^(u?)fixed<\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*>$`)

// ParseInputType reads fixed<W,I> or ufixed<W,I> (hls4ml's and Vivado's
// ap_fixed<W,I>: W bits in all, I of them integer bits, the sign included
// for fixed) as the quantized type of W bits at scale 2^-(W-I).
func ParseInputType(s string) (*quant.UniformType, error) {
	m := fixedRE.FindStringSubmatch(s)
	if m == nil {
		return nil, fmt.Errorf("expected fixed<W,I> or ufixed<W,I>: W bits, I of them integer")
	}
	w, err1 := strconv.Atoi(m[2])
	i, err2 := strconv.Atoi(m[3])
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("a number is out of range")
	}
	signed := m[1] == ""
	if err := quant.Check(w, signed, w-i); err != nil {
		return nil, err
	}
	return quant.Uniform(w, signed, w-i), nil
}

// formatInputType writes t as ParseInputType reads it ("" for nil).
func formatInputType(t *quant.UniformType) string {
	if t == nil {
		return ""
	}
	prefix := "fixed"
	if !t.Signed {
		prefix = "ufixed"
	}
	return fmt.Sprintf("%s<%d,%d>", prefix, t.Width, t.Width-t.Frac)
}

// Absorb replaces every nn.graph of m that holds QONNX quantizers by its
// quantized graph; other graphs are left as they are.
func Absorb(m *ir.Module, o Options, p tensor.Payload) error {
	return passes.ReplaceTopLevel(m,
		func(op *ir.Operation) bool { return op.Name == kGraph },
		func(op *ir.Operation) (*ir.Operation, error) { return absorbGraph(op, o, p) })
}

func init() {
	passes.Register(passes.Info{
		Name:    "nn-absorb-quant",
		Summary: "absorb a float nn.graph's QONNX quantizers (nn.quant, nn.bipolar_quant, nn.trunc, nn.float_quant, nn.multithreshold) into an exact quantized graph of integer nodes",
	}, func(o *PassOptions, ctx *passes.Context) (passes.Pass, error) {
		return passes.PassFunc(func(m *ir.Module) error {
			if !anyQuantizers(m) {
				return nil
			}
			p, err := ReadParams(ctx, o.Params)
			if err != nil {
				return err
			}
			return Absorb(m, o.Options, p)
		}), nil
	})
}

func anyQuantizers(m *ir.Module) bool {
	for _, g := range nn.Graphs(m) {
		if hasQuantizers(g) {
			return true
		}
	}
	return false
}
