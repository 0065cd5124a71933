package nn

import "github.com/otir-dev/otir/ir"

// Constants: nn.const, whose values are the payload's entry `params`.

// Operation names of the family.
const OpConst = "nn.const"

var constFamily = family{
	ops: []ir.OpDef{
		{Name: OpConst, Summary: "a constant tensor: the payload entry params, row-major, reshaped to the result type",
			Results: outputResult,
			Attrs:   []ir.AttrDef{{Name: "params", Kind: ir.AttrString, Doc: "the payload key; the entry holds numel(result) values, of any array shape"}},
			Parents: graphParent, Verify: nodeHook(checkConst),
			Format: formatNullary},
	},
}

// checkConst: a non-empty payload name; the result is any tensor (the
// payload's element count is the evaluator's check).
func checkConst(n *node) ([]int64, error) {
	if err := n.params(); err != nil {
		return nil, err
	}
	return n.declared()
}
