// Package dais is the `dais` dialect: OTIR's scalar dataflow, the form a tile
// kernel takes once lower-tiles has unrolled it, and a faithful text form of
// an ALIR program (backend/alir).
//
// A `dais.program` op holds one block. Its operations map one to one onto
// the ALIR program model: each op with a result is one ALIR buffer slot, in
// block order, and its result type `!dais.q<min, max, step>` (FixedType)
// is the slot's quantization interval. `dais.table` ops (no result) hold the
// lookup tables, in order, and the block ends with `dais.output`, which lists
// the program's outputs. The ops and their ALIR opcodes:
//
//	dais.input      -1  {index}            input[index], quantized
//	dais.neg        -2  (a)                -a
//	dais.add         0  (a, b) {shift}     a + b*2^shift
//	dais.sub         1  (a, b) {shift}     a - b*2^shift
//	dais.relu        2  (a)                quantize(max(a, 0))
//	dais.quantize    3  (a)                quantize(a)
//	dais.const_add   4  (a) {value, exp}   a + value*2^-exp
//	dais.const       5  {value}            value*step (value is the raw integer)
//	dais.mux         6  (c, a, b) {shift}  msb(c) ? a : b*2^shift
//	dais.mul         7  (a, b)             a * b
//	dais.lookup      8  (a) {table}        table[(a - min_a)/step_a]
//	dais.bit_unary   9  (a) {kind}         kind "not", "any" or "all"
//	dais.bit_binary 10  (a, b) {kind, shift} kind "and", "or" or "xor"
//	dais.sum        11  (x_0, x_1, ...) {shifts, negs}  Σ ±x_k*2^shifts[k] (ALIR spec 4;
//	                    made by dais-fuse-sums only, which the other passes leave alone)
//
// Every op may carry `latency` and `cost` (f64) attributes: ALIR's per-op
// estimates (see Annotate for the da4ml cost model). `dais.program` carries
// sym_name, carry_size, adder_size, inp_shifts and, optionally, firmware
// (the binary headers' firmware word) and input_args / output_args (the
// names of the kernel arguments whose elements are the inputs and outputs,
// set by lower-tiles). `dais.output` lists one operand per non-zero output
// and has three array<i64> attributes of one entry per output: `outputs`
// (the operand number, or -1 for a constant zero output), `shifts` and
// `negs` (0 or 1): output j is (negs[j] ? -v : v) * 2^shifts[j].
//
// ToALIR and FromALIR convert between a program op and *alir.Program; the
// conversion round-trips exactly for every valid ALIR program.
//
// A program is held in one of two forms. In ops form its block holds the
// ops above (as parsed from text, or made by FromALIR). In dense form
// (Dense, dense.go) its block is empty and the program carries the
// alir.Program itself, with a source location per op: lower-tiles emits
// this form, the dais passes read and write it, the verifier checks it
// (alir's Validate and Portability, no ops made) and --emit writes it.
// The text is a view: Materialize makes the ops (the ones FromALIR
// makes, so the printed text is what it always was), and otir-opt does so
// before printing a module. Load gives the dense form of either.
package dais
