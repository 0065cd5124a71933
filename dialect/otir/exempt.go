package otir

// Exemptions from the completeness test of the records (records_test.go),
// each with its reason.

// NoVerify lists the ops whose record is all there is to check, so that
// they have no Verify hook (the completeness test holds every other op to
// one).
var NoVerify = map[string]string{
	OpReturn:  "its parent (Parents) and its place at the end of the kernel body (the Terminator trait) are generic rules",
	OpBarrier: "no operands, results, regions or attributes: its record's form is the whole rule",
}

// NoTyping lists the Elementwise ops without a typing rule (Typing key).
var NoTyping = map[string]string{
	OpSelect: "chooses between its value operands element by element: no arithmetic, so no promotion rule applies",
	OpCast:   "converts to the result type written on it, which is the op's whole meaning: nothing is inferred",
}
