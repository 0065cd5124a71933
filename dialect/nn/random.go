package nn

import (
	"errors"
	"fmt"

	"github.com/otir-dev/otir/ir"
)

// Random nodes: nn.rand_uniform and nn.bernoulli_mask, deterministic from
// their seed and their node index by TorchLean's SplitMix64 generator
// (docs/nn.md).
//
// Their effect is ir.AllocEffect: each node is a fresh draw, so two of them
// are never the same value (CSE must not merge two nodes with one seed: their
// node indices differ), while an unused one may be dropped.

// Operation names of the family.
const (
	OpRandUniform   = "nn.rand_uniform"
	OpBernoulliMask = "nn.bernoulli_mask"
)

var seedAttr = ir.AttrDef{Name: "seed", Kind: ir.AttrInt, Doc: "a non-negative 64-bit seed; the node's key is mix(seed + node index)"}

var randomFamily = family{
	ops: []ir.OpDef{
		{Name: OpRandUniform, Summary: "uniform values in [0, 1) from the seed and the node index (SplitMix64, not torch.rand)",
			Results: outputResult, Attrs: []ir.AttrDef{seedAttr},
			Parents: graphParent, Effect: ir.AllocEffect, Verify: nodeHook(checkRandUniform),
			Format: formatNullary},
		{Name: OpBernoulliMask, Summary: "1.0 where keep_prob exceeds the node's uniform value, else 0.0",
			Operands: []ir.ArgDef{{Name: "keep_prob", Doc: "a rank-0 tensor: the probability of a 1"}},
			Results:  outputResult, Attrs: []ir.AttrDef{seedAttr},
			Parents: graphParent, Effect: ir.AllocEffect, Verify: nodeHook(checkBernoulliMask),
			Format: "$keep_prob attr-dict `:` functional-type(operands, results)"},
	},
	quant: map[string]quantRule{
		OpRandUniform:   {role: QuantForbidden, why: "a circuit has no random source"},
		OpBernoulliMask: {role: QuantForbidden, why: "a circuit has no random source"},
	},
}

// checkSeed: the seed is an integer in [0, 2^64).
func (n *node) checkSeed() error {
	v, err := n.intAttr("seed")
	if err != nil {
		return err
	}
	if v == nil {
		return errors.New("requires attribute 'seed'")
	}
	if v.Sign() < 0 || v.BitLen() > 64 {
		return fmt.Errorf("seed must be an integer in [0, 2^64), but got %s", v)
	}
	return nil
}

// checkRandUniform: a seed; any declared shape.
func checkRandUniform(n *node) ([]int64, error) {
	if err := n.checkSeed(); err != nil {
		return nil, err
	}
	return n.declared()
}

// checkBernoulliMask: a seed and a rank-0 keep probability; any declared
// shape.
func checkBernoulliMask(n *node) ([]int64, error) {
	if err := n.checkSeed(); err != nil {
		return nil, err
	}
	if n.ins[0].Rank() != 0 {
		return nil, fmt.Errorf("keep_prob must have rank 0, but got '%s'", n.ins[0])
	}
	return n.declared()
}
