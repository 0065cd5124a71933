// Package promote implements the `promote-types` pass, which makes Allo's
// type promotion explicit in OTIR. The rules themselves (the rule table,
// result type inference, CheckOp) are package
// github.com/otir-dev/otir/typing, shared with the parser and the verifier.
//
// The pass (exact.go, compute.go, semantics.go, ranges.go, tree.go,
// rewrite.go, pass.go) inserts otir.cast so each element-wise operation
// computes in one type and, in the hls style, rebuilds integer add/sub and
// mul expressions as balanced trees typed by the n-ary rules. The pass never
// changes the value a program computes (see compute.go and tree.go for the
// conditions).
//
// docs/type-promotion.md describes the rules and the pass for users.
package promote
