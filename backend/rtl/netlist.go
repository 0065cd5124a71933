package rtl

import (
	"math/big"
)

// The netlist: nets (named bit vectors) and the statements that drive
// them, in a form both writers (Verilog, VHDL) print directly. Every
// expression is a concatenation of parts of exactly known width, so the
// printed designs have no implicit extension or truncation: arithmetic is
// modulo 2^W on vectors of one width W, with signs handled by explicit
// sign extension (a part that repeats a sign bit).

// part is one piece of a concatenation: a slice of a net, a repeated bit of
// a net, or a constant.
type part struct {
	net    int      // slice and repeat: the net; -1: constant
	hi, lo int      // slice: bits hi..lo; repeat: bit lo repeated hi-lo+1 times
	rep    bool     // repeat bit lo of the net
	c      *big.Int // constant: value mod 2^width, width hi-lo+1
}

func (p part) width() int { return p.hi - p.lo + 1 }

// expr is a concatenation, most significant part first.
type expr []part

func (e expr) width() int {
	w := 0
	for _, p := range e {
		w += p.width()
	}
	return w
}

// kind of statement driving a net.
type kind uint8

const (
	kAssign kind = iota // a
	kAdd                // a + b
	kSub                // a - b
	kMul                // a * b
	kAnd                // a & b
	kOr                 // a | b
	kXor                // a ^ b
	kNot                // ~a
	kRedOr              // |a (1 bit)
	kRedAnd             // &a (1 bit)
	kMux                // c ? a : b (c one bit)
	kLookup             // table[a]
	kReg                // a, registered at the rising edge of clk
	kPort               // model_inp: driven from outside
)

// net is a named vector and the statement that drives it.
type net struct {
	name    string
	width   int
	kind    kind
	a, b, c expr
	table   int    // kLookup: index into Design.tables
	comment string // printed after the declaration
}

// table is a lookup table as a ROM: entry k of Values at index k, zero
// beyond; width bits a value, index bits an index.
type table struct {
	name         string
	values       []*big.Int // raw values mod 2^width
	width, index int
}

// constPart returns the n-bit constant v mod 2^n.
func constPart(v *big.Int, n int) part {
	m := new(big.Int).Lsh(big.NewInt(1), uint(n))
	c := new(big.Int).Mod(v, m)
	return part{net: -1, hi: n - 1, lo: 0, c: c}
}

// simplify merges adjacent constants and adjacent slices of one net.
func (e expr) simplify() expr {
	var out expr
	for _, p := range e {
		if p.width() <= 0 {
			continue
		}
		if n := len(out); n > 0 {
			q := &out[n-1]
			switch {
			case p.net < 0 && q.net < 0:
				c := new(big.Int).Lsh(q.c, uint(p.width()))
				c.Or(c, p.c)
				*q = part{net: -1, hi: q.width() + p.width() - 1, lo: 0, c: c}
				continue
			case p.net >= 0 && p.net == q.net && !p.rep && !q.rep && q.lo == p.hi+1:
				q.lo = p.lo
				continue
			case p.net >= 0 && p.net == q.net && p.rep && q.rep && p.lo == q.lo:
				q.hi += p.width()
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

func bigZero() *big.Int { return new(big.Int) }
