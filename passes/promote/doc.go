// Package promote implements Allo's type promotion rules, in its two typing
// styles `hls` and `cpp` (spec: allo-type-promotion.md and ERRATA.md, section
// "Allo type promotion"), and the `promote-types` pass that makes promotion
// explicit in OTIR.
//
// The package has three layers:
//
//   - the rule table (kinds.go, selectors.go, rules.go, nary.go, promote.go):
//     Allo's TypeRuleTable as data plus small functions, keyed by Allo's
//     operator names ("add", "bitwise_and", "lshift", "exp", ...);
//   - inference (opkeys.go, infer.go): InferResult maps an OTIR element-wise
//     operation to its Allo operator key, promotes the element types and
//     broadcasts the shapes; the parser calls it for `: T1, T2` annotations;
//   - the pass (exact.go, compute.go, tree.go, rewrite.go, pass.go): inserts
//     otir.cast so each element-wise operation computes in one type and, in
//     the hls style, rebuilds integer add/sub and mul expressions as balanced
//     trees typed by the n-ary rules. The pass never changes the value a
//     program computes (see compute.go and tree.go for the conditions).
//
// docs/type-promotion.md describes the rules and the pass for users.
package promote
