// Package alir models ALIR (alkaid's low-level IR, spec versions 2, 3 and
// 4) and its predecessor DAIS, reads and writes their file formats, and
// runs them.
//
// A Program is one combinational block in SSA form: operation i writes buffer
// slot i and reads only earlier slots, and the outputs are chosen from the
// final buffer. Every slot holds a raw integer r whose real value is r*2^-f;
// the operation's quantization interval [min, max, step] fixes the
// fixed-point type (signed, integers, fractionals) = KIF of the slot (see
// QInterval.KIF). Opcodes -2 to 11 are described in ../../../shared/spec
// (alir.md, alir-v4.md); the facts in ERRATA.md take precedence. One model
// holds every version: spec 3/4's variadic sum (OpSum, Op.Terms) and the
// relative shift of a quantize (Op.Data of OpQuantize) are fields of Op, and
// Program.Spec records the version a program was read from.
//
// Two dialects share the opcode numbers: ALIR (JSON and bytecode) and
// DAIS (DAIS v1 binary and the original headerless DAIS binary). They differ
// in opcode -2 (ALIR: negation, DAIS: relu of the negated operand), in the
// DAIS-only negated forms -3, -6 and -9, in opcode 4 (ALIR: the constant
// data_low*2^-data_high; DAIS: data in units of the result's step), in how
// a mux reads an unsigned condition and in opcode 10's negation flags.
// Convert translates a portable program between them.
//
// # Files
//
// ReadFile and WriteFile detect or take a Format: ALIR JSON of spec 2, 3 or
// 4 (plain or gzip), ALIR v2 int32 bytecode, ALIR spec 3/4 bytecode (the
// "ALIR" magic), DAIS v1 binary and the original DAIS binary. The spec-2
// writers rewrite sums and relative shifts into spec-2 operations
// (ToSpec2).
// Loaders reject truncated files, trailing bytes, wrong versions and
// out-of-range indices with an error and never panic.
//
// # Running
//
// Compile turns a validated Program into a Machine, which evaluates batches of
// float64 input rows block by block (each operation over a block of samples)
// on all cores. Arithmetic is exact: an operation whose intermediate result
// could overflow 64 bits falls back to exact big-integer evaluation, so the
// fast path and the reference evaluator (RunExact) agree bit for bit, and
// both agree with alkaid's and da4ml's interpreters (reference_test.go).
package alir
