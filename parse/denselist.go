package parse

import (
	"math/big"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/ir"
)

// Dense lists read in linear time. The lexer hands a dense<[...]> list over
// as one token (scanner.denseList) holding only brackets, commas, blanks,
// comments and scalars; here one pass checks its structure and infers its
// shape, a second converts the scalars straight into the attribute. The
// errors are those of the grammar and of denseAttr on the same literal.
//
// Shapes are interned (shapes): a list's shape is a number, its element
// count and its elements' shape, so that comparing an element's shape with
// the first element's, and making a list's shape, take constant time
// whatever the nesting depth. Each byte is then looked at a bounded number
// of times: the parse is linear in the text, however deep.

// denseText walks the text of a list token.
type denseText struct {
	s   string
	pos lexer.Position // of s[0]
	i   int
	// shapes interns list shapes: shape id k > 0 is shapes[k-1], a list of
	// count elements of shape inner (0: scalars). ids maps an entry to its id.
	shapes []shapeEntry
	ids    map[shapeEntry]int32
	// last caches, per nesting depth, the last shape made there: siblings
	// usually share it, which saves the map.
	last   []shapeEntry
	lastID []int32
}

// shapeEntry is an interned list shape: count elements of shape inner.
type shapeEntry struct {
	count int64
	inner int32
}

// intern gives the id of the shape of a list of count elements of shape
// inner, at nesting depth depth.
func (d *denseText) intern(depth int, count int64, inner int32) int32 {
	e := shapeEntry{count, inner}
	for len(d.last) <= depth {
		d.last, d.lastID = append(d.last, shapeEntry{-1, 0}), append(d.lastID, 0)
	}
	if d.last[depth] == e {
		return d.lastID[depth]
	}
	id, ok := d.ids[e]
	if !ok {
		if d.ids == nil {
			d.ids = map[shapeEntry]int32{}
		}
		d.shapes = append(d.shapes, e)
		id = int32(len(d.shapes))
		d.ids[e] = id
	}
	d.last[depth], d.lastID[depth] = e, id
	return id
}

// shape spells out an interned shape.
func (d *denseText) shape(id int32) []int64 {
	var out []int64
	for id > 0 {
		e := d.shapes[id-1]
		out = append(out, e.count)
		id = e.inner
	}
	return out
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

// skip passes blanks and comments (the token holds '/' only as the start of
// a "//" comment, which ends at the end of its line).
func (d *denseText) skip() { d.skipOver(false) }

// skipDelims passes blanks, comments, commas and brackets: to the next
// scalar.
func (d *denseText) skipDelims() { d.skipOver(true) }

// skipOver passes blanks and comments, and commas and brackets as well
// when delims is set.
func (d *denseText) skipOver(delims bool) {
	for d.i < len(d.s) {
		switch c := d.s[d.i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n', delims && (c == ',' || c == '[' || c == ']'):
			d.i++
		case c == '/':
			for d.i < len(d.s) && d.s[d.i] != '\n' {
				d.i++
			}
		default:
			return
		}
	}
}

func isDenseDelim(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == '[' || c == ']' || c == '/'
}

// scalarEnd is the end of the scalar at d.i.
func (d *denseText) scalarEnd() int {
	j := d.i
	for j < len(d.s) && !isDenseDelim(d.s[j]) {
		j++
	}
	return j
}

// list reads the list at d.i ('['), at nesting depth depth, and returns its
// shape id; every element must have the shape of the first (a scalar's is 0).
func (d *denseText) list(depth int) (int32, error) {
	d.i++ // '['
	d.skip()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		return d.intern(depth, 0, 0), nil
	}
	var inner int32
	first, firstOpen := true, false
	n := int64(0)
	for {
		d.skip()
		start := d.i
		if d.i >= len(d.s) || d.s[d.i] == ']' || d.s[d.i] == ',' {
			return 0, errAt(d.at(d.i), "expected dense element literal")
		}
		open := d.s[d.i] == '['
		var shape int32
		if open {
			var err error
			if shape, err = d.list(depth + 1); err != nil {
				return 0, err
			}
		} else {
			d.i = d.scalarEnd()
		}
		switch {
		case first:
			inner, firstOpen, first = shape, open, false
		case open != firstOpen || shape != inner:
			return 0, errAt(d.at(start), "tensor literal is invalid; ranks are not consistent between elements")
		}
		n++
		d.skip()
		if d.i < len(d.s) && d.s[d.i] == ',' {
			d.i++
			continue
		}
		if d.i < len(d.s) && d.s[d.i] == ']' {
			d.i++
			return d.intern(depth, n, inner), nil
		}
		return 0, errAt(d.at(d.i), "expected ']'")
	}
}

// denseList converts the list token text at tokPos into a dense attribute
// of type tt; pos is the literal's position (for a shape mismatch).
func denseList(text string, tokPos lexer.Position, tt *ir.TileType, pos lexer.Position) (ir.Attr, error) {
	d := &denseText{s: text, pos: tokPos}
	id, err := d.list(0)
	if err != nil {
		return nil, err
	}
	shape := d.shape(id)
	if !slices.Equal(shape, tt.Shape) {
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
		d.skipDelims()
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
