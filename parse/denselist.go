package parse

import (
	"math/big"
	"math/bits"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"otir/ir"
)

// Dense lists read in linear time. The lexer hands a dense<[...]> list over
// as one token (scanner.denseList) holding only brackets, commas, blanks
// and scalars; here one pass checks its structure and infers its shape, a
// second converts the scalars straight into the attribute. The errors are
// those of the grammar and of denseAttr on the same literal.

// denseText walks the text of a list token.
type denseText struct {
	s   string
	pos lexer.Position // of s[0]
	i   int
}

// at is the source position of byte offset off of the token.
func (d *denseText) at(off int) lexer.Position {
	p := d.pos
	p.Offset += off
	if nl := strings.LastIndexByte(d.s[:off], '\n'); nl >= 0 {
		p.Line += strings.Count(d.s[:off], "\n")
		p.Column = off - nl
	} else {
		p.Column += off
	}
	return p
}

func (d *denseText) skip() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\r', '\n':
			d.i++
		default:
			return
		}
	}
}

func isDenseDelim(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == '[' || c == ']'
}

// scalarEnd is the end of the scalar at d.i.
func (d *denseText) scalarEnd() int {
	j := d.i
	for j < len(d.s) && !isDenseDelim(d.s[j]) {
		j++
	}
	return j
}

// list reads the list at d.i ('[') and returns its shape; every element
// must have the shape of the first (nil for a scalar).
func (d *denseText) list() ([]int64, error) {
	d.i++ // '['
	d.skip()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		return []int64{0}, nil
	}
	var inner []int64
	first, firstOpen := true, false
	n := int64(0)
	for {
		d.skip()
		start := d.i
		if d.i >= len(d.s) || d.s[d.i] == ']' || d.s[d.i] == ',' {
			return nil, errAt(d.at(d.i), "expected dense element literal")
		}
		open := d.s[d.i] == '['
		var shape []int64
		if open {
			var err error
			if shape, err = d.list(); err != nil {
				return nil, err
			}
		} else {
			d.i = d.scalarEnd()
		}
		switch {
		case first:
			inner, firstOpen, first = shape, open, false
		case open != firstOpen || !equalShape(shape, inner):
			return nil, errAt(d.at(start), "tensor literal is invalid; ranks are not consistent between elements")
		}
		n++
		d.skip()
		if d.i < len(d.s) && d.s[d.i] == ',' {
			d.i++
			continue
		}
		if d.i < len(d.s) && d.s[d.i] == ']' {
			d.i++
			return append([]int64{n}, inner...), nil
		}
		return nil, errAt(d.at(d.i), "expected ']'")
	}
}

// denseList converts the list token text at tokPos into a dense attribute
// of type tt; pos is the literal's position (for a shape mismatch).
func denseList(text string, tokPos lexer.Position, tt *ir.TileType, pos lexer.Position) (ir.Attr, error) {
	d := &denseText{s: text, pos: tokPos}
	shape, err := d.list()
	if err != nil {
		return nil, err
	}
	if !equalShape(shape, tt.Shape) {
		return nil, errAt(pos, "inferred shape of elements literal (%s) does not match type (%s)", shapeText(shape), shapeText(tt.Shape))
	}
	n := int(tt.NumElements())
	attr := &ir.DenseAttr{Type: tt}
	ft, isFloat := tt.Elem.(*ir.FloatType)
	var slab []big.Int
	var words []big.Word
	if isFloat {
		attr.Floats = make([]float64, n)
	} else {
		attr.Ints = make([]*big.Int, n)
		slab = make([]big.Int, n)
		if bits.UintSize == 64 {
			words = make([]big.Word, n)
		}
	}
	d.i = 0
	for k := 0; k < n; k++ {
		for d.i < len(d.s) && isDenseDelim(d.s[d.i]) {
			d.i++
		}
		start := d.i
		d.i = d.scalarEnd()
		s := d.s[start:d.i]
		at := func() lexer.Position { return d.at(start) }
		if isFloat {
			f, err := denseFloatAt(s, ft, at)
			if err != nil {
				return nil, err
			}
			attr.Floats[k] = f
			continue
		}
		// The common case, a decimal int64, without allocating.
		if words != nil && len(s) < 19 && s != "" && s != "-" && !strings.ContainsAny(s[1:], ".eExX") {
			if v, err := strconv.ParseInt(s, 10, 64); err == nil {
				x := &slab[k]
				u := v
				if v < 0 {
					u = -v
				}
				if u != 0 {
					words[k] = big.Word(u)
					x.SetBits(words[k : k+1 : k+1])
				}
				if v < 0 {
					x.Neg(x)
				}
				if !intFits(x, tt.Elem) {
					return nil, errAt(at(), "integer constant out of range for type")
				}
				attr.Ints[k] = x
				continue
			}
		}
		v, err := denseIntAt(s, tt.Elem, at)
		if err != nil {
			return nil, err
		}
		attr.Ints[k] = v
	}
	return attr, nil
}
