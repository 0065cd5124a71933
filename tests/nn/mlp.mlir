// The design's example graph (docs/nn.md), with an otir kernel in the same
// module: both dialects share a file, and both forms print back as read.
// RUN: otir-opt %s | otir-opt | FileCheck %s
// RUN: otir-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: otir-opt %s --print-op-generic | otir-opt | FileCheck %s

// CHECK-LABEL: nn.graph @mlp(%arg0: tensor<784xf64>) -> tensor<10xf64> {
// CHECK-NEXT:    %0 = nn.linear %arg0 {params = "fc1"} : (tensor<784xf64>) -> tensor<128xf64>
// CHECK-NEXT:    %1 = nn.relu %0 : (tensor<128xf64>) -> tensor<128xf64>
// CHECK-NEXT:    %2 = nn.linear %1 {params = "fc2"} : (tensor<128xf64>) -> tensor<10xf64>
// CHECK-NEXT:    %3 = nn.softmax %2 {axis = 0} : (tensor<10xf64>) -> tensor<10xf64>
// CHECK-NEXT:    nn.return %3 : tensor<10xf64>
// CHECK-NEXT:  }
// CHECK-NEXT:  otir.kernel @k

// GENERIC:      "nn.graph"() ({
// GENERIC-NEXT: ^bb0(%arg0: tensor<784xf64>):
// GENERIC-NEXT:   %0 = "nn.linear"(%arg0) {params = "fc1"} : (tensor<784xf64>) -> tensor<128xf64>
// GENERIC-NEXT:   %1 = "nn.relu"(%0) : (tensor<128xf64>) -> tensor<128xf64>
// GENERIC-NEXT:   %2 = "nn.linear"(%1) {params = "fc2"} : (tensor<128xf64>) -> tensor<10xf64>
// GENERIC-NEXT:   %3 = "nn.softmax"(%2) {axis = 0} : (tensor<10xf64>) -> tensor<10xf64>
// GENERIC-NEXT:   "nn.return"(%3) : (tensor<10xf64>) -> ()
// GENERIC-NEXT: }) {function_type = (tensor<784xf64>) -> tensor<10xf64>, sym_name = "mlp"} : () -> ()
nn.graph @mlp(%x: tensor<784xf64>) -> tensor<10xf64> {
  %0 = nn.linear %x {params = "fc1"} : (tensor<784xf64>) -> tensor<128xf64>
  %1 = nn.relu %0 : (tensor<128xf64>) -> tensor<128xf64>
  %2 = nn.linear %1 {params = "fc2"} : (tensor<128xf64>) -> tensor<10xf64>
  %3 = nn.softmax %2 {axis = 0} : (tensor<10xf64>) -> tensor<10xf64>
  nn.return %3 : tensor<10xf64>
}

otir.kernel @k(%g: !otir.tile<4xi8, #global>) {
  otir.return
}
