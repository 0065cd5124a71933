// The QONNX quantizers (dialect/nn/qonnx.go): the pretty and generic forms
// of nn.quant, nn.bipolar_quant, nn.trunc, nn.float_quant and nn.multithreshold print back as they were read,
// their attributes sorted.
// RUN: otir-opt %s | otir-opt | FileCheck %s
// RUN: otir-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: otir-opt %s --print-op-generic | otir-opt | FileCheck %s

// CHECK-LABEL: nn.graph @quantizers(%arg0: tensor<4x6xf64>) -> (tensor<4x6xf64>, tensor<4x6xf64>, tensor<4x6xf64>, tensor<4x6xf64>, tensor<4x6xf64>) {
// CHECK-NEXT: %0 = nn.quant %arg0 {bits = 4, narrow = false, params = "q", rounding = "ROUND", signed = true} : (tensor<4x6xf64>) -> tensor<4x6xf64>
// CHECK-NEXT: %1 = nn.bipolar_quant %arg0 {params = "b"} : (tensor<4x6xf64>) -> tensor<4x6xf64>
// CHECK-NEXT: %2 = nn.trunc %0 {in_bits = 8, narrow = false, out_bits = 4, params = "t", rounding = "FLOOR", signed = true, version = 2} : (tensor<4x6xf64>) -> tensor<4x6xf64>
// CHECK-NEXT: %3 = nn.float_quant %arg0 {exponent_bias = 7, exponent_bits = 4, mantissa_bits = 3, params = "f", rounding = "FLOOR"} : (tensor<4x6xf64>) -> tensor<4x6xf64>
// CHECK-NEXT: %4 = nn.multithreshold %arg0 {axis = 1, out_bias = -4.0 : f64, out_scale = 0.5 : f64, params = "m"} : (tensor<4x6xf64>) -> tensor<4x6xf64>
// CHECK-NEXT: nn.return %0, %1, %2, %3, %4 : tensor<4x6xf64>, tensor<4x6xf64>, tensor<4x6xf64>, tensor<4x6xf64>, tensor<4x6xf64>

// GENERIC: %0 = "nn.quant"(%arg0) {bits = 4, narrow = false, params = "q", rounding = "ROUND", signed = true} : (tensor<4x6xf64>) -> tensor<4x6xf64>
// GENERIC-NEXT: %1 = "nn.bipolar_quant"(%arg0) {params = "b"} : (tensor<4x6xf64>) -> tensor<4x6xf64>
// GENERIC-NEXT: %2 = "nn.trunc"(%0) {in_bits = 8, narrow = false, out_bits = 4, params = "t", rounding = "FLOOR", signed = true, version = 2} : (tensor<4x6xf64>) -> tensor<4x6xf64>
// GENERIC-NEXT: %3 = "nn.float_quant"(%arg0) {exponent_bias = 7, exponent_bits = 4, mantissa_bits = 3, params = "f", rounding = "FLOOR"} : (tensor<4x6xf64>) -> tensor<4x6xf64>
// GENERIC-NEXT: %4 = "nn.multithreshold"(%arg0) {axis = 1, out_bias = -4.0 : f64, out_scale = 0.5 : f64, params = "m"} : (tensor<4x6xf64>) -> tensor<4x6xf64>

nn.graph @quantizers(%x: tensor<4x6xf64>) -> (tensor<4x6xf64>, tensor<4x6xf64>, tensor<4x6xf64>, tensor<4x6xf64>, tensor<4x6xf64>) {
  %q = nn.quant %x {params = "q", bits = 4, signed = true, narrow = false, rounding = "ROUND"} : (tensor<4x6xf64>) -> tensor<4x6xf64>
  %b = nn.bipolar_quant %x {params = "b"} : (tensor<4x6xf64>) -> tensor<4x6xf64>
  %t = nn.trunc %q {params = "t", in_bits = 8, out_bits = 4, signed = true, narrow = false, rounding = "FLOOR", version = 2} : (tensor<4x6xf64>) -> tensor<4x6xf64>
  %f = nn.float_quant %x {params = "f", exponent_bits = 4, mantissa_bits = 3, exponent_bias = 7, rounding = "FLOOR"} : (tensor<4x6xf64>) -> tensor<4x6xf64>
  %m = nn.multithreshold %x {params = "m", axis = 1, out_scale = 0.5, out_bias = -4.0} : (tensor<4x6xf64>) -> tensor<4x6xf64>
  nn.return %q, %b, %t, %f, %m : tensor<4x6xf64>, tensor<4x6xf64>, tensor<4x6xf64>, tensor<4x6xf64>, tensor<4x6xf64>
}
