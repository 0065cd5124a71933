// Package daisopt holds the optimisation passes of the `dais` dialect
// (lower/dais): rewrites of a dais.program that keep every output bit for bit
// identical, as the ALIR interpreter (backend/alir) computes it, while making
// the program smaller, narrower or shallower.
//
//	dais-fold     constant folding and algebraic identities
//	dais-cse      common-subexpression elimination
//	dais-dce      removes slots and lookup tables no output depends on
//	dais-narrow   shrinks result types to the exact range of their values
//	dais-balance  re-associates chains of adds and subs into balanced trees
//	dais-optimize all of them, in the recommended order:
//
//	builtin.module(lower-tiles,dais-fold,dais-cse,dais-narrow,dais-balance,dais-dce)
//
// Every pass is linear in the number of ops (one or two walks over the
// block, tables indexed by slot, a hash table for CSE), except dais-balance,
// which is n log n (a heap per chain), and dais-fold, which checks its plan
// with alir's Portability (also linear) and, in the rare case that rejects
// some rewrites, plans again without them. A pass reads the program in its
// dense form (dais.Load: an ALIR program, checked), analyses it, and writes
// the program it makes back as the dense form; no pass makes ir ops
// (printing does, dais.Materialize).
//
// # What keeps outputs identical
//
// The passes work on portable programs, which the dais verifier guarantees
// (alir.Program.Portability): every value lies in its op's type. ALIR
// arithmetic is exact (ERRATA, "Quantization"): add, sub and const_add
// compute their real result exactly and floor it to their step; neg and
// mul give the raw result (-a, a*b) and const and lookup their raw value,
// unscaled; only the quantizing ops, relu, quantize and mux (and input),
// floor to their step and wrap to their width. In a portable program no op
// but those wraps, so an op's value is always its exact result brought to
// its step, and it lies in its type. Such an op depends only on its
// operands' real values and steps, never on their intervals, and a rewrite
// may change an operand's interval (at the same step) as long as the value
// stays the same. Three kinds of use do see the type: a lookup's index
// depends on its operand's min and width, a mux condition is the most
// significant bit of the operand's width, and the bit operations work on
// raw bits of the operand's width. The passes never change a value's type
// under such a use (dais-narrow pins it), and every replacement of one
// value by another (fold, CSE) requires identical types.
//
// The passes also keep programs portable: a new or narrowed type holds the
// range of its op's values as Portability proves it (dais-narrow and
// dais-balance derive types from a value-range analysis that is never
// tighter than Portability's), steps obey the original interpreters' shift
// rules (a quantize or relu never makes the step finer, neg and mul keep
// their exact steps, a mux reaches its step by left shifts), and dais-fold
// checks its rewrites with Portability itself (see Fold).
//
// Types are the slot types of lower/dais: dais.FixedType, `!dais.q<min, max,
// step>`, whose fixed-point type (signed, integers, fractionals) follows
// the ERRATA rule; raw values r stand for r*step.
package daisopt
