// Package typing holds the typing rules of the otir dialect: Allo's type
// promotion rules, in its two typing styles `hls` and `cpp` (spec:
// allo-type-promotion.md and ERRATA.md, section "Allo type promotion").
// It sits just above ir, so that the parser (result type inference), the
// otir dialect's element-wise Verify hook (CheckOp) and the promote-types pass (passes/promote) share one
// copy of the rules.
//
// It has two parts:
//
//   - the rule table (kinds.go, selectors.go, rules.go, nary.go, promote.go):
//     Allo's TypeRuleTable as data plus small functions, keyed by Allo's
//     operator names ("add", "bitwise_and", "lshift", "exp", ...);
//   - inference and checking (opkeys.go, infer.go, check.go): InferResult
//     maps an OTIR element-wise operation to its Allo operator key (the
//     Typing key of the op's record, ir.OpDef, which dialect/otir fills;
//     otir.cmp's from its predicate), promotes
//     the element types and broadcasts the shapes (the parser calls it for
//     `: T1, T2` annotations); CheckOp holds an operation whose types are
//     written out to the same rules (the verifier calls it).
//
// docs/type-promotion.md describes the rules for users.
package typing
