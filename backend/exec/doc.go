// Package exec is OTIR's reference executor: the abstract machine of the
// specification (sections 4 and 7.2), written for clarity and trust. Every
// lowering of the toolchain is checked against it.
//
// It follows the evaluator of nn-graph-semantics.md: the module is checked once
// up front (verify.Verify), then each workgroup of the kernel's grid runs its
// operations in order; every result is checked against its declared type, and
// any failure is a *diag.Diagnostic that names the operation and its location
// (with notes at second locations), never a panic.
//
// The kernel is compiled once per run to flat instructions (compile.go): SSA
// values live in numbered slots, each op's table entry is resolved once, and
// scalars are held unboxed; this changes the cost of a step, not its meaning.
//
// Values: scalars and #private tiles are immutable *Buffer values (a scalar
// held unboxed in its slot until a handler asks for its *Buffer); #global and
// #workgroup tiles are views of memory (a memory object and the flat index of
// each element); DMA tokens refer to pending copies, which complete at the
// otir.wait on their token.
//
// Arithmetic (design section 4): an operation computes the exact result of its
// operand values, then converts it to the result type: integers wrap on
// overflow and drop fraction bits toward -inf; floats round to nearest even.
// Integer division (div_s, rem_s) is C's: the quotient rounds toward zero and
// the remainder takes the dividend's sign. The implementation-defined choices are listed in docs/executor.md.
package exec
