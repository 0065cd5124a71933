// A quantized graph (tests/nn/Inputs/alkaid-mlp-q.mlir: signed and unsigned
// storage, exact f64 tensors between them) verifies clean, and its pretty
// and generic forms print back as they were read (the generic form spells
// the storage u7 as MLIR's quant dialect does, not ui7).
// RUN: otir-opt %S/Inputs/alkaid-mlp-q.mlir | otir-opt | FileCheck %s
// RUN: otir-opt %S/Inputs/alkaid-mlp-q.mlir --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: otir-opt %S/Inputs/alkaid-mlp-q.mlir --print-op-generic | otir-opt | FileCheck %s
// RUN: otir-opt %S/Inputs/alkaid-mlp-q.mlir --print-op-generic | otir-opt --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: nn.graph @mlp(%arg0: tensor<16x!quant.uniform<i9:f64, 0.125>>) -> tensor<5x!quant.uniform<i12:f64, 0.125>> {
// CHECK-NEXT: %0 = nn.linear %arg0 {params = "fc1"} : (tensor<16x!quant.uniform<i9:f64, 0.125>>) -> tensor<64xf64>
// CHECK-NEXT: %1 = nn.relu %0 : (tensor<64xf64>) -> tensor<64x!quant.uniform<u7:f64, 0.125>>
// CHECK-NEXT: %2 = nn.linear %1 {params = "fc2"} : (tensor<64x!quant.uniform<u7:f64, 0.125>>) -> tensor<32xf64>
// CHECK-NEXT: %3 = nn.relu %2 : (tensor<32xf64>) -> tensor<32x!quant.uniform<u7:f64, 0.125>>
// CHECK-NEXT: %4 = nn.linear %3 {params = "fc3"} : (tensor<32x!quant.uniform<u7:f64, 0.125>>) -> tensor<32xf64>
// CHECK-NEXT: %5 = nn.relu %4 : (tensor<32xf64>) -> tensor<32x!quant.uniform<u7:f64, 0.125>>
// CHECK-NEXT: %6 = nn.linear %5 {params = "fc4"} : (tensor<32x!quant.uniform<u7:f64, 0.125>>) -> tensor<5x!quant.uniform<i12:f64, 0.125>>
// CHECK-NEXT: nn.return %6 : tensor<5x!quant.uniform<i12:f64, 0.125>>

// GENERIC: "nn.graph"() ({
// GENERIC-NEXT: ^bb0(%arg0: tensor<16x!quant.uniform<i9:f64, 0.125>>):
// GENERIC-NEXT: %0 = "nn.linear"(%arg0) {params = "fc1"} : (tensor<16x!quant.uniform<i9:f64, 0.125>>) -> tensor<64xf64>
// GENERIC-NEXT: %1 = "nn.relu"(%0) : (tensor<64xf64>) -> tensor<64x!quant.uniform<u7:f64, 0.125>>
// GENERIC: %6 = "nn.linear"(%5) {params = "fc4"} : (tensor<32x!quant.uniform<u7:f64, 0.125>>) -> tensor<5x!quant.uniform<i12:f64, 0.125>>
// GENERIC-NEXT: "nn.return"(%6) : (tensor<5x!quant.uniform<i12:f64, 0.125>>) -> ()
// GENERIC-NEXT: }) {function_type = (tensor<16x!quant.uniform<i9:f64, 0.125>>) -> tensor<5x!quant.uniform<i12:f64, 0.125>>, sym_name = "mlp"} : () -> ()

// nn.requantize (tests/nn/Inputs/quantized/requantize.mlir, gen.py's) prints
// back as read, in both forms.
// RUN: otir-opt %S/Inputs/quantized/requantize.mlir | otir-opt | FileCheck %s --check-prefix=REQ
// RUN: otir-opt %S/Inputs/quantized/requantize.mlir --print-op-generic | otir-opt | FileCheck %s --check-prefix=REQ
// RUN: otir-opt %S/Inputs/quantized/requantize.mlir --print-op-generic | FileCheck %s --check-prefix=REQGEN
// REQ: %1 = nn.requantize %arg0 {overflow = "saturate", rounding = "ROUND"} : (tensor<70x!quant.uniform<i10:f64, 0.125>>) -> tensor<70x!quant.uniform<i6:f64, 0.25>>
// REQ: %10 = nn.requantize %0 : (tensor<70xf64>) -> tensor<70x!quant.uniform<i6:f64, 0.25>>
// REQ: %12 = nn.requantize %arg0 {overflow = "saturate", rounding = "ROUND"} : (tensor<70x!quant.uniform<i10:f64, 0.125>>) -> tensor<70x!quant.uniform<i4:f64, 2.0>>
// REQGEN: %1 = "nn.requantize"(%arg0) {overflow = "saturate", rounding = "ROUND"} : (tensor<70x!quant.uniform<i10:f64, 0.125>>) -> tensor<70x!quant.uniform<i6:f64, 0.25>>
