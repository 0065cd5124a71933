package parse

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/ir"
)

// The other operations: generic forms, modules, kernels, control flow,
// memory, matrix and slice operations.

// generic builds an operation written in the generic form.
func (b *builder) generic(o *Operation, g *GenericOp) error {
	name := g.Name.Name
	ins, outs, err := funcTypes(g.Sig)
	if err != nil {
		return err
	}
	if len(ins) != len(g.Operands) {
		return errAt(g.Sig.Pos, "expected %d operand types but had %d", len(g.Operands), len(ins))
	}
	dict := g.Attrs
	if g.Props != nil {
		// Properties and attributes make one dictionary; a name in both
		// is a duplicate.
		dict = &AttrDict{Entries: append(append([]*AttrEntry(nil), g.Props.Entries...), attrEntries(g.Attrs)...)}
		g.Attrs = dict
	}
	attrs, err := b.attrDict(dict)
	if err != nil {
		return err
	}
	if name == ir.OpConstant {
		if v := attrs.Get("value"); v != nil {
			v = constantValue(v)
			if d, ok := v.(*ir.DenseAttr); ok && len(outs) == 1 && tensorTyped(dict, "value") {
				// dense<...> : tensor<...> takes the result's tile type.
				if rt, ok := outs[0].(*ir.TileType); ok && ir.Tile(d.Type.Shape, d.Type.Elem, rt.Space) == rt {
					v = &ir.DenseAttr{Type: rt, Ints: d.Ints, Floats: d.Floats}
				}
			}
			attrs.Set("value", v)
		}
	}
	b.newOp(o, name, g.Operands, ins, outs, attrs)
	o.late = true
	rb := b
	if name == ir.OpModule {
		if rb, err = b.forModule(attrs, g.Attrs); err != nil {
			return err
		}
	}
	for _, r := range g.Regions {
		if err := rb.region(o, regionSpec{ast: r}); err != nil {
			return err
		}
	}
	return nil
}

// forModule is the builder for a module's body, with the module's typing
// style. A style that is not "hls" or "cpp" is an error at the attribute
// (the verifier's words), before any operation needs it.
func (b *builder) forModule(attrs ir.Attrs, dict *AttrDict) (*builder, error) {
	nb := *b
	nb.style = "hls"
	if a := attrs.Get(styleAttr); a != nil {
		s, ok := a.(*ir.StringAttr)
		if !ok || s.Value != "hls" && s.Value != "cpp" {
			pos := lexer.Position{}
			if dict != nil {
				for _, e := range dict.Entries {
					if e.Name == styleAttr || e.Name == `"`+styleAttr+`"` {
						pos = e.Pos
					}
				}
			}
			return nil, errAt(pos, "attribute '%s' must be \"hls\" or \"cpp\", but got %s", styleAttr, a)
		}
		nb.style = s.Value
	}
	return &nb, nil
}

// prettyModule builds `module attributes {...} { ... }`.
func (b *builder) prettyModule(o *Operation, m *PrettyModule) error {
	attrs, err := b.attrDict(m.Attrs)
	if err != nil {
		return err
	}
	o.op = ir.NewOp(ir.OpModule, b.loc(m.Pos), nil, nil, attrs)
	o.prettyMod = m.Body
	o.text.start, o.text.line, o.text.col = int32(m.Pos.Offset), int32(m.Pos.Line), int32(m.Pos.Column)
	mb, err := b.forModule(attrs, m.Attrs)
	if err != nil {
		return err
	}
	return mb.region(o, regionSpec{ast: m.Body, pretty: true})
}

func (b *builder) forOp(o *Operation, f *ForOp) error {
	if len(f.Iters) != len(f.Types) {
		return errAt(o.namePos(), "mismatch in number of loop-carried values and defined values")
	}
	types, err := typesAt(o.Tokens, f.Types)
	if err != nil {
		return err
	}
	idx := ir.Index()
	uses := append(make([]string, 0, 3+len(f.Iters)), f.LB, f.UB, f.Step)
	useTys := append(make([]ir.Type, 0, 3+len(f.Iters)), idx, idx, idx)
	argTypes := append([]ir.Type{idx}, types...)
	argNames := []string{f.IV}
	argPos := []lexer.Position{tokPos(o.Tokens, f.IV)}
	for i, it := range f.Iters {
		uses = append(uses, it.Init)
		useTys = append(useTys, types[i])
		argNames = append(argNames, it.Name)
		argPos = append(argPos, it.Pos)
	}
	b.newOp(o, ir.OpFor, uses, useTys, types, nil)
	return b.region(o, regionSpec{ast: f.Body, argTypes: argTypes, argNames: argNames, argPos: argPos, pretty: true, implicitYield: true})
}

func (b *builder) ifOp(o *Operation, f *IfOp) error {
	types, err := typesAt(o.Tokens, f.Types)
	if err != nil {
		return err
	}
	b.newOp(o, ir.OpIf, []string{f.Cond}, []ir.Type{ir.Bool()}, types, nil)
	if err := b.region(o, regionSpec{ast: f.Then, pretty: true, implicitYield: true}); err != nil {
		return err
	}
	if f.Else == nil {
		o.op.Regions = append(o.op.Regions, &ir.Region{Parent: o.op})
		return nil
	}
	return b.region(o, regionSpec{ast: f.Else, pretty: true, implicitYield: true})
}

func (b *builder) kernel(o *Operation, k *KernelOp) error {
	attrs, err := b.attrDict(k.Attrs)
	if err != nil {
		return err
	}
	name := k.Sym[1:]
	if strings.HasPrefix(name, `"`) {
		if name, err = decodeString(name, o.namePos()); err != nil {
			return err
		}
	}
	spec := regionSpec{ast: k.Body, pretty: true}
	for _, a := range k.Args {
		t, err := typeAt(a.Tokens, a.Type)
		if err != nil {
			return err
		}
		spec.argTypes = append(spec.argTypes, t)
		spec.argNames = append(spec.argNames, a.Name)
		spec.argPos = append(spec.argPos, a.Tokens[0].Pos)
	}
	attrs.Set("sym_name", &ir.StringAttr{Value: name})
	attrs.Set("function_type", &ir.FunctionType{Inputs: append([]ir.Type(nil), spec.argTypes...)})
	b.newOp(o, ir.OpKernel, nil, nil, nil, attrs)
	return b.region(o, spec)
}

func (b *builder) dma(o *Operation, d *DMAOp) error {
	uses := []string{d.Src, d.Dst}
	if d.Mask != "" {
		uses = append(uses, d.Mask)
	}
	var ins, outs []ir.Type
	if d.Sig.Sig != "" {
		var err error
		if ins, outs, err = splitSig(d.Sig.Sig, d.Sig.Pos, true); err != nil {
			return err
		}
		if len(outs) != 1 {
			return errAt(d.Sig.Pos, "expected 1 result type, got %d", len(outs))
		}
	} else {
		typeTexts := []string{d.Sig.Src, d.Sig.Dst}
		if d.Sig.Mask != "" {
			typeTexts = append(typeTexts, d.Sig.Mask)
		}
		ts, err := typesAt(o.Tokens, append(typeTexts, d.Sig.Result))
		if err != nil {
			return err
		}
		ins, outs = ts[:len(typeTexts)], ts[len(typeTexts):]
	}
	if len(uses) != len(ins) {
		return errAt(o.namePos(), "%d operands present, but expected %d", len(uses), len(ins))
	}
	b.newOp(o, ir.OpDMA, uses, ins, outs, nil)
	return nil
}

func (b *builder) atomic(o *Operation, a *AtomicOp) error {
	if !oneOf(a.Kind, ir.AtomicKinds) {
		return errAt(tokPos(o.Tokens, a.Kind), "expected atomic kind to be one of: %s", strings.Join(ir.AtomicKinds, ", "))
	}
	if !oneOf(a.Order, ir.MemoryOrders) {
		return errAt(tokPos(o.Tokens, a.Order), "expected memory order to be one of: %s", strings.Join(ir.MemoryOrders, ", "))
	}
	ts, err := typesAt(o.Tokens, []string{a.PtrType, a.ValType, a.ResultType})
	if err != nil {
		return err
	}
	b.newOp(o, ir.OpAtomic, []string{a.Ptr, a.Val}, ts[:2], ts[2:], ir.Attrs{
		{Name: "kind", Value: &ir.StringAttr{Value: a.Kind}},
		{Name: "memory_order", Value: &ir.StringAttr{Value: a.Order}},
	})
	return nil
}

// ints parses a list of int64 literals of an operation.
func ints(o *Operation, ss []string) ([]int64, error) {
	vs := make([]int64, len(ss))
	for i, s := range ss {
		v, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			return nil, errAt(tokPos(o.Tokens, s), "integer constant out of range for attribute")
		}
		vs[i] = v
	}
	return vs, nil
}

func (b *builder) transpose(o *Operation, t *TransposeOp) error {
	perm, err := ints(o, t.Perm)
	if err != nil {
		return err
	}
	ts, err := typesAt(o.Tokens, []string{t.From, t.To})
	if err != nil {
		return err
	}
	b.newOp(o, ir.OpTranspose, []string{t.X}, ts[:1], ts[1:], ir.Attrs{{Name: "permutation", Value: &ir.DenseI64Attr{Values: perm}}})
	return nil
}

// slice builds extract_slice / insert_slice: dynamic offsets become index
// operands after the tile operands, marked ir.DynamicOffset in static_offsets.
func (b *builder) slice(o *Operation, name string, uses []string, sb *SliceBounds, from, to string) error {
	ts, err := typesAt(o.Tokens, []string{from, to})
	if err != nil {
		return err
	}
	useTys := []ir.Type{ts[0]}
	result := ts[1]
	if name == ir.OpInsertSlice {
		useTys = append(useTys, ts[1])
	}
	offs := make([]int64, len(sb.Offsets))
	for i, s := range sb.Offsets {
		if strings.HasPrefix(s, "%") {
			offs[i] = ir.DynamicOffset
			uses = append(uses, s)
			useTys = append(useTys, ir.Index())
			continue
		}
		v, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			return errAt(tokPos(o.Tokens, s), "integer constant out of range for attribute")
		}
		offs[i] = v
	}
	sizes, err := ints(o, sb.Sizes)
	if err != nil {
		return err
	}
	strides, err := ints(o, sb.Strides)
	if err != nil {
		return err
	}
	b.newOp(o, name, uses, useTys, []ir.Type{result}, ir.SliceAttrs(offs, sizes, strides))
	return nil
}

func attrEntries(d *AttrDict) []*AttrEntry {
	if d == nil {
		return nil
	}
	return d.Entries
}

// tensorTyped reports whether the attribute name of d is typed tensor<...>.
func tensorTyped(d *AttrDict, name string) bool {
	for _, e := range attrEntries(d) {
		if e.Name == name && e.Value != nil {
			return strings.HasPrefix(e.Value.Typed, "tensor<")
		}
	}
	return false
}
