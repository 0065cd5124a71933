// Inline constants: nn.const with `value`, a dense attribute of f64
// numbers, beside payload constants (docs/nn.md, "Inline constants"). The
// pretty and generic forms print back as they were read: a list, a splat,
// a rank-0 value, a value of another shape with the result's element count,
// and a quantized result.
// RUN: otir-opt %s | otir-opt | FileCheck %s
// RUN: otir-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: otir-opt %s --print-op-generic | otir-opt | FileCheck %s
// RUN: otir-opt %s --print-op-generic | otir-opt --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: nn.graph @inline(%arg0: tensor<2x3xf64>) -> tensor<2x3xf64> {
// CHECK-NEXT: %[[L:.*]] = nn.const {value = dense<{{\[}}[1.0, -2.5, 3.0], [0.0, 1.0e-05, -0.125]]> : tensor<2x3xf64>} : () -> tensor<2x3xf64>
// CHECK-NEXT: %[[S:.*]] = nn.const {value = dense<0.5> : tensor<2x3xf64>} : () -> tensor<2x3xf64>
// CHECK-NEXT: %[[Z:.*]] = nn.const {value = dense<2.0> : tensor<f64>} : () -> tensor<f64>
// CHECK-NEXT: %[[F:.*]] = nn.const {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf64>} : () -> tensor<2x3xf64>
// CHECK-NEXT: %[[P:.*]] = nn.const {params = "p"} : () -> tensor<2x3xf64>
// CHECK: nn.return
// GENERIC: "nn.const"() {value = dense<{{\[}}[1.0, -2.5, 3.0], [0.0, 1.0e-05, -0.125]]> : tensor<2x3xf64>} : () -> tensor<2x3xf64>
// GENERIC-NEXT: "nn.const"() {value = dense<0.5> : tensor<2x3xf64>} : () -> tensor<2x3xf64>
// GENERIC-NEXT: "nn.const"() {value = dense<2.0> : tensor<f64>} : () -> tensor<f64>
// GENERIC-NEXT: "nn.const"() {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf64>} : () -> tensor<2x3xf64>
// GENERIC-NEXT: "nn.const"() {params = "p"} : () -> tensor<2x3xf64>
nn.graph @inline(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %l = nn.const {value = dense<[[1.0, -2.5, 3.0], [0.0, 1.0e-05, -0.125]]> : tensor<2x3xf64>} : () -> tensor<2x3xf64>
  %s = nn.const {value = dense<0.5> : tensor<2x3xf64>} : () -> tensor<2x3xf64>
  %z = nn.const {value = dense<2.0> : tensor<f64>} : () -> tensor<f64>
  %f = nn.const {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf64>} : () -> tensor<2x3xf64>
  %p = nn.const {params = "p"} : () -> tensor<2x3xf64>
  %a = nn.add %l, %s : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %b = nn.add %a, %f : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %c = nn.add %b, %p : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  nn.return %c : tensor<2x3xf64>
}

// CHECK-LABEL: nn.graph @quantized(%arg0: tensor<2x!quant.uniform<i8:f64, 0.25>>)
// CHECK-NEXT: nn.const {value = dense<[0.3, -1.0]> : tensor<2xf64>} : () -> tensor<2x!quant.uniform<i8:f64, 0.25>>
// GENERIC: "nn.const"() {value = dense<[0.3, -1.0]> : tensor<2xf64>} : () -> tensor<2x!quant.uniform<i8:f64, 0.25>>
nn.graph @quantized(%x: tensor<2x!quant.uniform<i8:f64, 0.25>>) -> tensor<2x!quant.uniform<i9:f64, 0.25>> {
  %c = nn.const {value = dense<[0.3, -1.0]> : tensor<2xf64>} : () -> tensor<2x!quant.uniform<i8:f64, 0.25>>
  %y = nn.add %x, %c : (tensor<2x!quant.uniform<i8:f64, 0.25>>, tensor<2x!quant.uniform<i8:f64, 0.25>>) -> tensor<2x!quant.uniform<i9:f64, 0.25>>
  nn.return %y : tensor<2x!quant.uniform<i9:f64, 0.25>>
}
