package parse

import (
	"errors"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/ir"
)

// attrDict converts an attribute dictionary; a repeated name is an error.
// Names are checked with a set and sorted once, so n attributes cost
// O(n log n) (ir.Attrs.Set per entry made it quadratic; issue 26).
func (b *builder) attrDict(d *AttrDict) (ir.Attrs, error) {
	if d == nil {
		return nil, nil
	}
	as := make(ir.Attrs, 0, len(d.Entries))
	seen := make(map[string]struct{}, len(d.Entries))
	for _, e := range d.Entries {
		name := e.Name
		if strings.HasPrefix(name, `"`) {
			s, err := decodeString(name, e.Pos)
			if err != nil {
				return nil, err
			}
			name = s
		}
		if _, dup := seen[name]; dup {
			return nil, errAt(e.Pos, "duplicate key '%s' in dictionary attribute", name)
		}
		seen[name] = struct{}{}
		var v ir.Attr = &ir.UnitAttr{}
		if e.Value != nil {
			a, err := b.attr(e.Value)
			if err != nil {
				return nil, err
			}
			v = a
		}
		as = append(as, ir.NamedAttr{Name: name, Value: v})
	}
	sort.Slice(as, func(i, j int) bool { return as[i].Name < as[j].Name })
	return as, nil
}

// attrType parses the type of an attribute's `: type` suffix.
func attrType(s string, pos lexer.Position) (ir.Type, error) {
	t, err := ir.ParseType(s)
	if err != nil {
		return nil, errAt(pos, "%s", err.Error())
	}
	return t, nil
}

// typedPos is where an attribute's type suffix is, for diagnostics: the
// attribute's own position (the suffix token is not kept).
func (a *Attribute) typedPos() lexer.Position { return a.Pos }

// attr converts one attribute value.
func (b *builder) attr(a *Attribute) (ir.Attr, error) {
	var typ ir.Type
	if a.Dense != nil && strings.HasPrefix(a.Typed, "tensor<") {
		// The generic form's dense<...> : tensor<4xi8>: a #private tile of
		// that shape; an otir.constant gives it its result's tile type.
		t, err := tensorTile(a.Typed, a.typedPos())
		if err != nil {
			return nil, err
		}
		return denseAttr(a.Dense, t, a.Pos)
	}
	if a.Typed != "" {
		t, err := attrType(a.Typed, a.typedPos())
		if err != nil {
			return nil, err
		}
		typ = t
		if a.Int == "" && a.Float == "" && a.Dense == nil {
			return nil, errAt(a.Pos, "a type suffix is only allowed on integer, float and dense attributes")
		}
	}
	switch {
	case a.Int != "":
		return intAttr(a.Int, typ, a.Pos)
	case a.Float != "":
		return floatAttr(a.Float, typ, a.Pos)
	case a.Bool != "":
		return &ir.BoolAttr{Value: a.Bool == "true"}, nil
	case a.Str != "":
		s, err := decodeString(a.Str, a.Pos)
		if err != nil {
			return nil, err
		}
		return &ir.StringAttr{Value: s}, nil
	case a.Unit:
		return &ir.UnitAttr{}, nil
	case a.Array != nil:
		arr := &ir.ArrayAttr{Elems: make([]ir.Attr, 0, len(a.Array.Elems))}
		for _, e := range a.Array.Elems {
			v, err := b.attr(e)
			if err != nil {
				return nil, err
			}
			arr.Elems = append(arr.Elems, v)
		}
		return arr, nil
	case a.I64Array != nil:
		return denseI64(a.I64Array)
	case a.Dense != nil:
		if typ == nil {
			return nil, errAt(a.Pos, "expected ':' after dense literal")
		}
		return denseAttr(a.Dense, typ, a.Pos)
	case a.Fn != nil:
		return funcTypeAttr(a.Fn)
	case a.Type != "":
		t, err := attrType(a.Type, a.Pos)
		if err != nil {
			return nil, err
		}
		return &ir.TypeAttr{Type: t}, nil
	}
	return nil, errAt(a.Pos, "expected attribute value")
}

// parseBig reads a decimal or 0x-hex integer literal, possibly negative.
func parseBig(s string) (*big.Int, bool) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	base := 10
	if strings.HasPrefix(body, "0x") {
		base, body = 16, body[2:]
	}
	if len(body) < 19 && base == 10 {
		if v, err := strconv.ParseInt(body, 10, 64); err == nil {
			if neg {
				v = -v
			}
			return big.NewInt(v), true
		}
	}
	v, ok := new(big.Int).SetString(body, base)
	if ok && neg {
		v.Neg(v)
	}
	return v, ok
}

// intFits reports whether v is a value of the integer-like type t: iN holds
// [-2^(N-1), 2^(N-1)), uN and i1 hold [0, 2^N), index holds int64.
func intFits(v *big.Int, t ir.Type) bool {
	switch t := t.(type) {
	case *ir.IndexType:
		return v.IsInt64()
	case *ir.IntType:
		if t.Signed {
			if v.Sign() < 0 {
				return new(big.Int).Add(v, big.NewInt(1)).BitLen() <= t.Width-1
			}
			return v.BitLen() <= t.Width-1
		}
		return v.Sign() >= 0 && v.BitLen() <= t.Width
	}
	return false
}

// intAttr converts `16`, `16 : index`, `-3 : i8` or a float given as an
// integer (`0x7FF0000000000000 : f64`, a bit pattern).
func intAttr(text string, typ ir.Type, pos lexer.Position) (ir.Attr, error) {
	v, ok := parseBig(text)
	if !ok {
		return nil, errAt(pos, "invalid integer literal '%s'", text)
	}
	if typ == nil {
		typ = ir.Int(64, true)
	}
	switch t := typ.(type) {
	case *ir.FloatType:
		f, err := floatFromInt(text, v, t, pos)
		if err != nil {
			return nil, err
		}
		return &ir.FloatAttr{Value: f, Type: t}, nil
	case *ir.IntType, *ir.IndexType:
		if !intFits(v, t) {
			return nil, errAt(pos, "integer constant out of range for attribute")
		}
		return &ir.IntAttr{Value: v, Type: t}, nil
	}
	return nil, errAt(pos, "integer literal not valid for specified type")
}

// floatFromInt reads an integer literal for a float: a 0x literal is a bit
// pattern of the float's own width, or of f64 (the printer writes infinities
// and NaNs as f64 bit patterns whatever the type); a decimal is its value.
// The pattern keeps its NaN payload (ir.FloatFromBits). A pattern wider than
// the type is out of range, as in mlir-opt, except f64's infinities and NaNs,
// which older printers wrote whatever the type (the printer now writes the
// type's own width).
func floatFromInt(text string, v *big.Int, t *ir.FloatType, pos lexer.Position) (float64, error) {
	if !strings.HasPrefix(strings.TrimPrefix(text, "-"), "0x") {
		f, _ := new(big.Float).SetInt(v).Float64()
		return inRange(f, text, t, pos)
	}
	if v.Sign() < 0 || v.BitLen() > 64 {
		return 0, errAt(pos, "hexadecimal float constant out of range for type")
	}
	bits := v.Uint64()
	if v.BitLen() > t.Bits() {
		if f := math.Float64frombits(bits); math.IsInf(f, 0) || math.IsNaN(f) {
			return ir.RoundFloat(f, t), nil
		}
		return 0, errAt(pos, "hexadecimal float constant out of range for type")
	}
	return ir.FloatFromBits(bits, t), nil
}

// floatOf reads a decimal float literal as a value of t, rounded to nearest
// (once for f32 and f64; f16 and bf16 from the nearest f64).
func floatOf(text string, t *ir.FloatType, pos lexer.Position) (float64, error) {
	size := 64
	if t.Kind == ir.F32 {
		size = 32
	}
	f, err := strconv.ParseFloat(text, size)
	if err != nil && !math.IsInf(f, 0) {
		return 0, errAt(pos, "invalid float literal '%s'", text)
	}
	return inRange(f, text, t, pos)
}

// inRange rounds the value f of a finite literal to t; beyond t's largest
// finite value it is an error (mlir-opt 22 silently makes it an infinity;
// the bit pattern, such as 0x7C00 : f16, writes one).
func inRange(f float64, text string, t *ir.FloatType, pos lexer.Position) (float64, error) {
	if r := ir.RoundFloat(f, t); !math.IsInf(r, 0) {
		return r, nil
	}
	largest := ir.FloatFromBits(ir.FloatBits(math.Inf(1), t)-1, t)
	return 0, errAt(pos, "float literal '%s' is out of range for %s (largest finite value %s)",
		text, t, strconv.FormatFloat(largest, 'g', -1, 64))
}

// floatAttr converts `1.5`, `1.5 : f32`.
func floatAttr(text string, typ ir.Type, pos lexer.Position) (ir.Attr, error) {
	if typ == nil {
		typ = ir.Float(ir.F64)
	}
	ft, ok := typ.(*ir.FloatType)
	if !ok {
		if _, err := strconv.ParseFloat(text, 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, errAt(pos, "invalid float literal '%s'", text)
		}
		return nil, errAt(pos, "floating point value not valid for specified type")
	}
	f, err := floatOf(text, ft, pos)
	if err != nil {
		return nil, err
	}
	return &ir.FloatAttr{Value: f, Type: ft}, nil
}

// denseI64 converts array<i64: 1, 0>.
func denseI64(d *DenseArray) (ir.Attr, error) {
	if d.Elem != "i64" {
		return nil, errAt(d.Pos, "unsupported array element type '%s' (expected i64)", d.Elem)
	}
	vals := make([]int64, len(d.Values))
	for i, s := range d.Values {
		v, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			return nil, errAt(d.Pos, "integer constant out of range for attribute")
		}
		vals[i] = v
	}
	return &ir.DenseI64Attr{Values: vals}, nil
}

// funcTypeAttr converts (T1, T2) -> (R...).
func funcTypeAttr(f *FuncType) (*ir.FunctionType, error) {
	ins, outs, err := funcTypes(f)
	if err != nil {
		return nil, err
	}
	return &ir.FunctionType{Inputs: ins, Results: outs}, nil
}

// funcTypes parses the input and result types of a function type.
func funcTypes(f *FuncType) (ins, outs []ir.Type, err error) {
	if f.Sig != "" {
		return splitSig(f.Sig, f.Pos, false)
	}
	ins = make([]ir.Type, len(f.Ins))
	for i, s := range f.Ins {
		if ins[i], err = attrType(s, f.Pos); err != nil {
			return nil, nil, err
		}
	}
	if !f.Paren {
		t, err := attrType(f.Out, f.Pos)
		if err != nil {
			return nil, nil, err
		}
		return ins, []ir.Type{t}, nil
	}
	outs = make([]ir.Type, len(f.Outs))
	for i, s := range f.Outs {
		if outs[i], err = attrType(s, f.Pos); err != nil {
			return nil, nil, err
		}
	}
	return ins, outs, nil
}

// splitSig reads the types of a Sig token, "(A, B) -> C" or "(A) -> (B, C)",
// locating errors at the offending type inside the token. With brackets, an
// input type may be written [T] (the spec's optional DMA mask).
func splitSig(text string, pos lexer.Position, brackets bool) (ins, outs []ir.Type, err error) {
	closing := strings.IndexByte(text, ')')
	if text == "" || text[0] != '(' || closing < 0 {
		return nil, nil, errAt(pos, "expected '('")
	}
	if ins, err = sigList(text, 1, closing, pos, brackets); err != nil {
		return nil, nil, err
	}
	q := closing + 1
	for q < len(text) && (text[q] == ' ' || text[q] == '\t') {
		q++
	}
	q += len("->")
	for q < len(text) && (text[q] == ' ' || text[q] == '\t') {
		q++
	}
	if q < len(text) && text[q] == '(' {
		outs, err = sigList(text, q+1, len(text)-1, pos, false)
		return ins, outs, err
	}
	outs, err = sigList(text, q, len(text), pos, false)
	return ins, outs, err
}

// sigList parses the comma-separated types of text[lo:hi]; commas inside
// <...> belong to a type.
func sigList(text string, lo, hi int, pos lexer.Position, brackets bool) ([]ir.Type, error) {
	if strings.TrimSpace(text[lo:hi]) == "" {
		return nil, nil
	}
	n, depth := 1, 0
	for i := lo; i < hi; i++ {
		switch text[i] {
		case '<':
			depth++
		case '>':
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		}
	}
	ts := make([]ir.Type, 0, n)
	depth, start := 0, lo
	for i := lo; i <= hi; i++ {
		if i < hi {
			switch text[i] {
			case '<':
				depth++
				continue
			case '>':
				depth--
				continue
			case ',':
				if depth != 0 {
					continue
				}
			default:
				continue
			}
		}
		piece := text[start:i]
		off := start + len(piece) - len(strings.TrimLeft(piece, " \t"))
		piece = strings.TrimSpace(piece)
		at := pos
		at.Column += off
		if brackets && len(piece) > 2 && piece[0] == '[' && piece[len(piece)-1] == ']' {
			piece = strings.TrimSpace(piece[1 : len(piece)-1])
		}
		if piece == "" {
			return nil, errAt(at, "expected type")
		}
		t, err := ir.ParseType(piece)
		if err != nil {
			return nil, errAt(at, "%s", err.Error())
		}
		ts = append(ts, t)
		start = i + 1
	}
	return ts, nil
}

// tensorTile reads tensor<4x4xi8> as the #private tile of its shape and
// element type.
func tensorTile(s string, pos lexer.Position) (*ir.TileType, error) {
	body, ok := strings.CutSuffix(strings.TrimPrefix(s, "tensor<"), ">")
	if !ok {
		return nil, errAt(pos, "invalid tensor type '%s'", s)
	}
	t, err := ir.ParseType("!otir.tile<" + body + ", #private>")
	if err != nil {
		return nil, errAt(pos, "invalid tensor type '%s': %s", s, err.Error())
	}
	return t.(*ir.TileType), nil
}
