package filecheck

import (
	"fmt"
	"math/big"
	"strings"
)

// Numeric variables and expressions ([[#...]]). Values are arbitrary
// precision, like LLVM's APInt-based implementation that widens on overflow.

type fmtKind int

const (
	fmtNone fmtKind = iota
	fmtUnsigned
	fmtSigned
	fmtHexUpper
	fmtHexLower
)

// exprFormat is a matching format such as %u, %d, %x, %X, %.8x or %#x.
type exprFormat struct {
	kind      fmtKind
	precision int
	alt       bool
}

func (f exprFormat) String() string {
	switch f.kind {
	case fmtUnsigned:
		return "%u"
	case fmtSigned:
		return "%d"
	case fmtHexUpper:
		return "%X"
	case fmtHexLower:
		return "%x"
	}
	return "<none>"
}

// wildcardRegex is the regex matching any value in this format.
func (f exprFormat) wildcardRegex() string {
	prefix := ""
	if f.alt {
		prefix = "0x"
	}
	prec := func(s string) string { return fmt.Sprintf("%s%s{%d}", prefix, s, f.precision) }
	switch f.kind {
	case fmtUnsigned:
		if f.precision > 0 {
			return prec("([1-9][0-9]*)?[0-9]")
		}
		return "[0-9]+"
	case fmtSigned:
		if f.precision > 0 {
			return prec("-?([1-9][0-9]*)?[0-9]")
		}
		return "-?[0-9]+"
	case fmtHexUpper:
		if f.precision > 0 {
			return prec("([1-9A-F][0-9A-F]*)?[0-9A-F]")
		}
		return prefix + "[0-9A-F]+"
	case fmtHexLower:
		if f.precision > 0 {
			return prec("([1-9a-f][0-9a-f]*)?[0-9a-f]")
		}
		return prefix + "[0-9a-f]+"
	}
	return ""
}

// errList is several errors reported together (llvm::joinErrors).
type errList []error

func (e errList) Error() string { return e[0].Error() }

// flattenErrs lists the individual errors in err.
func flattenErrs(err error) []error {
	if err == nil {
		return nil
	}
	if l, ok := err.(errList); ok {
		var out []error
		for _, e := range l {
			out = append(out, flattenErrs(e)...)
		}
		return out
	}
	return []error{err}
}

// overflowError is a value that cannot be represented in its format.
type overflowError struct{}

func (overflowError) Error() string { return "overflow error" }

// undefVarError is a use of a variable that has no value.
type undefVarError struct{ name sref }

func (e *undefVarError) Error() string { return "undefined variable: " + e.name.str() }

// matchingString renders v in format f.
func (f exprFormat) matchingString(v *big.Int) (string, error) {
	if f.kind != fmtSigned && v.Sign() < 0 {
		return "", overflowError{}
	}
	var digits string
	switch f.kind {
	case fmtUnsigned, fmtSigned:
		digits = new(big.Int).Abs(v).Text(10)
	case fmtHexUpper:
		digits = strings.ToUpper(new(big.Int).Abs(v).Text(16))
	case fmtHexLower:
		digits = new(big.Int).Abs(v).Text(16)
	default:
		return "", fmt.Errorf("trying to match value with invalid format")
	}
	sign, prefix := "", ""
	if v.Sign() < 0 {
		sign = "-"
	}
	if f.alt {
		prefix = "0x"
	}
	if f.precision > len(digits) {
		digits = strings.Repeat("0", f.precision-len(digits)) + digits
	}
	return sign + prefix + digits, nil
}

// valueFromString parses text matched by wildcardRegex.
func (f exprFormat) valueFromString(s string) *big.Int {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	base := 10
	if f.kind == fmtHexUpper || f.kind == fmtHexLower {
		base = 16
		if f.alt {
			s = strings.TrimPrefix(s, "0x")
		}
	}
	v, ok := new(big.Int).SetString(s, base)
	if !ok {
		v = new(big.Int)
	}
	if neg {
		v.Neg(v)
	}
	return v
}

// numVar is a numeric variable.
type numVar struct {
	name    string
	format  exprFormat
	value   *big.Int // nil when undefined
	strVal  sref     // input text it was captured from, if any
	hasStr  bool
	defLine int // check-file line of its definition, 0 if none
}

func (v *numVar) setValue(x *big.Int, s sref, hasStr bool) {
	v.value, v.strVal, v.hasStr = x, s, hasStr
}

func (v *numVar) clear() { v.value, v.hasStr = nil, false }

// exprAST is a node of a numeric expression.
type exprAST interface {
	eval() (*big.Int, []error)
	implicitFormat() (exprFormat, []error)
	text() sref
}

type exprLiteral struct {
	s sref
	v *big.Int
}

func (e *exprLiteral) eval() (*big.Int, []error)             { return e.v, nil }
func (e *exprLiteral) implicitFormat() (exprFormat, []error) { return exprFormat{}, nil }
func (e *exprLiteral) text() sref                            { return e.s }

type numVarUse struct {
	s sref
	v *numVar
}

func (e *numVarUse) eval() (*big.Int, []error) {
	if e.v.value == nil {
		return nil, []error{&undefVarError{e.s}}
	}
	return e.v.value, nil
}
func (e *numVarUse) implicitFormat() (exprFormat, []error) { return e.v.format, nil }
func (e *numVarUse) text() sref                            { return e.s }

type binopFunc func(a, b *big.Int) (*big.Int, error)

type binaryOp struct {
	s    sref
	op   binopFunc
	l, r exprAST
}

func (e *binaryOp) text() sref { return e.s }

func (e *binaryOp) eval() (*big.Int, []error) {
	l, errs := e.l.eval()
	r, errs2 := e.r.eval()
	if errs = append(errs, errs2...); len(errs) > 0 {
		return nil, errs
	}
	v, err := e.op(l, r)
	if err != nil {
		return nil, []error{err}
	}
	return v, nil
}

func (e *binaryOp) implicitFormat() (exprFormat, []error) {
	lf, errs := e.l.implicitFormat()
	rf, errs2 := e.r.implicitFormat()
	if errs = append(errs, errs2...); len(errs) > 0 {
		return exprFormat{}, errs
	}
	if lf.kind != fmtNone && rf.kind != fmtNone && lf != rf {
		return exprFormat{}, []error{newDiagErr(e.s, fmt.Sprintf(
			"implicit format conflict between '%s' (%s) and '%s' (%s), need an explicit format specifier",
			e.l.text().str(), lf, e.r.text().str(), rf))}
	}
	if lf.kind != fmtNone {
		return lf, nil
	}
	return rf, nil
}

var binops = map[string]binopFunc{
	"add": func(a, b *big.Int) (*big.Int, error) { return new(big.Int).Add(a, b), nil },
	"sub": func(a, b *big.Int) (*big.Int, error) { return new(big.Int).Sub(a, b), nil },
	"mul": func(a, b *big.Int) (*big.Int, error) { return new(big.Int).Mul(a, b), nil },
	"div": func(a, b *big.Int) (*big.Int, error) {
		if b.Sign() == 0 {
			return nil, overflowError{}
		}
		return new(big.Int).Quo(a, b), nil
	},
	"max": func(a, b *big.Int) (*big.Int, error) {
		if a.Cmp(b) < 0 {
			return b, nil
		}
		return a, nil
	},
	"min": func(a, b *big.Int) (*big.Int, error) {
		if a.Cmp(b) > 0 {
			return b, nil
		}
		return a, nil
	},
}

// expression is a parsed numeric substitution block: an optional AST and
// the format its value is printed and matched in.
type expression struct {
	ast    exprAST
	format exprFormat
}

// allowedOperand restricts what parseNumericOperand accepts.
type allowedOperand int

const (
	aoLineVar allowedOperand = iota
	aoLegacyLiteral
	aoAny
)

const spaceChars = " \t"

// varProps is the result of parseVariable.
type varProps struct {
	name     sref
	isPseudo bool
}

func isVarNameStart(c byte) bool { return c == '_' || isAlpha(c) }

// parseVariable parses a variable name at the start of *s and advances *s.
func parseVariable(s *sref) (varProps, error) {
	str := *s
	if str.empty() {
		return varProps{}, newDiagErr(str, "empty variable name")
	}
	i := 0
	isPseudo := str.front() == '@'
	if str.front() == '$' || isPseudo {
		i++
	}
	if i == str.size() {
		kind := "global "
		if isPseudo {
			kind = "pseudo "
		}
		return varProps{}, newDiagErr(str.from(i), "empty "+kind+"variable name")
	}
	if !isVarNameStart(str.at(i)) {
		return varProps{}, newDiagErr(str, "invalid variable name")
	}
	i++
	for ; i < str.size(); i++ {
		c := str.at(i)
		if c != '_' && !isAlpha(c) && !isDigit(c) {
			break
		}
	}
	name := str.takeFront(i)
	*s = str.from(i)
	return varProps{name, isPseudo}, nil
}

// consumeInteger parses an unsigned integer in the given radix (0: C-style
// auto-detected 0x/0b/0 prefixes) from the front of *s, like
// llvm::StringRef::consumeInteger. It reports false on failure.
func consumeInteger(s *sref, radix int) (*big.Int, bool) {
	str := s.str()
	i := 0
	if radix == 0 {
		switch {
		case strings.HasPrefix(str, "0x") || strings.HasPrefix(str, "0X"):
			radix, i = 16, 2
		case strings.HasPrefix(str, "0b") || strings.HasPrefix(str, "0B"):
			radix, i = 2, 2
		case strings.HasPrefix(str, "0o"):
			radix, i = 8, 2
		case strings.HasPrefix(str, "0") && len(str) > 1 && isDigit(str[1]):
			radix, i = 8, 1
		default:
			radix = 10
		}
	}
	start := i
	for i < len(str) {
		c := str[i]
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'z':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int(c-'A') + 10
		default:
			d = 99
		}
		if d >= radix {
			break
		}
		i++
	}
	if i == start {
		return nil, false
	}
	v, _ := new(big.Int).SetString(str[start:i], radix)
	*s = s.from(i)
	return v, true
}
