// Package cmvm lowers a constant-matrix-vector multiplication y = M·x into a
// graph of shift-and-add operations (an adder graph) for ALIR.
//
// M is an integer matrix (rows are outputs and columns inputs, unless
// Problem.Transposed says otherwise) and each input x_j is a fixed-point
// variable whose values lie in a known Interval (a power-of-two step, 1 for
// integers). The result is a Graph: a list of two-input operations
// t = a ± (b << s), s >= 0, over the inputs and earlier operations (ALIR
// opcodes 0 and 1), plus, for every output, the node it reads with a free
// left shift and negation (ALIR outputs carry both), or zero.
//
// The algorithm (docs/cmvm.md has the details and the figures):
//
//  1. Every matrix entry is written in canonical signed digits (CSD, the
//     non-adjacent form), so an output is a signed sum of shifted inputs.
//  2. Without a depth bound, the matrix is first decomposed along a minimum
//     spanning tree (in CSD digits) of its rows, y_i = D_i ± y_parent(i)
//     (da4ml's decomposition), or of its columns, c_j = δ_j ± c_parent(j),
//     which turns the inputs into subtree sums w_k and leaves the CMVM of
//     the δ over them. Both are tried.
//  3. Common two-term patterns a ± (b << d), normalised for shift and sign so
//     that the same pattern is found wherever it appears, are extracted
//     greedily: the most frequent first, ties going to the pattern whose
//     extraction destroys the least repetition among the other patterns
//     (its conflicts), recursively (patterns may combine earlier patterns)
//     until no pattern occurs twice. Under a depth bound a pattern is only
//     substituted where every output stays within the bound.
//  4. What remains of each output is summed by a depth-aware adder tree.
//  5. Signs are folded: ops flip the sign they store (a + b into -a - b
//     written as (-a) - b, a - b into b - a) so that outputs read their
//     node plain and no negation is left where one can be avoided.
//
// A problem with too many digit pairs for CSE is split by inputs into
// blocks, each solved as above, whose values every output sums; a tall one
// (more inputs than outputs) is solved as its transpose when that needs
// fewer blocks, and the graph transposed back (the transposition
// principle). Large problems track only their frequent patterns, counting
// the rows again when the rest may matter.
//
// Further randomised attempts (noisy tie-breaks and spanning trees) may be
// made; the graph with the fewest adders is kept. Everything is
// deterministic for a given Options.Seed.
//
// Every node carries its exact value interval (from the inputs' intervals and
// its integer coefficients over them), its depth, and its cost and latency in
// da4ml's cost model, so a later pass can size each adder. Solve never
// panics: malformed problems, and problems whose values do not fit in int64,
// are reported as errors.
package cmvm
