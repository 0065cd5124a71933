// A function kind on a quantized operand becomes otir.lookup of the table
// over every stored value of the operand: tanh of i6 at 2^-3 into i8 at
// 2^-4, entry j = floor(16·tanh((j - 32)/8)) (computed apart: Python's
// [math.floor(math.tanh(q/8)*16) for q in range(-32, 32)]). The circuit is
// one ALIR lookup (opcode 8) per element, and no adder.
// RUN: otir-opt %s --nn-to-otir | FileCheck %s
// RUN: otir-opt %s --pass-pipeline='builtin.module(nn-to-circuit)' --emit=alir-json -o %t.json
// RUN: otir-run info %t.json | FileCheck %s --check-prefix=INFO
// RUN: echo '-4 -0.125 0.3 3.99' > %t.in.txt
// RUN: echo '-5 100 -100 0.0625' >> %t.in.txt
// RUN: otir-run %t.json --input %t.in.txt --output - | FileCheck %s --check-prefix=OUT

// CHECK:      otir.kernel @f(%arg0: !otir.tile<4xi6, #global>, %arg1: !otir.tile<4xi8, #global>) attributes {frac_bits = array<i64: 3, 4>} {
// CHECK-NEXT:   %0 = otir.load %arg0
// CHECK-NEXT:   %1 = otir.lookup %0, table(dense<[-16, -16, -16, -16, -16, -16, -16, -16, -16, -16, -16, -16, -16, -16, -16, -16, -16, -16, -16, -15, -15, -15, -14, -13, -13, -12, -11, -9, -8, -6, -4, -2, 0, 1, 3, 5, 7, 8, 10, 11, 12, 12, 13, 14, 14, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15]> : tensor<64xi8>) : !otir.tile<4xi6, #private> -> !otir.tile<4xi8, #private>
// CHECK-NEXT:   otir.store %1, %arg1

// INFO:      -1 input          4
// INFO-NEXT:  8 lookup         4
// INFO:      tables:      1 (64 entries)

// Inputs quantize to i6 at 2^-3 (floor(8x), wrapped to [-32, 31]): -4 ->
// -32, -0.125 -> -1, 0.3 -> 2, 3.99 -> 31; -5 -> -40 wraps to 24, 100 ->
// 800 and -100 -> -800 wrap to -32, 0.0625 -> 0. Outputs: table[q + 32]/16
// (the same Python, with the wrap, gives these rows).
// OUT:      -1 -0.125 0.1875 0.9375
// OUT-NEXT: 0.9375 -1 -1 0
nn.graph @f(%x: tensor<4x!quant.uniform<i6:f64, 0.125>>) -> tensor<4x!quant.uniform<i8:f64, 0.0625>> {
  %0 = nn.tanh %x : (tensor<4x!quant.uniform<i6:f64, 0.125>>) -> tensor<4x!quant.uniform<i8:f64, 0.0625>>
  nn.return %0 : tensor<4x!quant.uniform<i8:f64, 0.0625>>
}
