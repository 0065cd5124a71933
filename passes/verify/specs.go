package verify

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// opSpec is what the verifier knows about one operation: its form and the
// semantic rules checked once the form holds.
type opSpec struct {
	form  form
	check func(v *verifier, op *ir.Operation) *diag.Diagnostic
}

// specs maps every registered operation to its spec. A test keeps it in step
// with ir.OpNames.
var specs = map[string]*opSpec{}

// exactly is a form with fixed operand and result counts and no regions.
func exactly(operands, results int, attrs ...attrReq) form {
	return form{minOperands: operands, maxOperands: operands, results: results, attrs: attrs}
}

func init() {
	str := func(name string) attrReq { return attrReq{name, needString} }
	slice := []attrReq{{"static_offsets", needDenseI64}, {"static_sizes", needDenseI64}, {"static_strides", needDenseI64}}

	add := func(name string, f form, check func(*verifier, *ir.Operation) *diag.Diagnostic) {
		specs[name] = &opSpec{form: f, check: check}
	}
	add(ir.OpModule, form{results: 0, regions: 1}, checkModule)
	add(ir.OpKernel, form{results: 0, regions: 1, attrs: []attrReq{str("sym_name"), {"function_type", needFuncType}}}, checkKernel)
	add(ir.OpReturn, exactly(0, 0), nil) // placement: checkPlacement
	add(ir.OpBarrier, exactly(0, 0), nil)
	add(ir.OpConstant, exactly(0, 1, attrReq{"value", needConstValue}), checkConstant)
	add(ir.OpProgramID, exactly(0, 1, attrReq{"axis", needInt}), checkAxis)
	add(ir.OpNumProgs, exactly(0, 1, attrReq{"axis", needInt}), checkAxis)

	add(ir.OpAlloc, exactly(0, 1), checkAlloc)
	add(ir.OpDMA, form{minOperands: 2, maxOperands: 3, results: 1}, checkDMA)
	add(ir.OpLoad, exactly(1, 1), checkLoad)
	add(ir.OpStore, exactly(2, 0), checkStore)
	add(ir.OpAtomic, exactly(2, 1, str("kind"), str("memory_order")), checkAtomic)
	add(ir.OpWait, form{maxOperands: -1, results: 0}, checkWait)

	for _, n := range []string{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDivS, ir.OpDivU, ir.OpRemS, ir.OpRemU,
		ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpShl, ir.OpShrS, ir.OpShrU, ir.OpMax, ir.OpMin} {
		add(n, exactly(2, 1), checkElementwise)
	}
	for _, n := range []string{ir.OpNeg, ir.OpNot, ir.OpAbs, ir.OpSqrt, ir.OpExp, ir.OpLog, ir.OpCast} {
		add(n, exactly(1, 1), checkElementwise)
	}
	add(ir.OpCmp, exactly(2, 1, str("kind")), checkElementwise)
	add(ir.OpSelect, exactly(3, 1), checkElementwise)

	add(ir.OpMatmul, exactly(3, 1), checkMatmul)
	add(ir.OpReshape, exactly(1, 1), checkReshape)
	add(ir.OpTranspose, exactly(1, 1, attrReq{"permutation", needDenseI64}), checkTranspose)
	add(ir.OpExtractSlice, form{minOperands: 1, maxOperands: -1, results: 1, attrs: slice}, checkExtractSlice)
	add(ir.OpInsertSlice, form{minOperands: 2, maxOperands: -1, results: 1, attrs: slice}, checkInsertSlice)

	add(ir.OpFor, form{minOperands: 3, maxOperands: -1, results: -1, regions: 1}, checkFor)
	add(ir.OpIf, form{minOperands: 1, maxOperands: 1, results: -1, regions: 2}, checkIf)
	add(ir.OpYield, form{maxOperands: -1, results: 0}, checkYield)
}
