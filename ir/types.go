// Package ir holds OTIR's typed intermediate representation: types, attributes,
// values, operations with regions and blocks, builders, and the printer.
//
// Types are interned: two types are equal exactly when their pointers are equal,
// so passes compare them with ==.
package ir

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// MaxIntWidth is the widest integer type the toolchain accepts: MLIR's
// builtin integer limit (IntegerType::kMaxWidth, 2^24 - 1 bits).
const MaxIntWidth = 1<<24 - 1

// Type is an OTIR type. Every Type value is interned (see the package comment).
type Type interface {
	String() string
	isType()
}

// IntType is a signed (iN, N >= 2) or unsigned (uN, N >= 1) integer. The boolean
// i1 / bool is the unsigned 1-bit integer.
type IntType struct {
	Width  int
	Signed bool
}

// FloatKind names an IEEE-754 format.
type FloatKind uint8

const (
	F16 FloatKind = iota
	BF16
	F32
	F64
)

// FloatType is an IEEE-754 floating-point type.
type FloatType struct{ Kind FloatKind }

// IndexType is the type of loop counters, offsets and program ids.
type IndexType struct{}

// TokenType is the completion token of an asynchronous copy (!otir.token).
type TokenType struct{}

// MemSpace is a tile's memory space.
type MemSpace uint8

const (
	Global MemSpace = iota
	Workgroup
	Private
)

// String gives the space's textual form: #global, #workgroup or #private.
func (s MemSpace) String() string {
	switch s {
	case Global:
		return "#global"
	case Workgroup:
		return "#workgroup"
	case Private:
		return "#private"
	}
	return "#invalid"
}

// ParseMemSpace reads #global, #workgroup or #private.
func ParseMemSpace(s string) (MemSpace, bool) {
	switch s {
	case "#global":
		return Global, true
	case "#workgroup":
		return Workgroup, true
	case "#private":
		return Private, true
	}
	return 0, false
}

// TileType is a statically shaped tile of scalar elements in a memory space.
type TileType struct {
	Shape []int64
	Elem  Type
	Space MemSpace
	str   string
}

func (*IntType) isType()   {}
func (*FloatType) isType() {}
func (*IndexType) isType() {}
func (*TokenType) isType() {}
func (*TileType) isType()  {}

func (t *IntType) String() string {
	if t.Width == 1 {
		return "i1"
	}
	if t.Width < len(intNames[0]) {
		if t.Signed {
			return intNames[1][t.Width]
		}
		return intNames[0][t.Width]
	}
	if t.Signed {
		return "i" + strconv.Itoa(t.Width)
	}
	return "u" + strconv.Itoa(t.Width)
}

// intNames are the names of the integer types up to 128 bits, unsigned
// then signed, so that printing one allocates nothing.
var intNames = func() (names [2][129]string) {
	for w := range names[0] {
		names[0][w], names[1][w] = "u"+strconv.Itoa(w), "i"+strconv.Itoa(w)
	}
	return names
}()

func (t *FloatType) String() string {
	switch t.Kind {
	case F16:
		return "f16"
	case BF16:
		return "bf16"
	case F32:
		return "f32"
	}
	return "f64"
}

// Bits is the storage width of the float format.
func (t *FloatType) Bits() int {
	switch t.Kind {
	case F16, BF16:
		return 16
	case F32:
		return 32
	}
	return 64
}

func (*IndexType) String() string  { return "index" }
func (*TokenType) String() string  { return "!otir.token" }
func (t *TileType) String() string { return t.str }

// NumElements is the product of the tile's dimensions.
func (t *TileType) NumElements() int64 {
	n := int64(1)
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Rank is the number of dimensions.
func (t *TileType) Rank() int { return len(t.Shape) }

var (
	typeMu    sync.RWMutex
	typeTable = map[string]Type{}

	indexType = &IndexType{}
	tokenType = &TokenType{}
	floats    = [4]*FloatType{{F16}, {BF16}, {F32}, {F64}}
	boolType  = &IntType{Width: 1}
)

func intern(key string, mk func() Type) Type {
	typeMu.RLock()
	t, ok := typeTable[key]
	typeMu.RUnlock()
	if ok {
		return t
	}
	typeMu.Lock()
	defer typeMu.Unlock()
	if t, ok := typeTable[key]; ok {
		return t
	}
	t = mk()
	typeTable[key] = t
	return t
}

// Int returns the integer type of the given width and signedness. A 1-bit
// integer is always the unsigned boolean.
func Int(width int, signed bool) *IntType {
	if width == 1 {
		return boolType
	}
	key := "u"
	if signed {
		key = "i"
	}
	key += strconv.Itoa(width)
	return intern(key, func() Type { return &IntType{Width: width, Signed: signed} }).(*IntType)
}

// Bool is i1, the boolean.
func Bool() *IntType { return boolType }

// Float returns the float type of the given kind.
func Float(k FloatKind) *FloatType { return floats[k] }

// Index returns the index type.
func Index() *IndexType { return indexType }

// Token returns !otir.token.
func Token() *TokenType { return tokenType }

// Tile returns the tile type with the given shape, element type and space. The
// shape slice is copied.
func Tile(shape []int64, elem Type, space MemSpace) *TileType {
	var sb strings.Builder
	sb.WriteString("!otir.tile<")
	for _, d := range shape {
		sb.WriteString(strconv.FormatInt(d, 10))
		sb.WriteByte('x')
	}
	sb.WriteString(elem.String())
	sb.WriteString(", ")
	sb.WriteString(space.String())
	sb.WriteByte('>')
	key := sb.String()
	return intern(key, func() Type {
		return &TileType{Shape: append([]int64(nil), shape...), Elem: elem, Space: space, str: key}
	}).(*TileType)
}

// ElementType is the element type of a tile or a tensor, or t itself for a
// scalar.
func ElementType(t Type) Type {
	switch tt := t.(type) {
	case *TileType:
		return tt.Elem
	case *TensorType:
		return tt.Elem
	}
	return t
}

// IsScalar reports whether t is a (non-nil) integer, float or index type.
func IsScalar(t Type) bool {
	switch x := t.(type) {
	case *IntType:
		return x != nil
	case *FloatType:
		return x != nil
	case *IndexType:
		return x != nil
	}
	return false
}

// WithElement returns t with its element type replaced: a tile of the same shape
// and space, or the scalar elem itself.
func WithElement(t Type, elem Type) Type {
	if tt, ok := t.(*TileType); ok {
		return Tile(tt.Shape, elem, tt.Space)
	}
	return elem
}

var parsedTypes sync.Map // string -> Type, a cache for ParseType

// ParseType reads a type in its textual form, e.g. "i8", "bool", "index",
// "!otir.token" or "!otir.tile<4x8xi8, #private>". Results are cached.
func ParseType(s string) (Type, error) {
	if t, ok := parsedTypes.Load(s); ok {
		return t.(Type), nil
	}
	if angleDepth(s) > MaxTypeNesting {
		return nil, fmt.Errorf("type nested more than %d levels deep", MaxTypeNesting)
	}
	t, err := parseType(s)
	if err != nil {
		return nil, err
	}
	parsedTypes.Store(s, t)
	return t, nil
}

// MustParseType is ParseType for types written in the source (tables,
// tests): it panics if s is not a type.
func MustParseType(s string) Type {
	t, err := ParseType(s)
	if err != nil {
		panic(fmt.Sprintf("ir.MustParseType(%q): %v", s, err))
	}
	return t
}

// MaxTypeNesting bounds the '<' nesting of a type's text, so that the
// recursive type parsers cannot exhaust the stack (issue 26: 3,000,000
// nested tensor< did); otir's own types nest two deep.
const MaxTypeNesting = 256

// angleDepth is the greatest '<' nesting in s.
func angleDepth(s string) int {
	depth, top := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			depth++
			top = max(top, depth)
		case '>':
			depth--
		}
	}
	return top
}

func parseType(s string) (Type, error) {
	switch s {
	case "index":
		return Index(), nil
	case "bool", "i1", "u1", "ui1":
		return Bool(), nil
	case "f16":
		return Float(F16), nil
	case "bf16":
		return Float(BF16), nil
	case "f32":
		return Float(F32), nil
	case "f64":
		return Float(F64), nil
	case "!otir.token":
		return Token(), nil
	}
	if len(s) > 2 && s[0] == 'u' && s[1] == 'i' && isDigits(s[2:]) {
		s = s[1:] // MLIR's uiN is OTIR's uN
		if s[1] == '0' {
			return nil, fmt.Errorf("invalid integer type 'u%s'", s)
		}
		w, err := strconv.Atoi(s[1:])
		if err != nil || w < 1 || w > MaxIntWidth {
			return nil, fmt.Errorf("integer width must be between 1 and %d in 'u%s'", MaxIntWidth, s)
		}
		return Int(w, false), nil
	}
	if len(s) > 1 && (s[0] == 'i' || s[0] == 'u') && isDigits(s[1:]) {
		w, err := strconv.Atoi(s[1:])
		if err != nil || w < 1 || w > MaxIntWidth {
			return nil, fmt.Errorf("integer width must be between 1 and %d in '%s'", MaxIntWidth, s)
		}
		if s[1] == '0' {
			return nil, fmt.Errorf("invalid integer type '%s'", s)
		}
		return Int(w, s[0] == 'i'), nil
	}
	if t, ok, err := parseDialectType(s); ok {
		return t, err
	}
	if strings.HasPrefix(s, "!otir.tile<") && strings.HasSuffix(s, ">") {
		return parseTile(s[len("!otir.tile<") : len(s)-1])
	}
	if strings.HasPrefix(s, "tensor<") && strings.HasSuffix(s, ">") {
		return parseTensor(s[len("tensor<") : len(s)-1])
	}
	return nil, fmt.Errorf("unknown type '%s'", s)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) > 0
}

// parseTile reads "4x8xi8, #private".
func parseTile(body string) (Type, error) {
	comma := strings.LastIndexByte(body, ',')
	if comma < 0 {
		return nil, fmt.Errorf("tile type needs a memory space: '!otir.tile<%s>'", body)
	}
	space, ok := ParseMemSpace(strings.TrimSpace(body[comma+1:]))
	if !ok {
		return nil, fmt.Errorf("unknown memory space '%s' (expected #global, #workgroup or #private)", strings.TrimSpace(body[comma+1:]))
	}
	// Leading "<digits>x" groups are dimensions; the rest is the element type
	// (which may itself contain an 'x', as "index" does).
	rest := strings.TrimSpace(body[:comma])
	var shape []int64
	total := int64(1)
	for {
		i := 0
		for i < len(rest) && rest[i] != 'x' && rest[i] != ',' && rest[i] != ' ' {
			i++
		}
		if i == len(rest) || rest[i] != 'x' {
			break
		}
		d := rest[:i]
		if !isDigits(d) {
			if d == "?" || strings.HasPrefix(d, "-") || d == "" {
				return nil, fmt.Errorf("invalid tile dimension '%s' (dimensions are static positive integers)", d)
			}
			break
		}
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil || n < 1 || n > 1<<31 {
			return nil, fmt.Errorf("tile dimension '%s' out of range", d)
		}
		total *= n
		if total > 1<<40 {
			return nil, fmt.Errorf("tile has too many elements")
		}
		shape = append(shape, n)
		rest = rest[i+1:]
	}
	elemText := rest
	elem, err := parseType(elemText)
	if err != nil {
		return nil, err
	}
	if !IsScalar(elem) {
		return nil, fmt.Errorf("tile element type must be an integer, float or index type, not '%s'", elemText)
	}
	return Tile(shape, elem, space), nil
}
