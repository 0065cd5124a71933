package ir

import (
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// Attr is a compile-time constant attached to an operation.
type Attr interface {
	String() string
	isAttr()
}

// IntAttr is an integer of a given type: `16 : index`, `0 : i64`, `true`.
type IntAttr struct {
	Value *big.Int
	Type  Type
}

// FloatAttr is a floating-point constant: `1.5 : f32`.
type FloatAttr struct {
	Value float64
	Type  *FloatType
}

// StringAttr is a quoted string: "hls".
type StringAttr struct{ Value string }

// EnumAttr is a bare keyword value, such as the predicate in `kind(slt)`.
// In generic form it prints as a string.
type EnumAttr = StringAttr

// ArrayAttr is a list of attributes: [4, 2].
type ArrayAttr struct{ Elems []Attr }

// DenseI64Attr is an array of 64-bit integers: array<i64: 1, 0>.
type DenseI64Attr struct{ Values []int64 }

// DenseAttr is a tile constant: dense<[[1, -2], [3, 4]]> : !otir.tile<...>.
// Exactly one of Ints and Floats is set; a single element means a splat.
type DenseAttr struct {
	Type   *TileType
	Ints   []*big.Int
	Floats []float64
}

// TypeAttr holds a type, e.g. a kernel's function_type.
type TypeAttr struct{ Type Type }

// FunctionType is the signature of a kernel: (inputs) -> (results).
type FunctionType struct {
	Inputs  []Type
	Results []Type
}

// UnitAttr is present-or-absent.
type UnitAttr struct{}

// BoolAttr is true or false.
type BoolAttr struct{ Value bool }

func (*IntAttr) isAttr()      {}
func (*FloatAttr) isAttr()    {}
func (*StringAttr) isAttr()   {}
func (*ArrayAttr) isAttr()    {}
func (*DenseI64Attr) isAttr() {}
func (*DenseAttr) isAttr()    {}
func (*TypeAttr) isAttr()     {}
func (*UnitAttr) isAttr()     {}
func (*BoolAttr) isAttr()     {}
func (*FunctionType) isAttr() {}

// I64 makes an IntAttr of type i64 (the type of a bare integer in an attribute dictionary).
func I64(v int64) *IntAttr { return &IntAttr{Value: big.NewInt(v), Type: Int(64, true)} }

// IndexAttr makes an IntAttr of type index.
func IndexAttr(v int64) *IntAttr { return &IntAttr{Value: big.NewInt(v), Type: Index()} }

// Int64 returns the value and whether it fits in an int64.
func (a *IntAttr) Int64() (int64, bool) {
	if !a.Value.IsInt64() {
		return 0, false
	}
	return a.Value.Int64(), true
}

func (a *IntAttr) String() string {
	if a.Type == Bool() {
		if a.Value.Sign() != 0 {
			return "true"
		}
		return "false"
	}
	return a.Value.String() + " : " + TypeString(a.Type)
}

func (a *FloatAttr) String() string {
	return FormatFloatOf(a.Value, a.Type) + " : " + TypeString(a.Type)
}

// FormatFloat prints an f64 so that it parses back to the same value and always
// looks like a float (MLIR style: 1.000000e+00 is not used; "1.0" is); every
// NaN prints as 0x7FF8000000000000. Attributes print with FormatFloatOf.
func FormatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "0x7FF0000000000000"
	case math.IsInf(f, -1):
		return "0xFFF0000000000000"
	case math.IsNaN(f):
		return "0x7FF8000000000000"
	}
	return floatLooking(strconv.FormatFloat(f, 'g', -1, 64))
}

func (a *StringAttr) String() string { return QuoteString(a.Value) }

// String prints the array; integers of type i64 print bare inside arrays
// and dictionaries.
func (a *ArrayAttr) String() string { return a.text(attrText) }

// text is the array as `[e0, e1, ...]`, each element by elem.
func (a *ArrayAttr) text(elem func(Attr) string) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i, e := range a.Elems {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(elem(e))
	}
	sb.WriteByte(']')
	return sb.String()
}

func (a *DenseI64Attr) String() string {
	var sb strings.Builder
	sb.WriteString("array<i64")
	for i, v := range a.Values {
		if i == 0 {
			sb.WriteString(": ")
		} else {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.FormatInt(v, 10))
	}
	sb.WriteByte('>')
	return sb.String()
}

// Len is the number of elements the constant describes (1 for a splat).
func (a *DenseAttr) Len() int {
	if a.Floats != nil {
		return len(a.Floats)
	}
	return len(a.Ints)
}

// IsSplat reports whether one value fills the whole tile.
func (a *DenseAttr) IsSplat() bool { return a.Len() == 1 && a.Type.NumElements() != 1 }

// Literal is the dense<...> part without the type.
func (a *DenseAttr) Literal() string {
	var sb strings.Builder
	sb.WriteString("dense<")
	elem := func(i int) string {
		if a.Floats != nil {
			ft, ok := a.Type.Elem.(*FloatType)
			if !ok {
				ft = Float(F64)
			}
			return FormatFloatOf(a.Floats[i], ft)
		}
		if a.Type.Elem == Bool() {
			if a.Ints[i].Sign() != 0 {
				return "true"
			}
			return "false"
		}
		return a.Ints[i].String()
	}
	if a.IsSplat() {
		sb.WriteString(elem(0))
	} else {
		var rec func(dim int, base int)
		rec = func(dim int, base int) {
			if dim == len(a.Type.Shape) {
				sb.WriteString(elem(base))
				return
			}
			stride := 1
			for _, d := range a.Type.Shape[dim+1:] {
				stride *= int(d)
			}
			sb.WriteByte('[')
			for i := 0; i < int(a.Type.Shape[dim]); i++ {
				if i > 0 {
					sb.WriteString(", ")
				}
				rec(dim+1, base+i*stride)
			}
			sb.WriteByte(']')
		}
		rec(0, 0)
	}
	sb.WriteByte('>')
	return sb.String()
}

func (a *DenseAttr) String() string { return a.Literal() + " : " + a.Type.String() }

func (a *TypeAttr) String() string { return TypeString(a.Type) }

func (a *FunctionType) String() string {
	var sb strings.Builder
	sb.WriteString(TypeList(a.Inputs, true))
	sb.WriteString(" -> ")
	if len(a.Results) == 1 {
		sb.WriteString(a.Results[0].String())
	} else {
		sb.WriteString(TypeList(a.Results, true))
	}
	return sb.String()
}

func (*UnitAttr) String() string { return "unit" }

func (a *BoolAttr) String() string {
	if a.Value {
		return "true"
	}
	return "false"
}

// attrText prints an attribute as a dictionary value: i64 integers print bare.
func attrText(a Attr) string {
	if ia, ok := a.(*IntAttr); ok && ia.Type == Int(64, true) {
		return ia.Value.String()
	}
	// A dense constant of a #private tile in a dictionary (nn.const's
	// value) spells its type as MLIR's tensor<...>, which reads back as
	// that tile; otir.constant spells its value outside the dictionary.
	if d, ok := a.(*DenseAttr); ok && d != nil && d.Type != nil && d.Type.Space == Private {
		return d.Literal() + " : " + d.Type.TensorString()
	}
	return a.String()
}

// TypeString prints a type, or <<NULL TYPE>> for nil (as MLIR does), so that
// printing malformed IR never panics.
func TypeString(t Type) string {
	if t == nil {
		return "<<NULL TYPE>>"
	}
	return t.String()
}

// TypeList prints "T1, T2" or, with parens, "(T1, T2)".
func TypeList(ts []Type, parens bool) string {
	var sb strings.Builder
	if parens {
		sb.WriteByte('(')
	}
	for i, t := range ts {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(TypeString(t))
	}
	if parens {
		sb.WriteByte(')')
	}
	return sb.String()
}

// NamedAttr is one entry of an attribute dictionary.
type NamedAttr struct {
	Name  string
	Value Attr
}

// Attrs is an attribute dictionary, kept sorted by name.
type Attrs []NamedAttr

// Get returns the named attribute or nil.
func (as Attrs) Get(name string) Attr {
	for _, a := range as {
		if a.Name == name {
			return a.Value
		}
	}
	return nil
}

// Set adds or replaces an attribute, keeping the dictionary sorted.
func (as *Attrs) Set(name string, v Attr) {
	for i := range *as {
		if (*as)[i].Name == name {
			(*as)[i].Value = v
			return
		}
	}
	*as = append(*as, NamedAttr{name, v})
	sort.SliceStable(*as, func(i, j int) bool { return (*as)[i].Name < (*as)[j].Name })
}

// Union returns the dictionary of as and more, sorted by name, and the first
// name (in name order) both hold, or "". It costs O(n log n) for n entries,
// where Set per entry is quadratic (issue 26: 100,000 attributes).
func (as Attrs) Union(more Attrs) (Attrs, string) {
	all := make(Attrs, 0, len(as)+len(more))
	all = append(append(all, as...), more...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	for i := 1; i < len(all); i++ {
		if all[i].Name == all[i-1].Name {
			return as, all[i].Name
		}
	}
	return all, ""
}

// Delete removes an attribute if present.
func (as *Attrs) Delete(name string) {
	for i := range *as {
		if (*as)[i].Name == name {
			*as = append((*as)[:i], (*as)[i+1:]...)
			return
		}
	}
}

// String prints the dictionary as {a = 1, b = "x"}.
func (as Attrs) String() string { return as.dict(attrText) }

// dict prints the dictionary with text printing each value.
func (as Attrs) dict(text func(Attr) string) string {
	var sb strings.Builder
	sb.WriteByte('{')
	for i, a := range as {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(attrName(a.Name))
		if _, unit := a.Value.(*UnitAttr); !unit {
			sb.WriteString(" = ")
			sb.WriteString(text(a.Value))
		}
	}
	sb.WriteByte('}')
	return sb.String()
}

// attrName quotes a name that is not a bare identifier.
func attrName(n string) string {
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c == '_' || c == '.' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return QuoteString(n)
		}
	}
	if n == "" {
		return `""`
	}
	return n
}
