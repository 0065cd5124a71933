// Package kernels lowers quantized nn graphs (dialect/nn with
// !quant.uniform tensors, ../shared/design/nn-graph.md §5) to OTIR kernels
// of integer tiles: the pass nn-to-otir. The pipeline nn-to-circuit
// (pipelines/nncircuit) continues through promote-types, lower-tiles and
// dais-optimize to one combinational ALIR program per graph
// (docs/nn-to-circuit.md).
//
// Each graph becomes one otir.kernel of the same name, with one #global
// argument per graph input and one per graph output (named after the
// input, and out0, out1, ...), no grid, and the kernel attribute frac_bits
// giving each argument's scale (docs/otir-extensions.md): the circuit reads
// real inputs and writes real outputs, as alkaid's programs do. Every nn
// value is an integer tile q with a power-of-two scale 2^-F and an exact
// integer interval [lo, hi]; quantized values use their storage type (iW,
// uW), exact (f64) values the narrowest integer type of their interval.
// linear and conv2d with payload weights become otir.matmul by a constant
// integer tile (weights times 2^fw, fw the smallest exponent that makes them
// integers), so that lower-tiles solves them with the CMVM solver.
//
// The lowering of every node kind is one entry of the table in table.go,
// the only file of the package that names nn operations; emit.go is the
// only one that names otir operations.
package kernels
