// Package tiles is the lower-tiles pass: it turns each verified (and
// promoted) otir.kernel into a dais.program, one combinational block of
// fixed-point operations with the same results as the reference executor.
//
// The kernel is interpreted symbolically, workgroup by workgroup in
// row-major order: index arithmetic, program ids and loop counters fold to
// constants, so static scf.for loops unroll and slices resolve; every tile
// operation works element by element; #global and #workgroup memory is an
// array of cells updated in program order by stores, DMA copies (at their
// wait) and atomics; data-dependent scf.if and otir.select become muxes.
// Each scalar element is a constant or a program slot with an exact integer
// interval (big.Ints, computed in int64 while they fit: small.go); an operation's result is exact when it fits its OTIR type and
// otherwise takes the type's whole range, so ALIR's quantization wraps it
// exactly as the executor's conversion does.
//
// The inputs of the program are the elements of the arguments whose
// initial contents the kernel observes, the outputs the final elements of
// the #global arguments it writes, both in argument order, row-major (the
// program's input_args and output_args attributes name them). What has no
// combinational equivalent (floats, data-dependent trip counts or
// addresses, division by a non-constant, programs beyond max-ops) is a
// diagnostic at the operation. The program is emitted in the dais
// dialect's dense form (dais.Dense): an alir.Op per slot, no ir.Operation.
// See docs/lowering.md.
package tiles
