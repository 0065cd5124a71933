package ir

import "strconv"

// prettyFits reports whether op has the operands, results, regions and
// attributes its pretty form needs; anything else prints generically, so the
// printer never fails on malformed IR.
func prettyFits(op *Operation, d *OpDef) bool {
	nOps, nRes, nReg := len(op.Operands), len(op.Results), len(op.Regions)
	if d.Syntax != SyntaxModule && !hasOnlyAttrs(op, d) {
		return false
	}
	for _, v := range op.Operands {
		if v == nil || v.Type == nil {
			return false
		}
	}
	for _, v := range op.Results {
		if v == nil || v.Type == nil {
			return false
		}
	}
	if d.Syntax != SyntaxFor && d.Syntax != SyntaxIf && d.Syntax != SyntaxModule && d.Syntax != SyntaxKernel && nReg != 0 {
		return false
	}
	_, strKind := op.Attr("kind").(*StringAttr)
	switch d.Syntax {
	case SyntaxModule:
		return nOps == 0 && nRes == 0 && nReg == 1 && len(op.Regions[0].Blocks) == 1 && len(op.Regions[0].Blocks[0].Args) == 0
	case SyntaxKernel:
		_, named := op.Attr("sym_name").(*StringAttr)
		_, fn := op.Attr("function_type").(*FunctionType)
		return named && fn && nOps == 0 && nRes == 0 && nReg == 1 && len(op.Regions[0].Blocks) == 1
	case SyntaxNullary:
		return nOps == 0 && nRes == 0
	case SyntaxConstant:
		v := op.Attr("value")
		if nOps != 0 || nRes != 1 || v == nil {
			return false
		}
		switch a := v.(type) {
		case *IntAttr:
			return a.Type == op.Results[0].Type
		case *FloatAttr:
			return Type(a.Type) == op.Results[0].Type
		case *DenseAttr:
			return Type(a.Type) == op.Results[0].Type
		}
		return false
	case SyntaxAxis:
		_, ok := op.IntAttr("axis")
		return ok && nOps == 0 && nRes == 1 && op.Results[0].Type == Index()
	case SyntaxAlloc:
		return nOps == 0 && nRes == 1
	case SyntaxBinary:
		return nOps == 2 && nRes == 1
	case SyntaxUnary, SyntaxConvert:
		return nOps == 1 && nRes == 1
	case SyntaxCmp:
		return nOps == 2 && nRes == 1 && strKind
	case SyntaxSelect, SyntaxMatmul:
		return nOps == 3 && nRes == 1
	case SyntaxDMA:
		return (nOps == 2 || nOps == 3) && nRes == 1
	case SyntaxStore:
		return nOps == 2 && nRes == 0
	case SyntaxAtomic:
		_, order := op.Attr("memory_order").(*StringAttr)
		return nOps == 2 && nRes == 1 && strKind && order
	case SyntaxTranspose:
		_, perm := op.Attr("permutation").(*DenseI64Attr)
		return nOps == 1 && nRes == 1 && perm
	case SyntaxExtractSlice, SyntaxInsertSlice:
		src := 1
		if d.Syntax == SyntaxInsertSlice {
			src = 2
		}
		offs, ok1 := op.Attr("static_offsets").(*DenseI64Attr)
		sizes, ok2 := op.Attr("static_sizes").(*DenseI64Attr)
		strides, ok3 := op.Attr("static_strides").(*DenseI64Attr)
		if !ok1 || !ok2 || !ok3 || nRes != 1 || nOps < src {
			return false
		}
		dyn := 0
		for _, o := range offs.Values {
			if o == DynamicOffset {
				dyn++
			}
		}
		return dyn == nOps-src && len(offs.Values) == len(sizes.Values) && len(sizes.Values) == len(strides.Values) && len(offs.Values) > 0
	case SyntaxWait:
		return nRes == 0
	case SyntaxYield:
		return nRes == 0
	case SyntaxFor:
		if nOps < 3 || nReg != 1 || len(op.Regions[0].Blocks) != 1 {
			return false
		}
		b := op.Regions[0].Blocks[0]
		iters := nOps - 3
		if len(b.Args) != iters+1 || nRes != iters {
			return false
		}
		return yieldFits(b, iters)
	case SyntaxIf:
		if nOps != 1 || nReg != 2 || len(op.Regions[0].Blocks) != 1 || len(op.Regions[1].Blocks) > 1 {
			return false
		}
		if len(op.Regions[0].Blocks[0].Args) != 0 || !yieldFits(op.Regions[0].Blocks[0], nRes) {
			return false
		}
		if len(op.Regions[1].Blocks) == 0 {
			return nRes == 0
		}
		return len(op.Regions[1].Blocks[0].Args) == 0 && yieldFits(op.Regions[1].Blocks[0], nRes)
	}
	return false
}

// yieldFits reports whether the block ends in scf.yield, so that an elided
// operand-less yield can be restored by the parser.
func yieldFits(b *Block, n int) bool {
	if n == 0 {
		return true
	}
	t := b.Terminator()
	return t != nil && t.Name == OpYield
}

// pretty prints op in its custom form, or returns false having printed
// nothing when the op does not fit that form.
func (p *printer) pretty(op *Operation, d *OpDef, depth int) bool {
	if !prettyFits(op, d) {
		return false
	}
	p.results(op)
	if d.Syntax == SyntaxModule {
		p.str("module")
		if len(op.Attrs) > 0 {
			p.str(" attributes ")
			p.str(op.Attrs.String())
		}
		p.w.WriteByte(' ')
		p.region(op.Regions[0], depth, false, true)
		return true
	}
	p.str(op.Name)
	ops := op.Operands
	switch d.Syntax {
	case SyntaxKernel:
		p.kernel(op, depth)
	case SyntaxNullary:
	case SyntaxConstant:
		p.w.WriteByte(' ')
		p.str(op.Attr("value").String())
	case SyntaxAxis:
		ax, _ := op.IntAttr("axis")
		p.str(" axis(" + strconv.FormatInt(ax, 10) + ")")
	case SyntaxAlloc:
		p.str("() : " + op.Results[0].Type.String())
	case SyntaxBinary, SyntaxUnary:
		p.w.WriteByte(' ')
		p.vals(ops)
		p.elementwiseTypes(op)
	case SyntaxCmp:
		k, _ := op.StringAttr("kind")
		p.str(" kind(" + k + ") ")
		p.vals(ops)
		p.funcTypes(op)
	case SyntaxSelect, SyntaxMatmul, SyntaxDMA:
		p.w.WriteByte(' ')
		p.vals(ops)
		p.funcTypes(op)
	case SyntaxConvert:
		p.w.WriteByte(' ')
		p.val(ops[0])
		p.str(" : " + ops[0].Type.String() + " -> " + op.Results[0].Type.String())
	case SyntaxStore:
		p.w.WriteByte(' ')
		p.vals(ops)
		p.str(" : ")
		p.valueTypes(op.Operands, false)
	case SyntaxAtomic:
		k, _ := op.StringAttr("kind")
		mo, _ := op.StringAttr("memory_order")
		p.w.WriteByte(' ')
		p.vals(ops)
		p.str(", kind(" + k + "), memory_order(" + mo + ") : ")
		p.valueTypes(op.Operands, false)
		p.str(" -> " + op.Results[0].Type.String())
	case SyntaxTranspose:
		perm := op.Attr("permutation").(*DenseI64Attr)
		p.w.WriteByte(' ')
		p.val(ops[0])
		p.str(", permutation(")
		p.ints(perm.Values)
		p.str(") : " + ops[0].Type.String() + " -> " + op.Results[0].Type.String())
	case SyntaxExtractSlice:
		p.w.WriteByte(' ')
		p.val(ops[0])
		p.sliceBounds(op, ops[1:])
		p.str(" : " + ops[0].Type.String() + " to " + op.Results[0].Type.String())
	case SyntaxInsertSlice:
		p.w.WriteByte(' ')
		p.val(ops[0])
		p.str(" into ")
		p.val(ops[1])
		p.sliceBounds(op, ops[2:])
		p.str(" : " + ops[0].Type.String() + " into " + ops[1].Type.String())
	case SyntaxWait:
		p.str(" [")
		p.vals(ops)
		p.w.WriteByte(']')
	case SyntaxYield:
		if len(ops) > 0 {
			p.w.WriteByte(' ')
			p.vals(ops)
			p.str(" : ")
			p.valueTypes(op.Operands, false)
		}
	case SyntaxFor:
		b := op.Regions[0].Blocks[0]
		p.w.WriteByte(' ')
		p.val(b.Args[0])
		p.str(" = ")
		p.val(ops[0])
		p.str(" to ")
		p.val(ops[1])
		p.str(" step ")
		p.val(ops[2])
		if len(ops) > 3 {
			p.str(" iter_args(")
			for i, init := range ops[3:] {
				if i > 0 {
					p.str(", ")
				}
				p.val(b.Args[i+1])
				p.str(" = ")
				p.val(init)
			}
			p.str(") -> ")
			p.valueTypes(op.Results, true)
		}
		p.w.WriteByte(' ')
		p.region(op.Regions[0], depth, false, false)
	case SyntaxIf:
		p.w.WriteByte(' ')
		p.val(ops[0])
		if len(op.Results) > 0 {
			p.str(" -> ")
			p.valueTypes(op.Results, true)
		}
		p.w.WriteByte(' ')
		p.region(op.Regions[0], depth, false, false)
		if len(op.Regions[1].Blocks) > 0 {
			p.str(" else ")
			p.region(op.Regions[1], depth, false, false)
		}
	}
	return true
}

func (p *printer) ints(vs []int64) {
	for i, v := range vs {
		if i > 0 {
			p.str(", ")
		}
		p.str(strconv.FormatInt(v, 10))
	}
}

// elementwiseTypes prints ": T" when operands and result share one type, else
// ": (T1, T2) -> T3".
func (p *printer) elementwiseTypes(op *Operation) {
	r := op.Results[0].Type
	if sameOperandTypes(r, op) {
		p.str(" : ")
		p.str(r.String())
		return
	}
	p.funcTypes(op)
}

// funcTypes prints ": (T1, T2) -> T3".
func (p *printer) funcTypes(op *Operation) {
	p.str(" : ")
	p.valueTypes(op.Operands, true)
	p.str(" -> ")
	p.str(op.Results[0].Type.String())
}

// sliceBounds prints "[%o, 0] [16, 4] [1, 1]".
func (p *printer) sliceBounds(op *Operation, dyn []*Value) {
	offs := op.Attr("static_offsets").(*DenseI64Attr).Values
	p.w.WriteByte('[')
	k := 0
	for i, o := range offs {
		if i > 0 {
			p.str(", ")
		}
		if o == DynamicOffset {
			p.val(dyn[k])
			k++
		} else {
			p.str(strconv.FormatInt(o, 10))
		}
	}
	p.str("] [")
	p.ints(op.Attr("static_sizes").(*DenseI64Attr).Values)
	p.str("] [")
	p.ints(op.Attr("static_strides").(*DenseI64Attr).Values)
	p.w.WriteByte(']')
}

// kernel prints " @name(%arg0: T, ...) attributes {...} { body }".
func (p *printer) kernel(op *Operation, depth int) {
	name, _ := op.StringAttr("sym_name")
	p.str(" @" + symbolName(name) + "(")
	b := op.Regions[0].Blocks[0]
	for i, a := range b.Args {
		if i > 0 {
			p.str(", ")
		}
		p.val(a)
		p.str(": " + a.Type.String())
	}
	p.w.WriteByte(')')
	var rest Attrs
	for _, a := range op.Attrs {
		if a.Name != "sym_name" && a.Name != "function_type" {
			rest = append(rest, a)
		}
	}
	if len(rest) > 0 {
		p.str(" attributes " + rest.String())
	}
	p.w.WriteByte(' ')
	p.region(op.Regions[0], depth, false, true)
}

// symbolName quotes a symbol that is not a bare identifier.
func symbolName(s string) string {
	if s == "" {
		return `""`
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '.' || c == '$' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return strconv.Quote(s)
		}
	}
	return s
}
