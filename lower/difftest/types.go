package difftest

import (
	"fmt"
	"strconv"
)

// ity is an integer element type of a generated kernel.
type ity struct {
	w      int
	signed bool
}

func (t ity) String() string {
	if t.w == 1 {
		return "i1"
	}
	if t.signed {
		return "i" + strconv.Itoa(t.w)
	}
	return "u" + strconv.Itoa(t.w)
}

// common is Allo's common integer type of two types (both styles).
func common(a, b ity) ity {
	switch {
	case a.signed == b.signed:
		return ity{max(a.w, b.w), a.signed}
	case a.signed: // b unsigned
		if b.w >= a.w {
			return b
		}
		return a
	}
	if a.w >= b.w {
		return a
	}
	return b
}

// inferred is the result type the parser infers for `op %a, %b : Ta, Tb` in
// a typing style: HLS widens add, sub and mul; otherwise the common type
// (the left type for shifts).
func inferred(style, op string, a, b ity) (ity, bool) {
	if a.w == 1 || b.w == 1 {
		return ity{}, false // keep booleans out of promotion
	}
	switch op {
	case "add", "sub":
		if style == "cpp" {
			return common(a, b), true
		}
		signed := a.signed || b.signed || op == "sub"
		w := 0
		for _, t := range []ity{a, b} {
			tw := t.w
			if signed && !t.signed {
				tw++
			}
			w = max(w, tw)
		}
		return ity{w + 1, signed}, true
	case "mul":
		if style == "cpp" {
			return common(a, b), true
		}
		return ity{a.w + b.w, a.signed || b.signed}, true
	case "and", "or", "xor", "max", "min":
		return common(a, b), true
	}
	return ity{}, false
}

// tileT prints a tile type.
func tileT(shape []int, t ity, space string) string {
	s := "!otir.tile<"
	for _, d := range shape {
		s += strconv.Itoa(d) + "x"
	}
	return s + t.String() + ", #" + space + ">"
}

// rangeOf returns the least and greatest value of t (within int64).
func rangeOf(t ity) (int64, int64) {
	if t.signed {
		return -(int64(1) << (t.w - 1)), int64(1)<<(t.w-1) - 1
	}
	if t.w >= 63 {
		return 0, 1<<62 - 1
	}
	return 0, int64(1)<<t.w - 1
}

func fmtShape(shape []int) string { return fmt.Sprint(shape) }
