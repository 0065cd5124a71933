package alir

// Which operations wrap, as alkaid's and da4ml's interpreters define it
// (see ERRATA.md, "Quantization"). The opcode table's Wraps (opcodes.go) is
// the one statement of it that the interpreter, the exact evaluator, the
// portability check (Portability) and the writers read:
//
//   - input (-1), relu (2), quantize (3) and mux (6), and DAIS's negated
//     forms -2 (relu of -a), -3 and -6, bring their result to the op's step
//     (floor) and then wrap it to the width of the op's type;
//   - add and sub (0, 1) and const_add (4) compute exactly and bring the
//     exact result to the op's step (floor), whatever the op's interval;
//   - ALIR's neg (-2) and mul (7) are exact: the raw result is -a or a*b;
//   - const (5) and lookup (8) give their raw value; the bit operations (9,
//     10, DAIS -9) give their bitwise result; none of them wraps.
//
// A program whose non-wrapping op has an interval narrower than its exact
// result is valid and runs exactly, but means something else to any tool
// that sizes wires from the intervals: Portability names such ops.

// Wraps reports whether opcode c of dialect d wraps its result to the width
// of its type (the opcode table's Wraps).
func (d Dialect) Wraps(c Opcode) bool {
	e := d.Info(c)
	return e != nil && e.Wraps
}

// wrappingOps names the wrapping operations of d, for messages.
func wrappingOps(d Dialect) string {
	if d == DAIS {
		return "input, relu, quantize and mux (and -2, -3, -6)"
	}
	return "input, relu, quantize and mux"
}
