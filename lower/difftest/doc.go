// Package difftest checks lower-tiles against the reference executor: a
// kernel is run by backend/exec on random arguments, and its lowered
// dais.program (converted to ALIR), before and after dais-optimize, by the
// ALIR interpreter and by runAlkaid (alkaid's int64 interpreter, written
// again from its C++ source) on the same inputs; the final contents of
// every written #global argument must agree bit for bit, and both programs
// must be portable (every value in its op's type: ALIR adders never wrap).
//
// Check does this for one kernel; Generate writes random valid integer
// kernels (grids, slices, DMA with double buffering, loops, data-dependent
// scf.if, select, comparisons, matmuls with constant and non-constant
// operands, some followed by a narrowed min or max and an abs or neg,
// atomics, mixed widths under both typing styles) as OTIR text.
// The package's test runs a few hundred generated kernels; set
// OTIR_DIFFTEST_KERNELS to run more. Any disagreement found becomes a golden
// test in testdata/.
package difftest
