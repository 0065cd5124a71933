// The spellings of floats MLIR reads, with a decimal point: 1.0e-5, 1.e-5,
// 1.0E+5, and the form mlir-opt prints (1.000000e-05); otir prints the
// shortest that reads back (1.0e-05).
// RUN: otir-opt %s | FileCheck %s

// CHECK: epsilon = 1.0e-05 : f64
// CHECK: epsilon = 1.0e-05 : f64
// CHECK: epsilon = 1.0e-05 : f64
// CHECK: epsilon = 100000.0 : f64
nn.graph @g(%x: tensor<3xf64>) -> tensor<3xf64> {
  %a = nn.layer_norm %x {axis = 0, epsilon = 1.0e-5} : (tensor<3xf64>) -> tensor<3xf64>
  %b = nn.layer_norm %a {axis = 0, epsilon = 1.e-5} : (tensor<3xf64>) -> tensor<3xf64>
  %c = nn.layer_norm %b {axis = 0, epsilon = 1.000000e-05 : f64} : (tensor<3xf64>) -> tensor<3xf64>
  %d = nn.layer_norm %c {axis = 0, epsilon = 1.0E+5} : (tensor<3xf64>) -> tensor<3xf64>
  nn.return %d : tensor<3xf64>
}
