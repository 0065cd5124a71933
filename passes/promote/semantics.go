package promote

import (
	"math/big"

	"github.com/otir-dev/otir/internal/intrange"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// What the pass knows of the semantics of element-wise operations (design
// section 4, as docs/executor.md decides it): what each operation reads of its
// operands, and which operators wrap, are integral, or return an operand.
//
// What an operation reads of an operand (docs/executor.md, "Semantics decided
// here"): its value, except for div_s/rem_s/shr_s and the s* predicates,
// which read its bits in its own width as two's complement, and
// div_u/rem_u/shr_u and the u* predicates, which read them as unsigned. An
// operation with a float operand (or sqrt, exp, log) computes in the format K
// = the widest float among its operands and result, at least f32 (f64 when
// none is a float), rounding integer operands to K first; otherwise it
// computes exactly on integers.

// readKind is what an operation reads of one operand.
type readKind uint8

const (
	readValue    readKind = iota // the operand's value
	readSigned                   // its bits in its own width, two's complement
	readUnsigned                 // its bits in its own width, unsigned
	readAmount                   // a shift amount: its value; the pass never converts it
)

// opSem is what the pass knows of an operation's semantics: its Allo key and
// what it reads of each operand.
type opSem struct {
	key   string
	reads []readKind
}

// semOf describes the operation opName (with cmp predicate pred) under key,
// from its record: the SignedOperands and UnsignedOperands traits say how it
// reads its operands, a shift (its Typing key) reads its second operand as
// an amount, and a comparison (its Typing key) reads its operands as its s*
// or u* predicate says.
func semOf(opName, pred, key string) opSem {
	s := opSem{key: key, reads: []readKind{readValue, readValue}}
	if typing.IsUnaryKey(key) {
		s.reads = s.reads[:1]
	}
	d := ir.LookupOp(opName)
	if d == nil {
		return s
	}
	k := readValue
	switch {
	case d.Has(ir.SignedOperands):
		k = readSigned
	case d.Has(ir.UnsignedOperands):
		k = readUnsigned
	case typing.IsComparison(d.Typing) && len(pred) == 3 && (pred[0] == 's' || pred[0] == 'u'):
		k = readSigned
		if pred[0] == 'u' {
			k = readUnsigned
		}
	}
	if k != readValue {
		s.reads = []readKind{k, k}
	}
	if typing.IsShift(d.Typing) {
		s.reads = []readKind{k, readAmount}
	}
	return s
}

// bitReads reports whether the operation reads some operand's bits.
func (s opSem) bitReads() bool {
	for _, k := range s.reads {
		if k == readSigned || k == readUnsigned {
			return true
		}
	}
	return false
}

// modularKey reports whether an operator commutes with wrapping: its result
// modulo 2^k depends only on its (value-read) integer operands modulo 2^k.
// Computing it in any integer type at least as wide as an integer result type
// gives the result exactly, whatever the operands' conversions do.
func modularKey(key string) bool {
	switch key {
	case "add", "sub", "mul", "neg", "bitwise_and", "bitwise_or", "bitwise_xor", "invert", "lshift":
		return true
	}
	return false
}

// integralKey reports whether an operator's result on integers (before the
// conversion to the result type) is an integer under every reading of design
// section 4. Division is: div_s/div_u round the quotient toward zero, as
// C and LLVM do, rather than keeping a fraction for the conversion to floor.
func integralKey(key string) bool {
	switch key {
	case "add", "sub", "mul", "neg", "bitwise_and", "bitwise_or", "bitwise_xor", "invert",
		"lshift", "rshift", "max", "min", "abs", "div", "mod":
		return true
	}
	return typing.IsComparison(key)
}

// valueKey reports whether an operator's result is an operand's value, its
// negation or its magnitude: exact in any float format holding the operands.
func valueKey(key string) bool {
	switch key {
	case "neg", "abs", "max", "min":
		return true
	}
	return false
}

// floatKey reports whether an operator computes on floats (the verifier
// rejects the others, such as division and bitwise operations, on floats).
func floatKey(key string) bool {
	return valueKey(key) || key == "add" || key == "sub" || key == "mul" || isSpecial(key)
}

func isSpecial(key string) bool {
	for _, s := range typing.SpecialFunctions {
		if s == key {
			return true
		}
	}
	return false
}

func isFloat(t ir.Type) bool {
	_, ok := t.(*ir.FloatType)
	return ok
}

func anyFloat(ts ...ir.Type) bool {
	for _, t := range ts {
		if isFloat(t) {
			return true
		}
	}
	return false
}

// castOperands gives the operand types the pass converts: all of them, except
// a shift's amount.
func castOperands(key string, as []ir.Type) []ir.Type {
	if typing.IsShift(key) {
		return as[:1]
	}
	return as
}

// readKept reports whether converting an operand of type a to q keeps what
// the operation reads of it.
func readKept(k readKind, a, q ir.Type) bool {
	switch k {
	case readSigned, readUnsigned:
		am, aok := intModel(a)
		qm, qok := intModel(q)
		// The reading of cast(x) in q's width equals x's reading in a's width
		// when the widths agree (the bits are the same), or when a's own
		// signedness is the reading's and q is wider (both read the value).
		return aok && qok && (qm.Width == am.Width || am.Signed == (k == readSigned) && qm.Width >= am.Width)
	case readAmount:
		return true
	}
	return castExact(a, q)
}

// readRange bounds what an operation reads of an integer operand.
func readRange(k readKind, a ir.Type) [2]*big.Int {
	m, _ := intModel(a)
	var r intrange.Range
	switch k {
	case readSigned:
		r = intrange.Signed(m.Width)
	case readUnsigned:
		r = intrange.Unsigned(m.Width)
	default:
		r.Lo, r.Hi = typeRange(a)
	}
	return [2]*big.Int{r.Lo, r.Hi}
}
