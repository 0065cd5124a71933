package parse

import (
	"math/big"
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
	// A constant-valued attribute (otir.constant's value, by its record)
	// written in MLIR's spelling reads as OTIR's.
	if d := ir.LookupOp(name); d != nil {
		name = d.Name // the record's string: LookupOp's fast path
		for _, ad := range d.Attrs {
			if ad.Kind != ir.AttrConstant {
				continue
			}
			if v := attrs.Get(ad.Name); v != nil {
				v = constantValue(v)
				if d, ok := v.(*ir.DenseAttr); ok && len(outs) == 1 && tensorTyped(dict, ad.Name) {
					// dense<...> : tensor<...> takes the result's tile type.
					if rt, ok := outs[0].(*ir.TileType); ok && ir.Tile(d.Type.Shape, d.Type.Elem, rt.Space) == rt {
						v = &ir.DenseAttr{Type: rt, Ints: d.Ints, Floats: d.Floats}
					}
				}
				attrs.Set(ad.Name, v)
			}
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

// constantValue turns a boolean into the i1 integer constant it denotes.
func constantValue(a ir.Attr) ir.Attr {
	if bv, ok := a.(*ir.BoolAttr); ok {
		v := int64(0)
		if bv.Value {
			v = 1
		}
		return &ir.IntAttr{Value: big.NewInt(v), Type: ir.Bool()}
	}
	return a
}
