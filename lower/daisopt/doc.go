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
// which is n log n (a heap per chain). A pass first reads the program as an ALIR
// program (dais.ToALIR), which checks it, and analyses that compact form; it
// then rewrites the ops of the block in place.
//
// # What keeps outputs identical
//
// ALIR arithmetic is exact: an add, sub, neg, relu, quantize, const_add, mux
// or mul computes its real result exactly and then quantizes it to its
// result type (floor to the step, wrap to the width). So such an op depends
// only on its operands' real values, never on their types, and a rewrite may
// change an operand's type as long as the value stays the same. Three kinds
// of use do see the type: a lookup's index depends on its operand's min and
// width, a mux condition is the most significant bit of the operand's width,
// and the bit operations work on raw bits of the operand's width. The passes
// never change a value's type under such a use (dais-narrow pins it), and
// every replacement of one value by another (fold, CSE) requires identical
// types.
//
// Types are the slot types of lower/dais: ir.FixedType, `!dais.q<min, max,
// step>`, whose fixed-point type (signed, integers, fractionals) follows
// the ERRATA rule; raw values r stand for r*step.
package daisopt
