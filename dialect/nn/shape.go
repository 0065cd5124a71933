package nn

import (
	"errors"
	"fmt"

	"github.com/otir-dev/otir/ir"
)

// Shape nodes: nn.permute, nn.broadcast_to, nn.reshape, nn.flatten,
// nn.concat, nn.swap_first_two and nn.transpose3d_last_two. The shapes
// TorchLean stores in broadcastTo, reshape and flatten nodes are the
// operand and result types here.

// Operation names of the family.
const (
	OpPermute         = "nn.permute"
	OpBroadcastTo     = "nn.broadcast_to"
	OpReshape         = "nn.reshape"
	OpFlatten         = "nn.flatten"
	OpConcat          = "nn.concat"
	OpSwapFirstTwo    = "nn.swap_first_two"
	OpTranspose3dLast = "nn.transpose3d_last_two"
)

var shapeFamily = family{
	ops: []ir.OpDef{
		{Name: OpPermute, Summary: "axis i of the result is axis perm[i] of the input (x.permute(*perm))",
			Operands: unaryOperand, Results: []ir.ArgDef{{Name: "output", Doc: "out[i] = input.shape[perm[i]]"}},
			Attrs:   []ir.AttrDef{{Name: "perm", Kind: ir.AttrArray, Doc: "a permutation of 0..rank-1"}},
			Parents: graphParent, Verify: nodeHook(checkPermute), Infer: inferWith(checkPermute), Format: formatUnary},
		{Name: OpBroadcastTo, Summary: "copies the input along broadcast dimensions; shapes align from the back (torch.broadcast_to)",
			Operands: unaryOperand, Results: []ir.ArgDef{{Name: "output", Doc: "the target shape"}},
			Parents: graphParent, Verify: nodeHook(checkBroadcastTo), Format: formatUnary},
		{Name: OpReshape, Summary: "the same values, row-major, in the result's shape (x.reshape(shape))",
			Operands: unaryOperand, Results: []ir.ArgDef{{Name: "output", Doc: "as many elements as the input"}},
			Parents: graphParent, Verify: nodeHook(checkReshape), Format: formatUnary},
		{Name: OpFlatten, Summary: "the values, row-major, as a vector (torch.flatten(x))",
			Operands: unaryOperand, Results: []ir.ArgDef{{Name: "output", Doc: "[numel(input)]"}},
			Parents: graphParent, Verify: nodeHook(flat), Infer: inferWith(flat), Format: formatUnary},
		{Name: OpConcat, Summary: "the inputs joined along axis, in operand order (torch.cat)",
			Operands: []ir.ArgDef{{Name: "inputs", Arity: ir.Variadic, Doc: "two or more tensors of one rank, equal but along axis"}},
			Results:  []ir.ArgDef{{Name: "output", Doc: "the inputs' shape, with the sum of their sizes at axis"}},
			Attrs:    []ir.AttrDef{{Name: "axis", Kind: ir.AttrInt, Doc: "the dimension joined along"}},
			Parents:  graphParent, Verify: nodeHook(checkConcat), Infer: inferWith(checkConcat),
			Format: "$inputs attr-dict `:` functional-type(operands, results)"},
		{Name: OpSwapFirstTwo, Summary: "swaps axes 0 and 1 (x.transpose(0, 1))",
			Operands: unaryOperand, Results: []ir.ArgDef{{Name: "output", Doc: "[b, a, rest...] for [a, b, rest...]"}},
			Parents: graphParent, Verify: nodeHook(checkSwapFirstTwo), Infer: inferWith(checkSwapFirstTwo), Format: formatUnary},
		{Name: OpTranspose3dLast, Summary: "swaps axes 1 and 2 of a rank-3 tensor (x.transpose(1, 2))",
			Operands: unaryOperand, Results: []ir.ArgDef{{Name: "output", Doc: "[a, c, b] for [a, b, c]"}},
			Parents: graphParent, Verify: nodeHook(checkTranspose3dLastTwo), Infer: inferWith(checkTranspose3dLastTwo), Format: formatUnary},
	},
}

// checkPermute: perm has one entry per dimension of the input, each a
// dimension, none repeated; out[i] = input.shape[perm[i]].
func checkPermute(n *node) ([]int64, error) {
	x := n.ins[0]
	perm, err := n.intList("perm")
	if err != nil {
		return nil, err
	}
	if len(perm) != x.Rank() {
		return nil, fmt.Errorf("perm %s must have one entry per dimension of the input (rank %d)", shapeText(perm), x.Rank())
	}
	seen := make([]bool, x.Rank())
	out := make([]int64, len(perm))
	for i, p := range perm {
		if p < 0 || p >= int64(x.Rank()) {
			return nil, fmt.Errorf("perm %s: entry %d is not a dimension of the input (rank %d)", shapeText(perm), p, x.Rank())
		}
		if seen[p] {
			return nil, fmt.Errorf("perm %s repeats dimension %d", shapeText(perm), p)
		}
		seen[p] = true
		out[i] = x.Shape[p]
	}
	return out, nil
}

// checkBroadcastTo: the input broadcasts to the declared result as in
// PyTorch: the shapes align from the back, the input has no more
// dimensions than the result, and each of its dimensions equals the
// result's or is 1 (TorchLean matches from the front; the two differ for
// some lower-rank inputs, docs/nn.md).
func checkBroadcastTo(n *node) ([]int64, error) {
	if n.res == nil {
		return nil, errNeedsResult
	}
	x, t := n.ins[0], n.res
	if x.Rank() > t.Rank() {
		return nil, fmt.Errorf("cannot broadcast '%s' to '%s': the input has more dimensions than the result", x, t)
	}
	off := t.Rank() - x.Rank()
	for i, d := range x.Shape {
		if d != 1 && d != t.Shape[off+i] {
			return nil, fmt.Errorf("cannot broadcast '%s' to '%s': input dimension %d (%d) is neither 1 nor the result's dimension %d (%d); shapes align from the back", x, t, i, d, off+i, t.Shape[off+i])
		}
	}
	return t.Shape, nil
}

// checkReshape: the result has as many elements as the input.
func checkReshape(n *node) ([]int64, error) {
	if n.res == nil {
		return nil, errNeedsResult
	}
	x, t := n.ins[0], n.res
	if numel(x.Shape) != numel(t.Shape) {
		return nil, fmt.Errorf("cannot reshape '%s' (%d elements) to '%s' (%d elements)", x, numel(x.Shape), t, numel(t.Shape))
	}
	return t.Shape, nil
}

// flat: the result is [numel(input)].
func flat(n *node) ([]int64, error) { return []int64{numel(n.ins[0].Shape)}, nil }

// checkConcat: two or more inputs of one rank; axis is a dimension; the
// inputs agree but along axis, where the result has the sum of their
// sizes.
func checkConcat(n *node) ([]int64, error) {
	if len(n.ins) < 2 {
		return nil, fmt.Errorf("takes two or more operands, but got %d", len(n.ins))
	}
	first := n.ins[0]
	for i, x := range n.ins[1:] {
		if x.Rank() != first.Rank() {
			return nil, fmt.Errorf("operand #%d ('%s') must have the rank of operand #0 ('%s')", i+1, x, first)
		}
	}
	a, err := n.axis(first.Rank())
	if err != nil {
		return nil, err
	}
	out := append([]int64{}, first.Shape...)
	for i, x := range n.ins[1:] {
		for d := range x.Shape {
			if d != a && x.Shape[d] != first.Shape[d] {
				return nil, fmt.Errorf("operand #%d ('%s') differs from operand #0 ('%s') in dimension %d; only axis %d may differ", i+1, x, first, d, a)
			}
		}
		out[a] += x.Shape[a]
	}
	return out, nil
}

// checkSwapFirstTwo: rank 2 or more; dimensions 0 and 1 swap.
func checkSwapFirstTwo(n *node) ([]int64, error) {
	x := n.ins[0]
	if x.Rank() < 2 {
		return nil, fmt.Errorf("input must have rank 2 or more, but got '%s'", x)
	}
	out := append([]int64{}, x.Shape...)
	out[0], out[1] = out[1], out[0]
	return out, nil
}

// checkTranspose3dLastTwo: rank exactly 3; dimensions 1 and 2 swap.
func checkTranspose3dLastTwo(n *node) ([]int64, error) {
	x := n.ins[0]
	if x.Rank() != 3 {
		return nil, errors.New("input must have rank 3, but got '" + x.String() + "'")
	}
	return []int64{x.Shape[0], x.Shape[2], x.Shape[1]}, nil
}
